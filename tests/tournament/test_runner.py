"""End to end: tournaments through a real in-process server (gRPC on loopback)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.quick_cup import Recorder
from tests.tournament.tournament_command import killed_after, tournament_main
from tournament.config import load_config
from tournament.demo import demo_round_robin
from tournament.report import report as report_of
from tournament.runner import run_tournament, schedule_for
from tournament.store import Store

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def _write(tmp_path: Path, settings: str, bots: str) -> Path:
    """A Sheep Showdown (one round) config in tmp_path that can import the test bots."""
    path = tmp_path / "cup.toml"
    path.write_text(
        f'game = "sheep-showdown"\nplayers = 2\npython_path = ["{HERE}"]\n{settings}\n'
        f"[options]\nrounds = 1\n{bots}"
    )
    return path


def test_round_robin_with_a_command_bot_through_a_real_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sandbox_ready: None
) -> None:
    """The example config (random, an SDK class bot, a command bot) plays and reports."""
    config = load_config(REPO / "examples" / "round-robin.toml")
    config = dataclasses.replace(
        config, games_per_pairing=1, options=(("rounds", "1"),), bootstrap=200
    )
    db = tmp_path / "rr.sqlite"
    recorder = Recorder()
    summary = run_tournament(config, database=str(db), progress=recorder)
    assert summary.played == summary.scheduled == 6 and not recorder.errors
    capsys.readouterr()
    assert tournament_main(["report", "--db", str(db), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    standings = {row["bot"]: row for row in data["standings"]}
    assert set(standings) == {"random", "first-choice", "command-bot"}
    for row in standings.values():
        assert row["elo_low"] <= row["elo"] <= row["elo_high"]
        assert row["games"] == 4 and row["crashes"] == 0 and row["timeouts"] == 0
    assert standings["random"]["elo"] == 0.0  # the anchor
    assert sum(row["wins"] for row in standings.values()) + sum(
        row["draws"] for row in standings.values()
    ) / 2 == pytest.approx(6)


def test_crashing_and_hanging_bots_lose_and_the_run_completes(
    tmp_path: Path, sandbox_ready: None
) -> None:
    path = _write(
        tmp_path,
        "games_per_pairing = 1\nconcurrency = 4\ndecision_seconds = 1.0\nmax_strikes = 1\n"
        "bootstrap = 50",
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        '[[bots]]\nname = "crasher"\nclass = "tournament_test_bots:CrashingBot"\n'
        '[[bots]]\nname = "hanger"\nclass = "tournament_test_bots:HangingBot"\n'
        '[[bots]]\nname = "exiter"\ncommand = ["{python}", "-c", "import sys; sys.exit(3)"]\n'
        'cwd = "exiter"\n',
    )
    (tmp_path / "exiter").mkdir()
    config = load_config(path)
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == summary.scheduled == 12 and not recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
    expected_failure = {"crasher": {"crash"}, "exiter": {"crash"}, "hanger": {"disqualified"}}
    for game in games:
        for seat in game.seats:
            if seat.bot == "steady":
                assert seat.rank == 1 and seat.failure is None
            else:
                assert seat.failure in expected_failure[seat.bot], (game.key, seat)
                if "steady" in game.bots:
                    assert seat.rank == 2
    report = json.loads(report_of(tmp_path / "t.sqlite", "json"))
    rows = {row["bot"]: row for row in report["standings"]}
    assert report["standings"][0]["bot"] == "steady"
    assert rows["crasher"]["crashes"] == 6 and rows["exiter"]["crashes"] == 6
    assert rows["hanger"]["disqualifications"] == 6 and rows["hanger"]["timeouts"] >= 6


def test_a_bot_whose_on_event_blocks_loses_its_games_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    """A class bot's `on_event` ran on the runner's event loop: one that blocked
    (`time.sleep`) stalled every game and the in-process server, and the run
    hung (for 20 s an event here; for ever for a bot that waits for ever)."""
    path = _write(
        tmp_path,
        "games_per_pairing = 1\ndecision_seconds = 0.2\nmax_strikes = 1\nbootstrap = 0",
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        '[[bots]]\nname = "stuck"\nclass = "tournament_test_bots:EventHangingBot"\n',
    )
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", str(path), "--no-report"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=15,  # well under the 20 s the bot blocks for, twice over
    )
    assert done.returncode == 0, done.stderr
    with Store(tmp_path / "cup.sqlite") as store:
        games = store.games(store.tournament().id)
    assert len(games) == 2
    for game in games:
        failures = {seat.bot: seat.failure for seat in game.seats}
        assert failures == {"steady": None, "stuck": "disqualified"}, game.key


def test_resume_after_sigkill_plays_exactly_the_missing_games(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "games_per_pairing = 3\nconcurrency = 1\nbootstrap = 50",
        '[[bots]]\nname = "slow"\nclass = "tournament_test_bots:SlowBot"\n'
        '[[bots]]\nname = "quick"\nbuiltin = "random"\n',
    )
    db = tmp_path / "cup.sqlite"
    before = killed_after(2, db, ["run", str(path), "--no-report"])
    config = load_config(path)
    scheduled = {game.key for game in schedule_for(config)}
    assert 2 <= len(before) < len(scheduled)

    recorder = Recorder()
    summary = run_tournament(config, database=str(db), progress=recorder)
    assert sorted(recorder.keys) == sorted(scheduled - before)
    assert summary.already_done == len(before)
    with sqlite3.connect(db) as raw:
        keys = [row[0] for row in raw.execute("SELECT key FROM games")]
        seats = raw.execute("SELECT COUNT(*) FROM game_seats").fetchone()[0]
    assert sorted(keys) == sorted(scheduled) and seats == 2 * len(scheduled)

    again = Recorder()
    assert run_tournament(config, database=str(db), progress=again).played == 0
    assert again.keys == []


def test_demo_round_robin_returns_a_table() -> None:
    from server.app import ServerConfig
    from server.inprocess import serving_here

    async def demo() -> str:
        async with serving_here(ServerConfig()) as address:
            return await demo_round_robin(address, "sheep-showdown", ["random", "random"], 1, 3)

    table = asyncio.run(demo())
    assert "random-2" in table and "Elo" in table and "Crosstable" in table
