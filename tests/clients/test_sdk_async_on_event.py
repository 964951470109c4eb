"""A bot whose `on_event` is `async` (as its `decide` may be) must get its
events: the SDK called it and dropped the coroutine, so the bot saw no event
and Python printed "coroutine ... was never awaited" at exit. Both through
`play` and through `sheepfold match` (whose guard wraps `on_event`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sheepfold.v1 import arena_pb2

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import DecisionView, play
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.cli.helpers import sheepfold_in

pytestmark = pytest.mark.e2e


class _AsyncEvents:
    def __init__(self) -> None:
        self.events = 0

    def decide(self, decision: DecisionView) -> int:
        return 0

    async def on_event(self, event: object) -> None:
        await asyncio.sleep(0)
        self.events += 1


def test_play_awaits_an_async_on_event() -> None:
    bot = _AsyncEvents()

    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "stubborn-sheep", 2, seed=3)
            await asyncio.wait_for(
                asyncio.gather(
                    play(bot, address, created.match_id, created.seat_tokens[0]),
                    play(RandomBot(1), address, created.match_id, created.seat_tokens[1]),
                ),
                timeout=60,
            )

    asyncio.run(scenario())
    assert bot.events > 0


COUNTING = """\
import asyncio


class Bot:
    events = 0

    def decide(self, decision):
        return 0

    async def on_event(self, event):
        await asyncio.sleep(0)
        Bot.events += 1
        if Bot.events == 5:
            print("five events seen", flush=True)
"""


def test_match_awaits_an_async_on_event(tmp_path: Path) -> None:
    (tmp_path / "counting.py").write_text(COUNTING)
    done = sheepfold_in(
        tmp_path, "match", "--game", "stubborn-sheep", "--players", "2",
        "--bots", "random,counting:Bot", "--seed", "3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "five events seen" in done.stderr  # a bot's prints go to stderr
    assert "never awaited" not in done.stderr


def test_a_tournament_seat_awaits_an_async_on_event() -> None:
    from tournament.seats import _ThreadedBot

    bot = _AsyncEvents()
    seat = _ThreadedBot()
    seat._bot = bot

    async def scenario() -> None:
        seen = seat.on_event(object())
        assert seen is not None, "the coroutine must come back to the SDK to await"
        await seen

    try:
        asyncio.run(scenario())
    finally:
        seat.close()
    assert bot.events == 1


class _ThinksOverItsFirstEvent:
    """Answers at once, but thinks in `on_event` over its first event past the
    decision's deadline; notes each decision it is asked after that event."""

    def __init__(self) -> None:
        self.events = 0
        self.asked_after_the_event: list[int] = []

    def decide(self, decision: DecisionView) -> int:
        if self.events:
            self.asked_after_the_event.append(decision.decision_id)
        return 0

    async def on_event(self, event: object) -> None:
        self.events += 1
        if self.events == 1:
            await asyncio.sleep(5)


def test_a_match_over_while_on_event_thinks_asks_for_no_decision() -> None:
    """The seat misses the deadline of the decision its event came in and is
    disqualified (one strike), and the server plays out its one-seat match:
    the result comes while `on_event` thinks, and `play` returns it without
    asking `decide` about that decision (a `decide` that thinks long would
    have held the seat after its match was over)."""
    bot = _ThinksOverItsFirstEvent()
    clock = arena_pb2.ClockSettings(decision_seconds=0.5, max_strikes=1)

    async def scenario() -> arena_pb2.MatchResult:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-and-garden", 1, seed=4, clock=clock)
            return await asyncio.wait_for(
                play(bot, address, created.match_id, created.seat_tokens[0]), 4
            )

    result = asyncio.run(scenario())
    assert result.seats[0].disqualified, result
    assert bot.events == 1
    assert bot.asked_after_the_event == []
