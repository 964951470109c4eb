"""`sheepfold replay` of a match whose seats were disqualified says the
match's verdict: the game's last line is its own verdict by points ("the
game is over; winner: seat 1"), while the server ranks a disqualified seat
last and, every seat disqualified, names no winner. The replay printed the
game's line and the ranks alone, and read as if seat 1 had won."""

from __future__ import annotations

import json

from server.launch import ServerProcess
from tests.cli.helpers import database_of, sheepfold

LATE = "tests.cli.bots.late_bot:LateBot"


def _replayed(server: ServerProcess, bots: str) -> tuple[dict[str, object], list[str]]:
    """A one-round Sheep Showdown of `bots` on a 0.5 s clock and one strike:
    its result as `match --json` prints it, and `replay`'s lines of it."""
    played = sheepfold(
        "match", "--game", "sheep-showdown", "--players", "2", "--bots", bots,
        "--seed", "5", "--option", "rounds=1", "--decision-seconds", "0.5",
        "--max-strikes", "1", "--server", server.address, "--json",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    replay = sheepfold("replay", summary["match_id"], "--db", database_of(server))
    assert replay.returncode == 0, replay.stderr
    return summary, replay.stdout.splitlines()


def test_every_seat_disqualified_the_replay_names_no_winner(server: ServerProcess) -> None:
    summary, lines = _replayed(server, f"{LATE},{LATE}")
    assert summary["disqualified"] == [0, 1] and summary["winners"] == []
    game_over = [line for line in lines if "the game is over" in line]
    assert len(game_over) == 1 and "winner" in game_over[0]  # the game's own verdict, kept
    result = lines[lines.index("== result (game over)") :]
    assert result[1].endswith("rank 1  strikes 1  disqualified")
    assert result[2].endswith("rank 1  strikes 1  disqualified")
    assert result[3] == (
        "  result: seats 0 and 1 disqualified, ranked last whatever their scores: no winner "
        "(the game's last line is its own verdict by points)"
    )


def test_a_disqualified_seat_the_replay_names_the_matchs_winner(server: ServerProcess) -> None:
    summary, lines = _replayed(server, f"random,{LATE}")
    assert summary["disqualified"] == [1] and summary["winners"] == [0]
    result = lines[lines.index("== result (game over)") :]
    assert result[3] == (
        "  result: seat 1 disqualified, ranked last whatever its score: winner seat 0 "
        "(the game's last line is its own verdict by points)"
    )
