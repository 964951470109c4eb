"""A match's whole clock is set per match (the wire's ClockSettings: deadline,
time bank, strikes to disqualification), and `create` and `match` set all of
it: they once took only --decision-seconds, so a match made from the command
line always had no bank and the server's 3 strikes."""

from __future__ import annotations

import json

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.cli.helpers import sheepfold

pytestmark = pytest.mark.e2e

CLOCK = ("--decision-seconds", "2", "--time-bank-seconds", "5.5", "--max-strikes", "7")


def _clock(server: ServerProcess, match_id: str) -> arena_pb2.ClockSettings:
    with grpc.insecure_channel(server.address) as channel:
        info = arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=10
        )
    return info.clock


def _as_set(clock: arena_pb2.ClockSettings) -> tuple[float, float, int]:
    return (clock.decision_seconds, clock.time_bank_seconds, clock.max_strikes)


def test_create_sets_the_bank_and_the_strikes(server: ServerProcess) -> None:
    made = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "2", "--server", server.address,
        *CLOCK, "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert _as_set(_clock(server, json.loads(made.stdout)["match_id"])) == (2.0, 5.5, 7)


def test_match_plays_with_the_bank_and_the_strikes(server: ServerProcess) -> None:
    played = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random",
        "--seed", "3", "--server", server.address, *CLOCK, "--json",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert _as_set(_clock(server, json.loads(played.stdout)["match_id"])) == (2.0, 5.5, 7)


@pytest.mark.parametrize("command", ["create", "match"])
@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--time-bank-seconds", "-1"),
        ("--time-bank-seconds", "nan"),
        ("--time-bank-seconds", "86401"),
        ("--max-strikes", "-1"),
        ("--max-strikes", "1001"),
        ("--max-strikes", "2.5"),
    ],
)
def test_a_clock_the_server_would_refuse_is_a_usage_error(
    command: str, flag: str, value: str
) -> None:
    bots = ("--bots", "random,random") if command == "match" else ()
    done = sheepfold(
        command, "--game", "sheep-n-sheep", "--players", "2", *bots,
        "--server", "127.0.0.1:1", f"{flag}={value}",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].split(": error: ")[1].startswith(f"argument {flag}:")


def test_the_help_gives_each_clock_flag_its_range() -> None:
    for command in ("create", "match"):
        shown = " ".join(sheepfold(command, "--help").stdout.split())
        assert "--time-bank-seconds SECONDS per seat, 0 (none) to 86,400" in shown, command
        assert "--max-strikes N missed deadlines" in shown, command
        assert "0 (the server's default, 3) or 1 to 1,000" in shown, command
