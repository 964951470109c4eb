"""A hostile client stops reading its Play stream (its HTTP/2 window shut, the
server's write waiting on it), and a newer join then takes the seat, before the
write stall limit cuts the stalled stream off. The old stream is told what
happened first: ABORTED "replaced by a newer join", the status the bot guide
promises a replaced stream, and not the stall's RESOURCE_EXHAUSTED "cut off:
... read nothing", after which a bot is told it may rejoin, and would take
the seat back from the newer stream."""

from __future__ import annotations

import time

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.seats import MatchLimits, decision_ids_start
from tests.integrity.helpers import wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

# Without BDP probing a client's HTTP/2 window stays at its first size, so a
# client that does not read shuts it after some 64 KB.
NO_WINDOW_GROWTH = [("grpc.http2.bdp_probe", 0)]
STALL_SECONDS = 2.0


def test_a_stalled_stream_replaced_before_its_cut_off_ends_aborted() -> None:
    # Room for a thousand refusals, each queuing the decision again: over 600 KB.
    config = ServerConfig(write_stall_seconds=STALL_SECONDS, limits=MatchLimits(max_rejected=2000))
    with (
        InProcessServer(config) as server,
        grpc.insecure_channel(server.address, options=NO_WINDOW_GROWTH) as stalled_channel,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="stubborn-sheep",
                players=1,
                seed=3,
                clock=arena_pb2.ClockSettings(decision_seconds=30),
            )
        )
        join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
        wrong = arena_pb2.Answer(
            decision_id=decision_ids_start(created.match_id) + 1, action_index=10_000
        )
        requests = [arena_pb2.PlayRequest(join=join)]
        requests += [arena_pb2.PlayRequest(answer=wrong)] * 1000
        stalled = arena_pb2_grpc.ArenaStub(stalled_channel).Play(iter(requests), timeout=30)
        stalls = server.server.stalls
        # Its writer has waited on the shut window for a while, not yet for the
        # stall limit (the writers' clock is the event loop's, time.monotonic).
        wait_until(
            lambda: any(
                writer.since is not None and time.monotonic() - writer.since > STALL_SECONDS / 4
                for writer in list(stalls._writers)
            ),
            what="the stalled stream's write waiting",
        )
        assert stalls.cancelled == 0

        newer = RawSeat(stub)
        newer.join(created.match_id, created.seat_tokens[0])
        assert newer.next("joined").joined.seat == 0
        wait_until(lambda: stalls.cancelled == 1, what="the stalled stream cut off")

        with pytest.raises(grpc.RpcError) as ended:
            for _ in stalled:
                pass
        assert ended.value.code() == grpc.StatusCode.ABORTED, ended.value.details()
        assert ended.value.details() == "replaced by a newer join for seat 0"
        # The newer stream holds the seat and plays it to the end.
        result = newer.play_to_end()
        newer.close()
        assert len(result.scores) == 1
