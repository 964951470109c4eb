"""A hostile client floods a seat's Play stream with stale answers, up to just
under the stream's bound on refused messages, then has a newer join replace it
and floods on, against a real `sheepfold serve` on loopback. The server ends
the old stream ABORTED "replaced by a newer join", neither RESOURCE_EXHAUSTED
for its flood nor INTERNAL (the sync client reports the status the server
sent; a grpc.aio client writing as its stream ends may report INTERNAL of its
own, docs/writing-a-bot.md). The newer stream gets none of the old one's
refusals and plays the seat to the end, with no strike lost to the swap."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, server_logging_no_fault
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

# A stream's bound on refused messages is 100: one short before the
# replacement, past it after.
BEFORE = 99
AFTER = 300


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    with server_logging_no_fault("--start-timeout", "60") as server:
        yield server


def test_a_flood_on_a_replaced_stream_ends_it_aborted_and_spares_the_newer_one(
    served: ServerProcess,
) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="sheep-n-sheep",
                players=2,
                seed=5,
                clock=arena_pb2.ClockSettings(decision_seconds=30),
            )
        )
        other = RawSeat(stub)
        other.join(created.match_id, created.seat_tokens[1])
        other_results: list[arena_pb2.MatchResult] = []
        thread = threading.Thread(
            target=lambda: other_results.append(other.play_to_end()), daemon=True
        )
        thread.start()

        old = RawSeat(stub)
        old.join(created.match_id, created.seat_tokens[0])
        old.next("joined")
        for _ in range(BEFORE):
            old.answer(2**63 - 1, 0)
        new = RawSeat(stub)
        new.join(created.match_id, created.seat_tokens[0])
        assert new.next("joined").joined.seat == 0
        for _ in range(AFTER):
            old.answer(2**63 - 1, 0)
        with pytest.raises(grpc.RpcError) as caught:
            for _ in old.responses:
                pass
        assert caught.value.code() == grpc.StatusCode.ABORTED, caught.value.details()
        assert caught.value.details() == "replaced by a newer join for seat 0"
        old.close()

        # The newer stream saw none of the old one's refusals and was not closed
        # for them: it plays the seat to the end.
        refused = 0
        result = None
        for response in new.responses:
            kind = response.WhichOneof("kind")
            if kind == "decision":
                new.answer(response.decision.decision_id, 0)
            elif kind == "error":
                refused += 1
            elif kind == "result":
                result = response.result
                break
        new.close()
        assert result is not None, "the newer stream ended without the result"
        assert refused == 0
        thread.join(30)
        other.close()
        assert other_results == [result]
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
        assert [seat.strikes for seat in info.result.seats] == [0, 0]
