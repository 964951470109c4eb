"""A match restored after a SIGKILL continues exactly as the same match without
the crash: forced moves (a timed-out, then disqualified seat) and the built-in
random bot's answers to the decision the restarted server sends again are the
same as in an uncrashed run with the same seed."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots import load_bot
from clients.sdk import DecisionView, play
from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import Case, create_request, get_match, get_replay

pytestmark = pytest.mark.e2e

CASE = Case("stubborn-sheep", 2, {})
SEED = 2024


class PacedRandomBot:
    """The built-in `random` bot, 20 ms a decision so the test can act mid-match."""

    def __init__(self, seed: int) -> None:
        self.bot = load_bot("random", seed)

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.sleep(0.02)
        return self.bot.decide(decision)


class SilentBot:
    """Joins, then never answers: its first decision times out (a forced "timeout"
    move; one strike disqualifies), then every one of its moves is forced."""

    async def decide(self, decision: DecisionView) -> int:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def _seats(address: str, created: arena_pb2.CreateMatchResponse) -> list[asyncio.Task]:
    bots = (PacedRandomBot(1), SilentBot())
    return [
        asyncio.create_task(play(bot, address, created.match_id, token, seat))
        for seat, (bot, token) in enumerate(zip(bots, created.seat_tokens, strict=True))
    ]


async def _create(address: str) -> arena_pb2.CreateMatchResponse:
    request = create_request(CASE, SEED, decision_seconds=1.0, max_strikes=1)
    async with grpc.aio.insecure_channel(address) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).CreateMatch(request, timeout=10)


def _record(replay: arena_pb2.Replay) -> list[tuple[int, int, bool]]:
    return [(a.seat, a.action_index, a.forced) for a in replay.actions]


async def _start(*flags: str) -> ServerProcess:
    return await asyncio.to_thread(start_server_process, *flags)


def test_a_match_with_forced_moves_continues_identically_after_sigkill(tmp_path: Path) -> None:
    asyncio.run(_scenario(tmp_path / "crash.db"))


async def _scenario(db: Path) -> None:
    first = await _start("--db", str(db), "--start-timeout", "20")
    crashed = await _create(first.address)
    seats = _seats(first.address, crashed)
    try:
        for _ in range(1000):
            info = await get_match(first.address, crashed.match_id)
            if info.seats[1].disqualified and info.moves >= 30:
                break
            await asyncio.sleep(0.02)
        assert info.status == arena_pb2.MATCH_STATUS_RUNNING, "killed mid-match"
        assert info.seats[1].disqualified, "forced moves before the crash"
        first.process.send_signal(signal.SIGKILL)
        assert await asyncio.to_thread(first.process.wait, 10) == -signal.SIGKILL

        second = await _start("--db", str(db), "--port", str(first.port), "--start-timeout", "20")
        try:
            reference = await _create(second.address)
            seats += _seats(second.address, reference)
            # Seat 0 of each match; the silent seats never finish and are cancelled.
            results = await asyncio.wait_for(asyncio.gather(seats[0], seats[2]), timeout=60)
            outcome = [(list(r.scores), list(r.ranks), r.details_json) for r in results]
            assert outcome[0] == outcome[1], "the same result with and without the crash"
            replays = [
                await get_replay(second.address, m) for m in (crashed.match_id, reference.match_id)
            ]
            assert any(forced for _, _, forced in _record(replays[0])[info.moves :])
            assert _record(replays[0]) == _record(replays[1]), "every move the same"
        finally:
            assert stop_server_process(second) == 0
    finally:
        for task in seats:
            task.cancel()
        if first.process.poll() is None:
            first.process.kill()
