"""`sheepfold match` ranks a failed seat last, as a tournament does: a program
that crashed at once was named the winner on its random stand-in's score."""

from __future__ import annotations

import json

from sheepfold.v1 import arena_pb2

from cli.play import format_summary, match_summary
from clients.matchplay import MatchOutcome
from tests.cli.helpers import sheepfold


def _outcome(scores: list[int], ranks: list[int]) -> MatchOutcome:
    result = arena_pb2.MatchResult(scores=scores, ranks=ranks, winners=[ranks.index(1)])
    result.seats.extend(arena_pb2.SeatInfo(seat=seat) for seat in range(len(scores)))
    return MatchOutcome("m", 3, result)


def test_a_crashed_seat_is_ranked_last_and_never_the_winner() -> None:
    summary = match_summary(
        "sheep-n-sheep", ["random", "cmd:x"], 3, _outcome([6, 9], [2, 1]), {1: "exit code 1"}
    )
    assert summary["ranks"] == [1, 2] and summary["server_ranks"] == [2, 1]
    assert summary["winners"] == [0] and summary["failed"] == [1]
    lines = format_summary(summary).splitlines()
    assert "FAILED: crashed (ranked last)" in lines[2] and "rank 2" in lines[2]
    assert "  winner: seat 0 (random)" in lines


def test_no_winner_when_every_seat_crashed() -> None:
    summary = match_summary(
        "sheep-n-sheep", ["cmd:x", "cmd:y"], 3, _outcome([6, 9], [2, 1]), {0: "a", 1: "b"}
    )
    assert summary["winners"] == [] and summary["ranks"] == [1, 1]
    assert "  winner: none (every seat failed)" in format_summary(summary).splitlines()


def test_match_with_a_program_that_exits_at_once() -> None:
    done = sheepfold(
        "match",
        "--game",
        "sheep-n-sheep",
        "--players",
        "2",
        "--bots",
        "random,cmd:/bin/false",
        "--no-sandbox",
        "--seed",
        "11",
        "--json",
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert summary["winners"] == [0] and summary["failed"] == [1]
    assert summary["ranks"][1] == 2 and summary["crashed"] == {"1": "exit code 1"}
