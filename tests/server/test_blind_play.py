"""A hostile client plays whole one-seat matches blind: decision ids are a
match's fixed start plus one a decision, so it answers each decision without
reading anything (its HTTP/2 window shut), against a real `sheepfold serve` on
loopback. Everything each match sends it (its decisions, events, result)
waited in the server's queues until the write stall timeout: a thousand such
matches from one address grew a server by about 160 MB, and the 5,000 one
address may hold would be some 800 MB. The bytes queued on one address's Play
streams are bounded: past the bound, the stream sent to is cut off at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.seats import decision_ids_start
from server.streams import Outbound, QueuedBytes, StreamClosed
from tests.conftest import ServerProcess, server_logging_no_fault
from tests.server.test_unread_refusal_flood import SilentSeat, _rss_mb, _wait

pytestmark = pytest.mark.e2e

MATCHES = 400
PER_CONNECTION = 400
RUNNING = arena_pb2.MATCH_STATUS_RUNNING


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    with server_logging_no_fault() as server:
        yield server


def going(match: arena_pb2.MatchInfo) -> bool:
    """Whether the match still plays its seat's answers: running, its stream
    not cut off (its moves are then forced as its time runs out)."""
    return match.status == RUNNING and match.seats[0].connected


def test_matches_played_blind_by_a_client_reading_nothing_cost_the_server_little(
    served: ServerProcess,
) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = [
            stub.CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1, seed=7)
            )
            for _ in range(MATCHES)
        ]
        ids = {match.match_id for match in created}

        def listed() -> list[arena_pb2.MatchInfo]:
            matches = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=MATCHES + 10)).matches
            return [m for m in matches if m.match_id in ids]

        connections = [
            SilentSeat(served.address, reads=False) for _ in range(MATCHES // PER_CONNECTION)
        ]
        try:
            places = [
                (connections[number // PER_CONNECTION], 1 + 2 * (number % PER_CONNECTION), match)
                for number, match in enumerate(created)
            ]
            for connection, stream, match in places:
                join = arena_pb2.Join(match_id=match.match_id, token=match.seat_tokens[0])
                connection.open(stream)
                connection.send_messages(arena_pb2.PlayRequest(join=join), stream=stream)
            _wait(
                lambda: sum(m.HasField("to_move") for m in listed()) == MATCHES,
                "every match's first decision",
            )
            time.sleep(0.5)  # the first decisions queued
            before = _rss_mb(served)
            playing = {match.match_id for match in created}
            made = 0
            while playing:
                made += 1
                assert made < 1_000, "the matches never ended"
                for connection, stream, match in places:
                    if match.match_id in playing:
                        first = decision_ids_start(match.match_id)
                        answer = arena_pb2.Answer(decision_id=first + made, action_index=0)
                        connection.send_messages(
                            arena_pb2.PlayRequest(answer=answer), stream=stream
                        )

                def moved(made: int = made) -> bool:
                    """Every match still playing took this round's answer."""
                    matches = [m for m in listed() if m.match_id in playing]
                    if not all(m.moves >= made or not going(m) for m in matches):
                        return False
                    playing.intersection_update(m.match_id for m in matches if going(m))
                    return True

                _wait(moved, f"answer {made} of every match played", timeout=60)
            time.sleep(0.5)
            grown = _rss_mb(served) - before
        finally:
            for connection in connections:
                connection.close()
    assert grown < 50, f"the server grew by {grown} MB"


def test_a_stream_sent_to_while_its_address_holds_too_many_bytes_is_cut_off() -> None:
    queued = QueuedBytes(per_address=1_000, total=10_000)
    cut: list[str] = []
    first = Outbound[bytes](queued=queued, address="10.0.0.1")
    second = Outbound[bytes](queued=queued, address="10.0.0.1")
    second.cut_off = lambda: cut.append("second")
    elsewhere = Outbound[bytes](queued=queued, address="10.0.0.2")
    assert first.send(b"x" * 600) and first.send(b"x" * 600)  # the bound passed by one
    assert queued.held_by("10.0.0.1") == 1_200
    assert second.send(b"y") and second.overflowed and cut == ["second"]
    assert len(second) == 0 and queued.held_by("10.0.0.1") == 1_200
    assert elsewhere.send(b"z" * 600) and not elsewhere.overflowed
    # Cut off by default: closed, what it held given back, what comes later dropped.
    assert first.send(b"x") and first.overflowed
    assert queued.held_by("10.0.0.1") == 0
    assert first.send(b"x") and len(first) == 1  # only why it ended
    closed = asyncio.run(first.get())
    assert isinstance(closed, StreamClosed)
    assert closed.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert closed.message.startswith("cut off: ")


def test_a_stream_whose_messages_are_taken_as_they_come_is_never_cut_off() -> None:
    """A client that reads: its stream's writer takes each message, which then
    no longer counts, however many bytes pass."""
    queued = QueuedBytes(per_address=1_000, total=1_000)
    stream = Outbound[bytes](queued=queued, address="10.0.0.1")

    async def read() -> None:
        for _ in range(100):
            assert stream.send(b"x" * 900) and stream.send(b"y" * 90)
            await stream.get()
            await stream.get()

    asyncio.run(read())
    assert not stream.overflowed and queued.held_by("10.0.0.1") == 0
