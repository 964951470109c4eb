"""Finished games' records, as the store and report tests put them by hand."""

from __future__ import annotations

from collections.abc import Sequence

from tournament.outcome import game_record
from tournament.schedule import ScheduledGame
from tournament.store import GameRecord


def finished_record(
    scheduled: ScheduledGame,
    scores: Sequence[float],
    ranks: Sequence[int],
    *,
    match_id: str = "m",
    crashed: dict[int, str] | None = None,
    strikes: Sequence[int] = (),
    disqualified: Sequence[bool] = (),
) -> GameRecord:
    """`scheduled` played to its end with these scores and server ranks (a
    seat each); no seat struck, disqualified or crashed unless said."""
    seats = len(scheduled.seats)
    return game_record(
        scheduled,
        match_id,
        scores=list(scores),
        server_ranks=list(ranks),
        strikes=list(strikes) or [0] * seats,
        disqualified=list(disqualified) or [False] * seats,
        crashed=crashed or {},
        end_reason="game over",
        details_json="{}",
        duration_seconds=0.5,
        finished_at=1.0,
        forfeit_on_timeout=True,
    )


def two_seat_record(
    scheduled: ScheduledGame, match_id: str = "m", *, first_wins: bool = True
) -> GameRecord:
    """`scheduled` played to its end, 10 to 7: the first seat wins unless `first_wins` is false."""
    if first_wins:
        return finished_record(scheduled, [10.0, 7.0], [1, 2], match_id=match_id)
    return finished_record(scheduled, [7.0, 10.0], [2, 1], match_id=match_id)
