"""A hostile seat that reads nothing (its HTTP/2 window shut) and sends 99
answers with an index out of range, one short of the flood limit, against a
real `sheepfold serve` on loopback. Each refusal is a PlayError, and the
decision is sent again only once the copy sent before has left the stream's
queue: one copy per refusal once waited there for each such seat until the
write stall timeout, and a client doing it on a thousand matches' seats took
a server from 100 to 306 MB. The PlayErrors wait encoded, a fifth of what
they took as messages."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.seats import decision_ids_start
from tests.conftest import ServerProcess, server_logging_no_fault
from tests.integrity.raw_client import DATA, WINDOW_UPDATE, RawClient
from tests.stream_flood import END_HEADERS, HEADERS, PLAY_HEADERS, frame

pytestmark = pytest.mark.e2e

REFUSED = 99  # the flood limit (100) closes the stream past this many
STREAM = 1


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    # Deadlines far past the test's own waits: a first decision that timed out
    # while a loaded machine was still joining the other 999 seats was played
    # for its seat, and the seat's answers to it were then stale.
    with server_logging_no_fault(
        "--decision-seconds", "600", "--write-stall-timeout", "600"
    ) as server:
        yield server


class SilentSeat(RawClient):
    """A Play stream on a connection that grants the server no window until
    told to: everything the server sends it stays in the server's queue."""

    def send_messages(self, *requests: arena_pb2.PlayRequest, stream: int = STREAM) -> None:
        body = b"".join(
            b"\x00" + len(data).to_bytes(4, "big") + data
            for data in (request.SerializeToString() for request in requests)
        )
        self._send(frame(DATA, 0, stream, body))

    def open(self, stream: int = STREAM) -> None:
        self._send(frame(HEADERS, END_HEADERS, stream, PLAY_HEADERS))

    def read_everything(self) -> None:
        room = (2**30).to_bytes(4, "big")
        self._send(frame(WINDOW_UPDATE, 0, 0, room) + frame(WINDOW_UPDATE, 0, STREAM, room))

    def received(self) -> list[arena_pb2.PlayResponse]:
        data, messages = self.data[STREAM], []
        while len(data) >= 5 and len(data) >= 5 + (size := int.from_bytes(data[1:5], "big")):
            messages.append(arena_pb2.PlayResponse.FromString(data[5 : 5 + size]))
            data = data[5 + size :]
        return messages


def test_refused_answers_from_a_seat_reading_nothing_queue_no_copies_of_the_decision(
    served: ServerProcess,
) -> None:
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1, seed=5)
        )
        get = arena_pb2.GetMatchRequest(match_id=created.match_id)
        first = decision_ids_start(created.match_id) + 1
        seat = SilentSeat(served.address, reads=False)
        try:
            seat.open()
            join = arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
            seat.send_messages(arena_pb2.PlayRequest(join=join))
            _wait(lambda: stub.GetMatch(get).HasField("to_move"), "the first decision")
            wrong = arena_pb2.Answer(decision_id=first, action_index=10_000)
            right = arena_pb2.Answer(decision_id=first, action_index=0)
            seat.send_messages(
                *[arena_pb2.PlayRequest(answer=wrong)] * REFUSED,
                arena_pb2.PlayRequest(answer=right),
            )
            # Answers are taken in order: once the move is made, every refusal is queued.
            _wait(lambda: stub.GetMatch(get).moves == 1, "the right answer to be played")
            seat.read_everything()
            _wait(
                lambda: any(r.decision.decision_id == first + 1 for r in seat.received()),
                "the second decision to be read",
            )
            received = seat.received()
        finally:
            seat.reset(STREAM)
            seat.close()
    errors = [r.error for r in received if r.WhichOneof("kind") == "error"]
    assert len(errors) == REFUSED
    assert {e.code for e in errors} == {grpc.StatusCode.INVALID_ARGUMENT.value[0]}
    copies = [r for r in received if r.decision.decision_id == first]
    # The first sending, and one more should the server have taken the first
    # off its queue (gRPC may buffer it) before the refusals came.
    assert 1 <= len(copies) <= 2, f"{len(copies)} copies of the decision were queued"


def test_a_thousand_seats_reading_nothing_and_refused_99_times_cost_the_server_little(
    served: ServerProcess,
) -> None:
    """Each refusal is still a PlayError queued for its seat, but an encoded
    one: as messages, the 99,000 of them grew the server by about 95 MB; now
    by about 20, the decision's copies no longer among them."""
    seats, per_connection = 1000, 500
    with grpc.insecure_channel(served.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = [
            stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1))
            for _ in range(seats)
        ]
        connections = [
            SilentSeat(served.address, reads=False) for _ in range(seats // per_connection)
        ]
        try:
            places = [
                (connections[number // per_connection], 1 + 2 * (number % per_connection), match)
                for number, match in enumerate(created)
            ]
            for connection, stream, match in places:
                join = arena_pb2.Join(match_id=match.match_id, token=match.seat_tokens[0])
                connection.open(stream)
                connection.send_messages(arena_pb2.PlayRequest(join=join), stream=stream)
            ids = {match.match_id for match in created}

            def moves() -> list[int]:
                """The moves of the matches made here that have begun."""
                listed = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=seats + 10)).matches
                return [m.moves for m in listed if m.match_id in ids and m.HasField("to_move")]

            _wait(lambda: len(moves()) == seats, "every match's first decision")
            time.sleep(0.5)  # the first decisions queued
            before = _rss_mb(served)
            for connection, stream, match in places:
                first = decision_ids_start(match.match_id) + 1
                wrong = arena_pb2.Answer(decision_id=first, action_index=10_000)
                right = arena_pb2.Answer(decision_id=first, action_index=0)
                connection.send_messages(
                    *[arena_pb2.PlayRequest(answer=wrong)] * REFUSED,
                    arena_pb2.PlayRequest(answer=right),
                    stream=stream,
                )
            _wait(
                lambda: moves() == [1] * seats,
                "every seat's refusals taken and its right answer played",
                timeout=60,
            )
            grown = _rss_mb(served) - before
        finally:
            for connection in connections:
                connection.close()
    assert grown < 40, f"the server grew by {grown} MB"


def _rss_mb(server: ServerProcess) -> int:
    with open(f"/proc/{server.pid}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) // 1024


def _wait(condition: object, what: str, timeout: float = 20.0) -> None:
    assert callable(condition)
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"no {what} within {timeout} s"
        time.sleep(0.02)
