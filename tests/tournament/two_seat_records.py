"""A finished two-seat game's record, as the store tests put it by hand."""

from __future__ import annotations

from tournament.outcome import game_record
from tournament.schedule import ScheduledGame
from tournament.store import GameRecord


def two_seat_record(
    scheduled: ScheduledGame, match_id: str = "m", *, first_wins: bool = True
) -> GameRecord:
    """`scheduled` played to its end, 10 to 7: the first seat wins unless `first_wins` is false."""
    return game_record(
        scheduled,
        match_id,
        scores=[10.0, 7.0] if first_wins else [7.0, 10.0],
        server_ranks=[1, 2] if first_wins else [2, 1],
        strikes=[0, 0],
        disqualified=[False, False],
        crashed={},
        end_reason="game over",
        details_json="{}",
        duration_seconds=0.5,
        finished_at=1.0,
        forfeit_on_timeout=True,
    )
