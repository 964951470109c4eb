"""Every seat of a match played by a hostile client that still follows the
protocol: it rejoins on a new stream while its old one is open and answers on
the old one too, switches `events_in_decisions` from one stream to the next,
answers with indices past the legal list, stale and future decision ids, and
answers twice. Through all of it a seat's streams carry only what that seat
may see (its own observations, each event as `visible_to` that seat gives it),
the refusals are PlayErrors that leave the stream open, and the stored record
replays to the result the seats were sent."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server import convert
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.integrity.helpers import (
    Case,
    assert_replay_reproduces_result,
    create_request,
    private_payload_messages,
)

pytestmark = pytest.mark.e2e

# Games with hands, which every seat's observation shows it alone; Sheep 'n
# Sheep's draws are private events too.
CASES = [Case("sheep-n-sheep", 3, {}), Case("sheep-showdown", 3, {"rounds": "1"})]
PRIVATE_EVENTS = {"sheep-n-sheep"}

# A refused answer: INVALID_ARGUMENT (index out of range) or FAILED_PRECONDITION
# (stale, repeated, out of turn); DEADLINE_EXCEEDED only on a machine slowed
# past the generous clock, which the checks here do not depend on.
REFUSALS = {
    grpc.StatusCode.INVALID_ARGUMENT.value[0],
    grpc.StatusCode.FAILED_PRECONDITION.value[0],
    grpc.StatusCode.DEADLINE_EXCEEDED.value[0],
}


def _bytes(message: arena_pb2.Observation | arena_pb2.EventMessage) -> bytes:
    return message.SerializeToString(deterministic=True)


@dataclass
class SeatLog:
    """What one seat's streams received, over all of them."""

    events: list[bytes] = field(default_factory=list)
    observations: list[bytes] = field(default_factory=list)
    refusals: list[int] = field(default_factory=list)
    replaced: int = 0
    result: arena_pb2.MatchResult | None = None


class HostileSeat:
    def __init__(
        self, stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seed: int
    ) -> None:
        self.stub, self.match_id, self.token = stub, match_id, token
        self.rng = random.Random(seed)
        self.log = SeatLog()
        self.old_streams: list[asyncio.Task[str]] = []

    async def play(self) -> SeatLog:
        while await self._stream() != "over":
            pass
        # The streams it left open are replaced (ABORTED) or saw the end.
        await asyncio.gather(*self.old_streams)
        return self.log

    async def _stream(self) -> str:
        requests: asyncio.Queue[arena_pb2.PlayRequest | None] = asyncio.Queue()

        async def iterate() -> AsyncIterator[arena_pb2.PlayRequest]:
            while (request := await requests.get()) is not None:
                yield request

        def answer(decision_id: int, index: int) -> None:
            requests.put_nowait(
                arena_pb2.PlayRequest(
                    answer=arena_pb2.Answer(decision_id=decision_id, action_index=index)
                )
            )

        call = self.stub.Play(iterate(), timeout=120)
        join = arena_pb2.Join(
            match_id=self.match_id,
            token=self.token,
            events_in_decisions=self.rng.random() < 0.5,
        )
        requests.put_nowait(arena_pb2.PlayRequest(join=join))
        responses = aiter(call)
        try:
            while True:
                response = await anext(responses)
                kind = response.WhichOneof("kind")
                if kind == "event":
                    self.log.events.append(_bytes(response.event))
                elif kind == "error":
                    self.log.refusals.append(response.error.code)
                    assert response.error.code in REFUSALS, response.error
                elif kind == "result":
                    self.log.result = response.result
                    return "over"
                elif kind == "decision":
                    decision = response.decision
                    self.log.events.extend(_bytes(event) for event in decision.events)
                    self.log.observations.append(_bytes(decision.observation))
                    count, opened = len(decision.actions), decision.decision_id
                    roll = self.rng.random()
                    if roll < 0.1:
                        answer(opened, count)  # just past the list: sent again
                        continue
                    if roll < 0.2:
                        answer(opened - self.rng.randrange(1, 5), 0)  # stale
                        answer(opened + 1, 0)  # not yet asked
                    choice = self.rng.randrange(count)
                    if roll < 0.35:
                        # A new join while this stream is open, then this
                        # stream's answer: whichever the server reads first wins.
                        self.old_streams.append(asyncio.ensure_future(self._drain(responses)))
                        answer(opened, choice)
                        return "rejoin"
                    answer(opened, choice)
                    if roll < 0.45:
                        answer(opened, choice)  # twice
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
                # A join just after the old stream's answer ended the match:
                # the result went to the old stream.
                assert error.details() == "the match is over", error
                return "over"
            assert _replaced(error), error
            self.log.replaced += 1
            return "replaced"
        finally:
            requests.put_nowait(None)

    async def _drain(self, responses: AsyncIterator[arena_pb2.PlayResponse]) -> str:
        """An old stream read on: events keep coming to it until it is replaced."""
        try:
            async for response in responses:
                if response.WhichOneof("kind") == "event":
                    self.log.events.append(_bytes(response.event))
                elif response.WhichOneof("kind") == "decision":
                    decision = response.decision
                    self.log.events.extend(_bytes(event) for event in decision.events)
                    self.log.observations.append(_bytes(decision.observation))
                elif response.WhichOneof("kind") == "result":
                    self.log.result = response.result
        except grpc.aio.AioRpcError as error:
            assert _replaced(error), error
            self.log.replaced += 1
        return "replaced"


def _replaced(error: grpc.aio.AioRpcError) -> bool:
    """A stream a newer join replaced (ABORTED). gRPC's client may instead
    report one that an answer was still being written to when the server ended
    it as INTERNAL "Internal error from Core" (its SDK reads on past that)."""
    code, details = error.code(), error.details() or ""
    return code == grpc.StatusCode.ABORTED or (
        code == grpc.StatusCode.INTERNAL and "Internal error from Core" in details
    )


def _what_each_seat_may_see(replay: arena_pb2.Replay) -> tuple[list[set[bytes]], list[set[bytes]]]:
    """Per seat: every event as it may see it, and its observation at each of its turns."""
    game = games.get(replay.game)
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    events: list[set[bytes]] = [set() for _ in range(replay.players)]
    observations: list[set[bytes]] = [set() for _ in range(replay.players)]
    for action in replay.actions:
        seat = state.to_move
        assert seat is not None
        observations[seat].add(_bytes(convert.observation(game.codec, state.observation(seat))))
        for event in state.apply(state.legal_actions()[action.action_index]):
            for viewer in range(replay.players):
                payload = event.visible_to(viewer)
                if payload is not None:
                    events[viewer].add(_bytes(convert.event(game.codec, action.move, payload)))
    return events, observations


@pytest.mark.parametrize("case", CASES, ids=[case.game for case in CASES])
def test_hostile_seats_see_only_their_own_and_the_match_is_recorded_whole(case: Case) -> None:
    async def scenario() -> tuple[arena_pb2.Replay, list[SeatLog]]:
        async with (
            serving_here(ServerConfig()) as address,
            grpc.aio.insecure_channel(address) as channel,
        ):
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(create_request(case, 5, decision_seconds=30))
            seats = [
                HostileSeat(stub, created.match_id, token, seed)
                for seed, token in enumerate(created.seat_tokens)
            ]
            logs = await asyncio.wait_for(asyncio.gather(*(seat.play() for seat in seats)), 120)
            replay = await stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
            return replay, list(logs)

    replay, logs = asyncio.run(scenario())
    assert_replay_reproduces_result(replay)
    may_see_events, may_see_observations = _what_each_seat_may_see(replay)
    private = {_bytes(message) for message in private_payload_messages(replay)}
    assert any(log.result is not None for log in logs)
    for seat, log in enumerate(logs):
        assert log.result in (None, replay.result), f"seat {seat} was sent another result"
        assert set(log.events) <= may_see_events[seat], f"seat {seat} got an event not its own"
        assert set(log.observations) <= may_see_observations[seat], (
            f"seat {seat} got an observation not its own"
        )
    # The attack took place, and there was something to leak.
    assert sum(log.replaced for log in logs) >= 3
    assert {
        grpc.StatusCode.INVALID_ARGUMENT.value[0],
        grpc.StatusCode.FAILED_PRECONDITION.value[0],
    } <= {code for log in logs for code in log.refusals}
    for seat, other in itertools.combinations(range(len(logs)), 2):
        assert not may_see_observations[seat] & may_see_observations[other]
    if case.game in PRIVATE_EVENTS:
        assert any(private & set(log.events) for log in logs)
    # Not a move forced: every refusal left its seat able to answer in time.
    assert not [action.move for action in replay.actions if action.forced]
