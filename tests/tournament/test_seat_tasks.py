"""A game's seat tasks are stopped and their failures retrieved on every path:
a second Ctrl-C while a bot was being killed once left a "Task exception was
never retrieved ... SeatFailure('killed by SIGKILL')" traceback after the
"interrupted" line, and bots still running."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from tournament.game_play import _seat_task, _stop_seats
from tournament.seats import SeatFailure


class _Seat:
    def __init__(self, blocks: bool = False) -> None:
        self.blocks = blocks
        self.killed = False

    async def kill(self) -> None:
        self.killed = True
        if self.blocks:
            await asyncio.Event().wait()  # interrupted here by the second cancel


async def _fails() -> None:
    await asyncio.sleep(0)
    raise SeatFailure("killed by SIGKILL")


def _unretrieved(main: Any) -> list[str]:
    """What asyncio reports as never retrieved while running `main`."""
    reported: list[str] = []

    async def run() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _loop, context: reported.append(context["message"])
        )
        await main()
        gc.collect()

    asyncio.run(run())
    gc.collect()
    return reported


def test_every_bot_is_killed_and_every_task_awaited_when_stopping_is_cancelled() -> None:
    seats = [_Seat(blocks=True), _Seat()]
    outcome: dict[str, Any] = {}

    async def main() -> None:
        tasks = [_seat_task(_fails()), _seat_task(asyncio.Event().wait())]
        stopping = asyncio.create_task(_stop_seats(seats, tasks))
        await asyncio.sleep(0.01)
        stopping.cancel()
        outcome["cancelled"] = (await asyncio.gather(stopping, return_exceptions=True))[0]
        outcome["done"] = all(task.done() for task in tasks)

    assert _unretrieved(main) == []
    assert all(seat.killed for seat in seats), "the second seat was not killed"
    assert outcome["done"], "a seat task was left running"
    assert isinstance(outcome["cancelled"], asyncio.CancelledError)


def test_a_seat_task_that_failed_unawaited_reports_nothing() -> None:
    async def main() -> None:
        task = _seat_task(_fails())
        await asyncio.sleep(0.01)
        assert task.done()
        del task

    assert _unretrieved(main) == []
