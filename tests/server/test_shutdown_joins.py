"""A join that arrives while the server shuts down is refused at once: the
matches are suspended for the next server, so a seat joined now would be sent
a decision nobody can answer any more."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.integrity.helpers import stopped_by_the_end, wait_until
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def test_a_join_sent_during_the_shutdown_grace_is_refused_as_unavailable() -> None:
    server = InProcessServer(ServerConfig(shutdown_grace=30))
    server.start()
    with stopped_by_the_end(server) as stop, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2))
        playing = RawSeat(stub)
        playing.join(created.match_id, created.seat_tokens[1])
        playing.next("joined")
        late = RawSeat(stub, timeout=10)  # opened before the shutdown, joining after it
        arena = server.server.arena
        assert arena is not None
        wait_until(lambda: arena.pending_joins.waiting("ipv4:127.0.0.1") == 1, what="the stream")
        stop()
        late.join(created.match_id, created.seat_tokens[0])
        with pytest.raises(grpc.RpcError) as refused:
            late.next("joined")
        playing.close()
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert refused.value.details() == "in-process server closing"
