"""A hostile client's joins against a real `sheepfold serve` on loopback: a
join naming a seat the match does not have, and every seat joined from many
streams at once, in waves, each stream answering twice and joining again on
itself. A bad join is refused with the status meant for it and holds nothing;
of the streams racing for a seat the newest wins and the older end ABORTED,
the match plays to its end with each seat's result on one stream, its record
whole, and the server logs no error for any of it."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import (
    ServerProcess,
    server_logging_no_fault,
)
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

INT32_MAX, INT32_MIN = 2**31 - 1, -(2**31)
# A racing stream's seat, how it ended, and the result it got if any.
Ended = tuple[int, str, arena_pb2.MatchResult | None]


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    with server_logging_no_fault() as server:
        yield server


@pytest.fixture
def stub(served: ServerProcess) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(served.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


def _refusal(stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, seat: int) -> grpc.RpcError:
    joining = RawSeat(stub, timeout=10)
    joining.join(match_id, token, seat)
    try:
        with pytest.raises(grpc.RpcError) as caught:
            joining.next("joined")
    finally:
        joining.close()
    return caught.value


@pytest.mark.parametrize("seat", [-1, 3, 4, INT32_MAX, INT32_MIN])
def test_a_join_naming_a_seat_the_match_has_not_is_refused_and_holds_nothing(
    stub: arena_pb2_grpc.ArenaStub, seat: int
) -> None:
    """With a seat's own token, PERMISSION_DENIED naming the seat as sent; with
    a token that is no seat's, UNAUTHENTICATED first (the order the contract
    gives). Nothing is joined, and the token's seat then joins as usual."""
    created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-showdown", players=3))
    own = _refusal(stub, created.match_id, created.seat_tokens[1], seat)
    assert own.code() == grpc.StatusCode.PERMISSION_DENIED
    assert own.details() == f"this token does not belong to seat {seat}"
    forged = _refusal(stub, created.match_id, "x" * 32, seat)
    assert forged.code() == grpc.StatusCode.UNAUTHENTICATED
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert len(info.seats) == 3
    assert not any(s.joined or s.connected for s in info.seats), "a refused join holds no seat"
    joined = RawSeat(stub, timeout=10)
    joined.join(created.match_id, created.seat_tokens[1], 1)
    assert joined.next("joined").joined.seat == 1
    joined.close()


async def _racing_stream(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, token: str, number: int
) -> tuple[str, arena_pb2.MatchResult | None]:
    """One of many streams joining the same seat: it answers each decision
    (the first action), then the same again, then sends a second join on
    itself. How it ended, and the result if it got one."""
    requests: asyncio.Queue[arena_pb2.PlayRequest | None] = asyncio.Queue()
    join = arena_pb2.Join(match_id=match_id, token=token, events_in_decisions=number % 2 == 1)
    requests.put_nowait(arena_pb2.PlayRequest(join=join))

    async def sent() -> AsyncIterator[arena_pb2.PlayRequest]:
        while (request := await requests.get()) is not None:
            yield request

    result = None
    try:
        async for response in stub.Play(sent(), timeout=120):
            if response.WhichOneof("kind") == "decision":
                answer = arena_pb2.Answer(decision_id=response.decision.decision_id)
                requests.put_nowait(arena_pb2.PlayRequest(answer=answer))
                requests.put_nowait(arena_pb2.PlayRequest(answer=answer))
                requests.put_nowait(arena_pb2.PlayRequest(join=join))
            elif response.WhichOneof("kind") == "result":
                result = response.result
        return "OK", result
    except grpc.aio.AioRpcError as error:
        if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
            assert error.details() == "the match is over"  # a join after the end
            return "over", None
        # gRPC's client may report a stream ended while an answer was being
        # written to it as INTERNAL "Internal error from Core".
        replaced = error.code() == grpc.StatusCode.ABORTED or (
            error.code() == grpc.StatusCode.INTERNAL
            and "Internal error from Core" in (error.details() or "")
        )
        assert replaced, error
        return "replaced", None
    finally:
        requests.put_nowait(None)


def test_every_seat_joined_from_many_streams_at_once_still_plays_one_match(
    served: ServerProcess,
) -> None:
    players, waves, per_wave = 2, 3, 5

    async def scenario() -> tuple[list[Ended], arena_pb2.MatchInfo, arena_pb2.Replay]:
        async with grpc.aio.insecure_channel(served.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(
                arena_pb2.CreateMatchRequest(
                    game="sheep-n-sheep",
                    players=players,
                    seed=3,
                    clock=arena_pb2.ClockSettings(decision_seconds=30),
                )
            )

            async def raced(
                seat: int, number: int
            ) -> tuple[int, str, arena_pb2.MatchResult | None]:
                ended, result = await _racing_stream(
                    stub, created.match_id, created.seat_tokens[seat], number
                )
                return seat, ended, result

            tasks = []
            for wave in range(waves):
                for seat in range(players):
                    for number in range(per_wave):
                        tasks.append(asyncio.ensure_future(raced(seat, wave * per_wave + number)))
                await asyncio.sleep(0.05)
            ends = await asyncio.gather(*tasks)
            info = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
            replay = await stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
            return ends, info, replay

    ends, info, replay = asyncio.run(scenario())
    results = [(seat, result) for seat, ended, result in ends if result is not None]
    # Each seat's result on exactly one stream, the same result for every seat.
    assert sorted(seat for seat, _ in results) == list(range(players))
    assert len({result.SerializeToString() for _, result in results}) == 1
    counts = Counter(ended for _, ended, _ in ends)
    assert counts["OK"] == players and counts["replaced"] > 0, counts
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    assert [seat.strikes for seat in info.seats] == [0] * players
    assert info.moves == len(replay.actions) > 0
    assert not any(action.forced for action in replay.actions)
    assert replay.result == results[0][1]
