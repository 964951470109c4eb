"""A hostile client against a real `sheepfold serve` on loopback: seats that
answer every decision just as its deadline fires, a few milliseconds before or
after it, with and without a time bank, so that many answers race the timer
that plays a random action for the seat.

Each decision must end one way only: its answer played, or a random action
forced with a strike and a PlayError DEADLINE_EXCEEDED naming it, the late
answer then refused FAILED_PRECONDITION naming it too. The result, GetMatch
and the replay must count the same forced moves and strikes, and the server
logs no error for any of it."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, server_logging_no_fault

pytestmark = pytest.mark.e2e

GAME = "sheep-n-sheep"
DEADLINE = 0.05
JITTER = 0.01  # each answer is sent this much before or after the deadline, at random
DEADLINE_EXCEEDED = grpc.StatusCode.DEADLINE_EXCEEDED.value[0]
FAILED_PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION.value[0]


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    # Every answer here is a client's doing: none may log an error or a traceback.
    with server_logging_no_fault("--start-timeout", "60") as server:
        yield server


@dataclass
class _Seat:
    """What one seat was sent, in order."""

    decisions: list[int] = field(default_factory=list)
    errors: list[tuple[int, int]] = field(default_factory=list)  # (code, decision_id)
    result: arena_pb2.MatchResult | None = None


async def _racing_seat(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, rng: random.Random
) -> _Seat:
    """A seat that answers 0 to each decision about DEADLINE after it arrives."""
    seen = _Seat()
    answers: asyncio.Queue[arena_pb2.PlayRequest | None] = asyncio.Queue()

    async def requests() -> AsyncIterator[arena_pb2.PlayRequest]:
        yield arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token))
        while (request := await answers.get()) is not None:
            yield request

    async def answer_at_the_deadline(decision_id: int) -> None:
        await asyncio.sleep(DEADLINE + rng.uniform(-JITTER, JITTER))
        answer = arena_pb2.Answer(decision_id=decision_id, action_index=0)
        await answers.put(arena_pb2.PlayRequest(answer=answer))

    pending: list[asyncio.Task[None]] = []
    async for response in stub.Play(requests(), timeout=120):
        kind = response.WhichOneof("kind")
        if kind == "decision":
            seen.decisions.append(response.decision.decision_id)
            pending.append(asyncio.create_task(answer_at_the_deadline(seen.decisions[-1])))
        elif kind == "error":
            seen.errors.append((response.error.code, response.error.decision_id))
        elif kind == "result":
            seen.result = response.result
            await answers.put(None)
    for task in pending:
        task.cancel()
    return seen


async def _race(
    address: str, bank: float, seed: int
) -> tuple[list[_Seat], arena_pb2.MatchInfo, arena_pb2.Replay]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        clock = arena_pb2.ClockSettings(
            decision_seconds=DEADLINE, time_bank_seconds=bank, max_strikes=1000
        )
        created = await stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game=GAME, players=2, seed=seed, clock=clock)
        )
        seats = await asyncio.gather(
            *(
                _racing_seat(stub, created.match_id, token, random.Random(seed + index))
                for index, token in enumerate(created.seat_tokens)
            )
        )
        info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
        replay = await stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
    return list(seats), info, replay


@pytest.mark.parametrize("bank", [0.0, 0.02])
def test_answers_racing_each_deadline_end_each_decision_one_way_only(
    served: ServerProcess, bank: float
) -> None:
    seats, info, replay = asyncio.run(_race(served.address, bank, seed=21))
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    result = seats[0].result
    assert result is not None and seats[1].result == result
    assert result.end_reason == "game over", "no seat was disqualified: max_strikes is 1000"
    # One decision per move, each sent to one seat once: no answer was taken twice.
    every_decision = seats[0].decisions + seats[1].decisions
    assert len(every_decision) == len(set(every_decision)) == len(replay.actions) == info.moves
    forced = Counter(action.seat for action in replay.actions if action.forced)
    moved = Counter(action.seat for action in replay.actions)
    for index, seat in enumerate(seats):
        missed = [decision for code, decision in seat.errors if code == DEADLINE_EXCEEDED]
        refused = [decision for code, decision in seat.errors if code == FAILED_PRECONDITION]
        assert {code for code, _ in seat.errors} <= {DEADLINE_EXCEEDED, FAILED_PRECONDITION}
        assert moved[index] == len(seat.decisions)
        # A decision is forced, struck and told once, or played from its answer.
        assert len(missed) == len(set(missed)) == forced[index], (index, seat.errors)
        assert set(missed) <= set(seat.decisions)
        assert result.seats[index].strikes == info.seats[index].strikes == forced[index]
        # Each late answer is refused naming its own forced decision, never a
        # decision whose answer was played (one answered after the result
        # goes unanswered: the stream has ended).
        assert set(refused) <= set(missed), (index, seat.errors)
        assert len(refused) == len(set(refused))
        assert len(refused) >= len(missed) - 1
        assert 0 <= result.seats[index].time_bank_seconds <= bank
    # The race went both ways: some answers beat their deadline, some did not.
    assert 0 < sum(forced.values()) < len(replay.actions)
