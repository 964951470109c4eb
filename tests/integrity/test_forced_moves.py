"""Moves the server plays for seats that cannot (disqualified, or out of time)
neither hold the event loop nor fill the log."""

from __future__ import annotations

import asyncio

import structlog

import games
from server.match import Match
from server.records import ClockConfig, MatchRecord
from server.seats import SeatStream
from server.store import MemoryStore


def _match(clock: ClockConfig, seed: int = 3) -> Match:
    game = games.get("sheep-showdown")
    record = MatchRecord(
        match_id=f"f{seed}",
        game=game.name,
        players=2,
        options={},
        seed=seed,
        clock=clock,
        token_hashes=("a", "b"),
        created_at=0.0,
    )
    store = MemoryStore()
    store.create_match(record)
    return Match(record, game, store)


def test_a_match_played_out_for_disqualified_seats_lets_other_work_run_between_moves() -> None:
    """Every seat out: the rest of the match is forced moves, each written
    without waiting. Played in one go it held every other match up."""

    async def scenario() -> tuple[list[int], int]:
        match = _match(ClockConfig())
        for seat in match.seats:
            seat.disqualified = True
        seen: list[int] = []

        async def other_work() -> None:
            while not match.over:
                seen.append(len(match.moves))
                await asyncio.sleep(0)

        ticking = asyncio.create_task(other_work())
        await match.start()
        await ticking
        return seen, len(match.moves)

    seen, total = asyncio.run(scenario())
    during = {moves for moves in seen if 0 < moves < total}
    assert len(during) > total // 2, f"other work ran at {len(during)} of {total} moves"


def test_missed_deadlines_past_a_seats_first_few_are_not_logged_one_by_one() -> None:
    """A match created with a huge max_strikes and a millisecond deadline, its
    seats never answering, once wrote a log line for every move."""

    async def scenario() -> Match:
        match = _match(ClockConfig(decision_seconds=0.001, max_strikes=1_000_000))
        for index in range(2):
            match.join(index, SeatStream())
        await match.start()
        return match

    with structlog.testing.capture_logs() as logs:
        match = asyncio.run(scenario())
    missed = [line for line in logs if line["event"] == "decision deadline missed"]
    strikes = sum(seat.strikes for seat in match.seats)
    assert strikes > 60, "too short a match to tell"
    assert len(missed) == sum(min(seat.strikes, 20) for seat in match.seats)
