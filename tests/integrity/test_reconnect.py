"""Reconnect: a seat rejoins with its token at any moment, the pending
decision is sent again, and a replaced stream ends with a clear status.

DESIGN: "A seat can rejoin with its token at any time; the pending decision is
sent again. One live stream per seat: a new join replaces the old stream."
"""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.conftest import random_opponent
from tests.integrity.helpers import (
    Case,
    assert_replay_reproduces_result,
    case_ids,
    create_request,
    game_cases,
    get_replay,
    wait_until,
)
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

CASE = Case("sheep-n-sheep", 2, {})


def _seat_connected(stub: arena_pb2_grpc.ArenaStub, match_id: str, seat: int) -> bool:
    return stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id)).seats[seat].connected


def test_a_second_join_replaces_the_first_stream_which_ends_aborted(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(create_request(CASE, 11))
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    old = RawSeat(stub)
    old.join(created.match_id, created.seat_tokens[0])
    decision = old.next("decision", skip=("joined", "event")).decision

    new = RawSeat(stub)
    new.join(created.match_id, created.seat_tokens[0])
    with pytest.raises(grpc.RpcError) as caught:
        old.next("result", skip=("decision", "event", "joined"))
    assert caught.value.code() == grpc.StatusCode.ABORTED
    assert "replaced by a newer join for seat 0" in caught.value.details()
    old.close()

    assert new.next("joined").joined.seat == 0
    again = new.next("decision").decision
    assert again.decision_id == decision.decision_id, "the pending decision is sent again"
    assert again.observation == decision.observation
    result = new.play_to_end(again)
    new.close()
    opponent.result(20)
    assert len(result.scores) == 2
    assert_replay_reproduces_result(
        inprocess_server.run(get_replay(inprocess_server.address, created.match_id))
    )


def test_a_seat_that_drops_and_rejoins_gets_the_pending_decision_again(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(create_request(CASE, 12))
    opponent = random_opponent(inprocess_server, created.match_id, created.seat_tokens[1])
    first = RawSeat(stub)
    first.join(created.match_id, created.seat_tokens[0])
    decision = first.next("decision", skip=("joined", "event")).decision
    first.responses.cancel()
    first.close()
    wait_until(lambda: not _seat_connected(stub, created.match_id, 0), what="seat 0 dropped")

    second = RawSeat(stub)
    second.join(created.match_id, created.seat_tokens[0], seat=0)
    assert second.next("joined").joined.seat == 0
    again = second.next("decision").decision
    assert again.decision_id == decision.decision_id
    assert _seat_connected(stub, created.match_id, 0)
    result = second.play_to_end(again)
    second.close()
    opponent.result(20)
    assert [s.strikes for s in result.seats] == [0, 0], "nothing was lost to the drop"


def test_rejoining_a_finished_match_is_failed_precondition(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = stub.CreateMatch(create_request(CASE, 13))
    seats = [
        random_opponent(inprocess_server, created.match_id, token) for token in created.seat_tokens
    ]
    for seat in seats:
        seat.result(20)
    late = RawSeat(stub)
    late.join(created.match_id, created.seat_tokens[0])
    with pytest.raises(grpc.RpcError) as caught:
        late.next("joined")
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "over" in caught.value.details()
    late.close()


async def _flaky_seat(address: str, match_id: str, token: str, seed: int) -> tuple:
    """Random play that drops its stream at random moments (before answering,
    right after answering, between events) and rejoins each time."""
    rng = random.Random(seed)
    drops = 0
    while True:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            call = stub.Play()
            await call.write(
                arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token))
            )
            while True:
                try:
                    response = await call.read()
                except grpc.aio.AioRpcError as error:
                    # Dropped right after the last answer: the match ended meanwhile.
                    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error
                    info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
                    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
                    return info.result, drops
                assert response is not grpc.aio.EOF, "stream ended without a result"
                kind = response.WhichOneof("kind")
                if kind == "result":
                    call.cancel()
                    return response.result, drops
                if kind == "error":
                    raise AssertionError(f"unexpected error {response.error}")
                if kind == "decision":
                    if rng.random() < 0.15:
                        break  # drop before answering
                    decision = response.decision
                    await call.write(
                        arena_pb2.PlayRequest(
                            answer=arena_pb2.Answer(
                                decision_id=decision.decision_id,
                                action_index=rng.randrange(len(decision.actions)),
                            )
                        )
                    )
                    if rng.random() < 0.1:
                        break  # drop right after answering
                elif kind == "event" and rng.random() < 0.03:
                    break  # drop between events
            call.cancel()
            drops += 1


@pytest.mark.parametrize("case", game_cases(), ids=case_ids(game_cases()))
def test_seats_that_drop_at_random_moments_still_finish_the_match_intact(
    inprocess_server: InProcessServer, case: Case
) -> None:
    async def scenario() -> tuple[list, str]:
        async with grpc.aio.insecure_channel(inprocess_server.address) as channel:
            created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(create_request(case, 21))
        outcomes = await asyncio.wait_for(
            asyncio.gather(
                *(
                    _flaky_seat(inprocess_server.address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            ),
            timeout=60,
        )
        return outcomes, created.match_id

    outcomes, match_id = inprocess_server.run(scenario())
    assert sum(drops for _, drops in outcomes) >= 3, "the test must actually drop streams"
    assert all(result == outcomes[0][0] for result, _ in outcomes)
    replay = inprocess_server.run(get_replay(inprocess_server.address, match_id))
    assert not any(a.forced for a in replay.actions), "no decision was lost to a drop"
    assert replay.result == outcomes[0][0]
    assert_replay_reproduces_result(replay)
