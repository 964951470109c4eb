"""The Ray executor hands the games that ended to the runner: a fatal one (the
server refused a game) stops the run, but only after the games that ended in
the same wake-up are stored. They were dropped, to be played again on resume."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from tournament.executors.ray import RayExecutor
from tournament.executors.ray_task import GameOutcome
from tournament.executors.servers import ServerPool
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError
from tournament.schedule import make_schedule
from tournament.store import GameRecord, SeatRecord
from tournament.turns import DealTurns


class _Runner:
    def __init__(self) -> None:
        self.accepted: list[str] = []
        self.rejected: list[str] = []

    async def accept(self, record: GameRecord, replay: Any, crashes: Any) -> None:
        self.accepted.append(record.key)

    def reject(self, key: str, error: str) -> None:
        self.rejected.append(key)


def _record(key: str) -> GameRecord:
    seat = SeatRecord("a", 1.0, 1, 1, 0, False, None)
    return GameRecord(key, "m", 1, 0, 0, (seat, seat), "game over", "{}", 1.0, 0.0)


def test_a_fatal_game_stops_the_run_after_the_others_that_ended_are_stored() -> None:
    games = make_schedule(["a", "b"], 2, games_per_pairing=2, base_seed=1)
    executor = object.__new__(RayExecutor)
    executor.settings = ExecutorSettings(kind="ray")
    executor.nodes = Counter()
    executor.pool = ServerPool(())
    turns = DealTurns(games)
    taken = [turns.take(), turns.take()]
    assert all(game is not None for game in taken)

    async def ended() -> list[tuple[asyncio.Future[Any], Any, Any]]:
        loop = asyncio.get_running_loop()
        fatal, fine = loop.create_future(), loop.create_future()
        fatal.set_result(GameOutcome(taken[0].key, "n", error="refused", fatal=True))
        fine.set_result(GameOutcome(taken[1].key, "n", record=_record(taken[1].key)))
        return [(fatal, taken[0], None), (fine, taken[1], None)]

    runner = _Runner()
    with pytest.raises(RunError, match="refused"):
        asyncio.run(executor.settle_all(runner, asyncio.run(ended()), turns))
    assert runner.accepted == [taken[1].key]
    assert turns.take() is not None  # both games' deals were given back
