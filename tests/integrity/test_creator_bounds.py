"""Both bounds on what one client address creates, on a server without an
admin token (its live-match places, server/live_share.py; its matches nobody
played, server/unplayed.py), read the one record of a match's creator. Every
way a match ends gives its place back and counts it, or not, as unplayed,
exactly once: played to its end, a seat that leaves and is disqualified (the
protocol has no resignation), aborted at the start timeout, its loop failed,
its create refused, suspended by a shutdown. A place kept, or given back twice,
would show in the count of places held."""

from __future__ import annotations

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.match import Match
from tests.integrity.helpers import wait_until
from tests.raw_stream import RawSeat

GAME = "sheep-and-garden"
HERE = "ipv4:127.0.0.1"  # whom the test's creates count against
SOLO = arena_pb2.CreateMatchRequest(game=GAME, players=1)
# A seat that stops answering is disqualified at its first missed decision.
# The one answer it gives must beat its deadline (a match it never answered in
# counts as unplayed): 0.05 s was too short for it on a slowed CPU.
QUICK_OUT = arena_pb2.CreateMatchRequest(
    game=GAME,
    players=1,
    clock=arena_pb2.ClockSettings(decision_seconds=1.0, time_bank_seconds=0.001, max_strikes=1),
)


def _counts(server: InProcessServer) -> tuple[int, int, int]:
    """Places held in all, hosted matches whose loop has not ended holding a
    creator, and this address's matches that ended unplayed."""
    arena, registry = server.server.arena, server.server.registry

    async def read() -> tuple[int, int, int]:
        live = sum(1 for m in registry.all() if m.creator is not None and not m.over)
        return arena.live_shares._held.total, live, arena.unplayed._recently_ended(HERE)

    return server.run(read())


def _settled(server: InProcessServer, unplayed: int) -> None:
    wait_until(lambda: _counts(server) == (0, 0, unplayed), what="the match's end")


def test_every_end_gives_the_place_back_and_counts_unplayed_ones_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = ServerConfig(max_live_matches=8, start_timeout=1.0)
    with (
        InProcessServer(config) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)

        # Played to its end: answered, so not unplayed.
        created = stub.CreateMatch(SOLO, timeout=10)
        assert _counts(server) == (1, 1, 0)
        seat = RawSeat(stub, timeout=60)
        seat.join(created.match_id, created.seat_tokens[0])
        seat.next("joined")
        assert len(seat.play_to_end().scores) == 1
        seat.close()
        _settled(server, 0)

        # A seat that answers once and leaves: disqualified, finished by the clock.
        created = stub.CreateMatch(QUICK_OUT, timeout=10)
        seat = RawSeat(stub, timeout=60)
        seat.join(created.match_id, created.seat_tokens[0])
        seat.next("joined")
        seat.answer(seat.next("decision").decision.decision_id, 0)
        seat.close()
        _settled(server, 0)
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
        assert info.result.seats[0].disqualified

        # Nobody joins: aborted at the start timeout, unplayed.
        stub.CreateMatch(SOLO, timeout=10)
        assert _counts(server) == (1, 1, 0)
        _settled(server, 1)

        # Its loop fails: aborted, unplayed.
        with monkeypatch.context() as patched:

            async def fail(match: Match) -> None:
                raise RuntimeError("a bug in the match loop")

            patched.setattr(Match, "_run", fail)
            stub.CreateMatch(SOLO, timeout=10)
        _settled(server, 2)

        # Refused creates take no place and count nothing.
        for refused in (
            arena_pb2.CreateMatchRequest(game=GAME, players=1, options={"no": "such"}),
            arena_pb2.CreateMatchRequest(game=GAME, players=99),
            arena_pb2.CreateMatchRequest(game="no-such-game", players=1),
        ):
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateMatch(refused, timeout=10)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert _counts(server) == (0, 0, 2)

        # Suspended by the shutdown below.
        stub.CreateMatch(SOLO, timeout=10)
        assert _counts(server) == (1, 1, 2)
    shares = server.server.arena.live_shares
    assert (shares._held.total, shares.held(HERE)) == (0, 0), "the shutdown gave it back"
