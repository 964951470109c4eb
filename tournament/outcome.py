"""From a finished match to the game the tournament stores: pure functions."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from tournament.schedule import ScheduledGame
from tournament.store import GameRecord, SeatRecord

__all__ = ["forfeit_ranks", "game_record"]


def forfeit_ranks(server_ranks: Sequence[int], failed: Sequence[bool]) -> tuple[int, ...]:
    """Ranks after failed seats are moved to the bottom (sharing the last places).

    Seats that did not fail keep their order among themselves; failed seats all
    share the rank after the last of them.
    """
    ok = [seat for seat, bad in enumerate(failed) if not bad]
    ranks = [0] * len(server_ranks)
    ordered = sorted(ok, key=lambda seat: server_ranks[seat])
    for position, seat in enumerate(ordered):
        previous = ordered[position - 1] if position else None
        if previous is not None and server_ranks[seat] == server_ranks[previous]:
            ranks[seat] = ranks[previous]
        else:
            ranks[seat] = position + 1
    for seat, bad in enumerate(failed):
        if bad:
            ranks[seat] = len(ok) + 1
    return tuple(ranks)


def game_record(
    scheduled: ScheduledGame,
    match_id: str,
    scores: Sequence[float],
    server_ranks: Sequence[int],
    strikes: Sequence[int],
    disqualified: Sequence[bool],
    crashed: Mapping[int, str],
    end_reason: str,
    details_json: str,
    duration_seconds: float,
    finished_at: float,
    forfeit_on_timeout: bool,
    slow: Mapping[int, str] | None = None,
) -> GameRecord:
    """The stored form of a finished game, failures ranked last.

    A seat fails when its bot crashed (`crashed` maps seat to what happened),
    was disqualified, or, with `forfeit_on_timeout`, missed any deadline; or
    when it held the match up past its time (`slow`, seat to what happened).
    """
    slow = slow or {}
    seats = len(scheduled.seats)
    failures: list[str | None] = []
    for seat in range(seats):
        if seat in slow:
            failures.append("slow")
        elif seat in crashed:
            failures.append("crash")
        elif disqualified[seat]:
            failures.append("disqualified")
        elif forfeit_on_timeout and strikes[seat] > 0:
            failures.append("timeout")
        else:
            failures.append(None)
    ranks = forfeit_ranks(server_ranks, [failure is not None for failure in failures])
    try:
        details = json.loads(details_json) if details_json else {}
    except ValueError:
        details = {"raw": details_json}
    if crashed or slow:
        details = {"result": details}
        if crashed:
            details["crashes"] = {str(s): why for s, why in crashed.items()}
        if slow:
            details["slow"] = {str(s): why for s, why in slow.items()}
    return GameRecord(
        key=scheduled.key,
        match_id=match_id,
        seed=scheduled.seed,
        group=scheduled.group,
        rotation=scheduled.rotation,
        seats=tuple(
            SeatRecord(
                bot=scheduled.seats[seat],
                score=float(scores[seat]),
                rank=ranks[seat],
                server_rank=int(server_ranks[seat]),
                strikes=int(strikes[seat]),
                disqualified=bool(disqualified[seat]),
                failure=failures[seat],
            )
            for seat in range(seats)
        ),
        end_reason=end_reason,
        details_json=json.dumps(details, sort_keys=True),
        duration_seconds=duration_seconds,
        finished_at=finished_at,
    )


def solo_scores(games: Sequence[GameRecord]) -> dict[tuple[str, str], float]:
    """Solo: the score each (game key, bot) counts for. A failed seat is ranked
    last, as in a game of several: it counts the lowest score any bot made on
    that deal (its random stand-in's included), never the stand-in's own."""
    lowest: dict[int, float] = {}
    for game in games:
        for seat in game.seats:
            lowest[game.seed] = min(lowest.get(game.seed, seat.score), seat.score)
    return {
        (game.key, seat.bot): seat.score if seat.failure is None else lowest[game.seed]
        for game in games
        for seat in game.seats
    }
