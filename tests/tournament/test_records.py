"""Every tournament game's full record is kept in the tournament database, and
`sheepfold replay` replays it from there: a tournament on its own in-process
server loses nothing when that server goes away."""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path

import pytest

import games as games_registry
from tests.cli import helpers
from tournament.config import load_config
from tournament.deals import SECRET_BYTES, secret_seed
from tournament.runner import run_tournament
from tournament.store import Store
from tournament.store_schema import MIGRATIONS

pytestmark = pytest.mark.e2e

sheepfold = functools.partial(helpers.sheepfold, timeout=120)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-bot Sheep 'n' Sheep tournament (4 games) on its own in-process server."""
    folder = tmp_path_factory.mktemp("records")
    config_path = folder / "cup.toml"
    config_path.write_text(
        'name = "records"\ngame = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 2\n'
        "seed = 5\ndecision_seconds = 4.5\ntime_bank_seconds = 2.0\nmax_strikes = 2\n"
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    db = folder / "cup.sqlite"
    summary = run_tournament(load_config(config_path), database=str(db))
    assert summary.played == summary.scheduled == 4 and summary.errors == 0
    return db


def test_each_game_keeps_its_seed_clock_actions_and_result(played: Path) -> None:
    with Store(played) as store:
        tid = store.tournament("records").id
        secret = store.deal_secret(tid)
        assert secret is not None and len(secret) == SECRET_BYTES
        games = {game.match_id: game for game in store.games(tid)}
        entries = store.replays(tid)
        assert store.replays() == entries
        assert {entry.match_id for entry in entries} == set(games)
        for entry in entries:
            game = games[entry.match_id]
            assert (entry.tournament, entry.key, entry.game, entry.players) == (
                "records",
                game.key,
                "sheep-n-sheep",
                2,
            )
            assert entry.bots == game.bots
            replay = store.replay(entry.match_id)
            assert replay is not None
            assert replay.match_id == entry.match_id
            # Played from the deal number's secret seed, never from the number itself.
            assert replay.seed == secret_seed(secret, game.seed) != game.seed
            assert replay.rules_version == games_registry.get("sheep-n-sheep").rules_version
            assert (
                replay.clock.decision_seconds,
                replay.clock.time_bank_seconds,
                replay.clock.max_strikes,
            ) == (4.5, 2.0, 2)
            assert len(replay.actions) > 10
            assert tuple(replay.result.scores) == game.scores
        assert store.replay("no-such-match") is None


def test_sheepfold_replay_reads_a_tournament_database(played: Path) -> None:
    with Store(played) as store:
        entry = store.replays()[0]
        replay = store.replay(entry.match_id)
    assert replay is not None
    done = sheepfold("replay", entry.match_id, "--db", str(played))
    assert done.returncode == 0, done.stderr
    assert f"match {entry.match_id}" in done.stdout
    assert "clock 4.5 s per decision, bank 2 s, 2 strikes" in done.stdout
    assert f"== move {len(replay.actions)}  seat" in done.stdout
    assert "replay verified" in done.stdout
    assert "colours: W white, K black" in done.stdout, "the board symbols are explained"

    missing = sheepfold("replay", "nope", "--db", str(played))
    assert missing.returncode == 1
    assert missing.stderr.strip() == (
        f"sheepfold replay: no match 'nope' in the tournament database {played}"
    )
    # A pasted screenful is quoted back cut short, not whole.
    long = sheepfold("replay", "x" * 100_000, "--db", str(played))
    assert long.returncode == 1
    assert long.stderr.strip() == (
        f"sheepfold replay: no match '{'x' * 36}... in the tournament database {played}"
    )


def test_a_game_stored_before_records_were_kept_is_explained(played: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    old.write_bytes(played.read_bytes())
    for suffix in ("-wal", "-shm"):
        if Path(f"{played}{suffix}").exists():
            Path(f"{old}{suffix}").write_bytes(Path(f"{played}{suffix}").read_bytes())
    with sqlite3.connect(old) as raw:
        match_id = raw.execute("SELECT match_id FROM games ORDER BY id LIMIT 1").fetchone()[0]
        raw.execute("DELETE FROM game_replays")
    done = sheepfold("replay", match_id, "--db", str(old))
    assert done.returncode == 1
    assert "only its result was stored" in done.stderr
    # Not only old databases: a game whose record the server could not give when
    # it finished (the server went away) is stored with its result alone too.
    assert "its record could not be fetched from the game server" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_version_1_database_gains_the_records_table(tmp_path: Path) -> None:
    db = tmp_path / "v1.sqlite"
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (1)")
        raw.executescript(MIGRATIONS[0])
    with Store(db) as store:
        assert store.version == len(MIGRATIONS) >= 2  # records table, then later ones
        assert store.replays() == ()
    tables = {row[0] for row in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    assert "game_replays" in tables


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"this is not sqlite at all, just text" * 40, "is not a Sheepfold database"),
        (None, "is not a Sheepfold database: it has neither"),
    ],
)
def test_replay_of_a_file_that_is_no_sheepfold_database_is_one_line(
    tmp_path: Path, content: bytes | None, expected: str
) -> None:
    path = tmp_path / "other.db"
    if content is None:
        with sqlite3.connect(path) as raw:
            raw.execute("CREATE TABLE notes (text TEXT)")
    else:
        path.write_bytes(content)
    done = sheepfold("replay", "abc", "--db", str(path))
    assert done.returncode == 1
    assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
