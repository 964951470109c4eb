"""The `sheepfold` command line, run as a user runs it: as a subprocess."""

from __future__ import annotations

import functools
import json
import os
import select
import socket
import subprocess
import sys
import time
from typing import Any

import grpc
import pytest
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

import games
from cli.play import format_summary
from tests.cli import helpers
from tests.cli.helpers import started_on_a_terminal
from tests.conftest import ROOT, ServerProcess, start_server_process, stop_server_process

SIX = "random,random,random,random,random,random"


sheepfold = functools.partial(helpers.sheepfold, timeout=120)


def test_match_json_is_one_object_and_the_same_every_time() -> None:
    args = ("match", "--game", "sheep-showdown", "--players", "6", "--bots", SIX, "--seed", "1")
    first = sheepfold(*args, "--json")
    second = sheepfold(*args, "--json")
    assert first.returncode == 0, first.stderr
    summary, again = json.loads(first.stdout), json.loads(second.stdout)
    assert len(summary.pop("match_id")) == 16 and len(again.pop("match_id")) == 16
    assert summary == again, "the same seed plays the same match (only the id differs)"
    for key in ("game", "players", "seed", "options", "scores", "ranks", "winners", "details"):
        assert key in summary
    assert summary["game"] == "sheep-showdown" and summary["seed"] == 1
    assert len(summary["scores"]) == 6 and len(summary["ranks"]) == 6
    assert min(summary["ranks"]) == 1
    assert summary["winners"] == [s for s, r in enumerate(summary["ranks"]) if r == 1]
    assert first.stderr == "", "a clean run prints nothing on stderr"


def test_match_json_gives_the_options_the_match_played_with() -> None:
    """`create --json` gives the options as the server stored them (defaults
    filled in, a bool as "true"/"false"); `match --json` gave them as typed, so
    `--option wolf=1` printed {"wolf": "1"} and a game played on its defaults
    printed {}."""
    done = sheepfold(
        "match", "--game", "stubborn-sheep", "--players", "2", "--bots", "random,random",
        "--option", "wolf=1", "--seed", "3", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"] == {"bonus_actions": "false", "wolf": "true"}


def test_a_match_without_a_seed_gets_one_too_wide_to_try_every_value() -> None:
    """A seed fixes every hidden card: one from a small range (it was 32 bits)
    lets a bot find its deal from its first observation by trying them all,
    ahead of time. Without --seed, match draws 63 bits, as the server does."""
    done = sheepfold(
        "match", "--game", "sheep-and-garden", "--players", "1", "--bots", "random", "--json"
    )
    assert done.returncode == 0, done.stderr
    seed = json.loads(done.stdout)["seed"]
    assert 2**32 <= seed < 2**63  # below 2**32 once in 2**31 runs


def test_match_text_output_names_every_seat() -> None:
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,random",
        "--seed",
        "3",
    )
    assert done.returncode == 0, done.stderr
    assert "seat 0" in done.stdout and "seat 1" in done.stdout and "winner" in done.stdout


def _summary(**changes: Any) -> dict[str, Any]:
    """A two-seat match summary as `match` prints it, with `changes`."""
    summary: dict[str, Any] = {
        "game": "sheep-n-sheep",
        "seed": 3,
        "match_id": "m",
        "bots": ["a", "b"],
        "scores": [20, 11],
        "ranks": [1, 2],
        "winners": [0],
        "strikes": [0, 0],
        "disqualified": [],
    }
    return {**summary, **changes}


def test_match_text_output_names_no_winner_when_every_seat_is_disqualified() -> None:
    summary = _summary(scores=[5, 7], ranks=[1, 1], winners=[], strikes=[1, 1], disqualified=[0, 1])
    lines = format_summary(summary).splitlines()
    assert "  winner: none (every seat was disqualified)" in lines
    assert sum("DISQUALIFIED" in line for line in lines) == 2


def test_match_text_output_names_the_options_played() -> None:
    # Only --json said them: the text named the game and seed, so a match with
    # the wolf and bonus actions read as the plain game.
    summary = _summary(game="stubborn-sheep", options={"wolf": "true", "bonus_actions": "false"})
    header = format_summary(summary).splitlines()[0]
    assert header == "stubborn-sheep  seed 3  options bonus_actions=false, wolf=true  match m"
    plain = format_summary(_summary(options={})).splitlines()[0]
    assert plain == "sheep-n-sheep  seed 3  match m"


def test_match_text_output_keeps_its_columns_with_a_long_bot_name() -> None:
    summary = _summary(bots=["random", "cmd:{python} command_bot.py"])
    seats = [line for line in format_summary(summary).splitlines() if "  seat " in line]
    assert len({line.index(" score ") for line in seats}) == 1, seats


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "2", "--bots", "random"), "names 1 bot"),
        (("--players", "2", "--bots", "random,random", "--option", "rounds=9"), "rounds"),
        (("--players", "2", "--bots", "random,random", "--option", "nonsense"), "key=value"),
        (("--players", "2", "--bots", "random,nobody"), "unknown bot 'nobody'"),
        (("--players", "9", "--bots", ",".join(["random"] * 9)), "2 to 6 players"),
    ],
)
def test_match_bad_input_gets_a_clear_message(args: tuple[str, ...], message: str) -> None:
    done = sheepfold("match", "--game", "sheep-showdown", *args)
    assert done.returncode != 0
    assert message in done.stderr


def test_match_against_a_running_server(server_process: ServerProcess) -> None:
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,random",
        "--seed",
        "3",
        "--server",
        server_process.address,
        "--json",
    )
    assert done.returncode == 0, done.stderr
    local = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,random",
        "--seed",
        "3",
        "--json",
    )
    assert json.loads(done.stdout)["scores"] == json.loads(local.stdout)["scores"]


def test_health_is_zero_only_when_serving(server_process: ServerProcess) -> None:
    assert sheepfold("health", "--addr", server_process.address).returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    down = sheepfold("health", "--addr", f"127.0.0.1:{closed_port}", "--timeout", "1")
    assert down.returncode == 1
    assert "UNAVAILABLE" in down.stderr or "DEADLINE_EXCEEDED" in down.stderr
    # Its failure starts as every other command's lines do; the answer on stdout does not.
    assert down.stderr.startswith(f"sheepfold health: 127.0.0.1:{closed_port}: "), down.stderr


def test_reflection_lists_the_arena_service(server_process: ServerProcess) -> None:
    with grpc.insecure_channel(server_process.address) as channel:
        services = ProtoReflectionDescriptorDatabase(channel).get_services()
    assert "sheepfold.v1.Arena" in services
    assert "grpc.health.v1.Health" in services


def test_every_command_has_help() -> None:
    top = sheepfold("--help")
    assert top.returncode == 0
    commands = ["serve", "match", "bot", "health", "demo", "tournament", "replay"]
    for command in commands:
        assert command in top.stdout
        shown = sheepfold(command, "--help")
        assert shown.returncode == 0 and "usage: sheepfold " + command in shown.stdout


def test_bot_without_a_server_says_what_is_missing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "bot"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode != 0
    assert "--server" in done.stderr and "--match" in done.stderr and "--token" in done.stderr


def test_demo_prints_a_table_for_every_game_and_its_progress_on_a_terminal() -> None:
    """The demo played each game's round robin in silence: 20 to 30 s between
    two tables with the default settings, many minutes with
    --games-per-pairing 100. On a terminal a line now counts the games (and
    the tables on stdout stay as they were)."""
    code, out, terminal = _on_a_terminal("demo", "--games-per-pairing", "1", timeout=600)
    assert code == 0, terminal
    assert "Traceback" not in terminal
    assert terminal.count("[0/6]") == 4 and terminal.count("[6/6]") == 4, terminal
    assert "ETA" in terminal
    assert "bots: random, greedy, mcts; 1 seed per pairing" in out, "once '1 seed(s)'"
    sections = out.split("== ")[1:]
    titles = [games.get(name).title for name in games.names()]
    assert [s.split(" (")[0] for s in sections] == titles
    assert len(titles) == 4
    for section in sections:
        assert "6/6 games" in section, section
        assert "[" not in section.splitlines()[0], "the progress stays off stdout"
        for bot in ("random", "greedy", "mcts"):
            assert f" {bot} " in section, section


def _on_a_terminal(*args: str, timeout: float) -> tuple[int, str, str]:
    """`sheepfold ARGS` with its stderr on a terminal (a pseudo-terminal) and its
    stdout on a pipe, as `sheepfold demo > tables.txt` on a terminal: exit status,
    stdout and everything written to the terminal."""
    process, controller = started_on_a_terminal(*args)
    seen = bytearray()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the command closed its end: it has exited
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    os.close(controller)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    code = process.wait(timeout=max(deadline - time.monotonic(), 1))
    return code, out, seen.decode(errors="replace")


def test_an_empty_sheepfold_host_is_the_default_host() -> None:
    """SHEEPFOLD_HOST= (set but empty, as a Compose file or `docker run -e` may
    leave it) stopped `serve` with "cannot listen on :50051: Name or service
    not known"; every other SHEEPFOLD_ variable that is empty counts as unset."""
    server = start_server_process(env={"SHEEPFOLD_HOST": ""})
    try:
        health = sheepfold("health", "--addr", server.address)
        assert health.returncode == 0, health.stderr
        assert server.address.startswith("127.0.0.1:")
    finally:
        assert stop_server_process(server) == 0
