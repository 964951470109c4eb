"""SeatInfo.joined of a seat that joined and never answered, across a SIGKILL.

`joined` says a seat joined at least once, "it may have left since". A seat
that joined and left without answering a decision (a bot that crashed on its
first one) read true until the server was killed, and false once it was back
on the same database: the server kept which seats joined for its run only,
and after a restart knew a seat by its answers alone. A tournament runner
reading it then took a seat that had joined for one that never did.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import get_match_blocking

pytestmark = pytest.mark.e2e

# Long enough that nothing moves while the test looks: the match waits for its
# second seat, which never joins, and then for the first seat's answer.
WAIT = ("--start-timeout", "600")


def _joined(address: str, match_id: str) -> tuple[list[bool], list[bool]]:
    """Each seat's `joined`, as GetMatch and as ListMatches say it."""
    with grpc.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        listed = stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10).matches
    [found] = [info for info in listed if info.match_id == match_id]
    got = get_match_blocking(address, match_id)
    return [seat.joined for seat in got.seats], [seat.joined for seat in found.seats]


def test_a_seat_that_joined_and_never_answered_still_reads_joined_after_a_sigkill(
    tmp_path: Path,
) -> None:
    db = tmp_path / "killed.db"
    first = start_server_process("--db", str(db), *WAIT)
    leave = threading.Event()
    try:
        with grpc.insecure_channel(first.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(
                arena_pb2.CreateMatchRequest(
                    game="sheep-showdown",
                    players=2,
                    seed=7,
                    clock=arena_pb2.ClockSettings(decision_seconds=600),
                ),
                timeout=10,
            )
            match_id = created.match_id

            def requests() -> Iterator[arena_pb2.PlayRequest]:
                join = arena_pb2.Join(match_id=match_id, token=created.seat_tokens[0])
                yield arena_pb2.PlayRequest(join=join)
                leave.wait(60)  # and never answer

            stream = stub.Play(requests())
            assert next(stream).WhichOneof("kind") == "joined"
            assert _joined(first.address, match_id) == ([True, False], [True, False])
            first.process.send_signal(signal.SIGKILL)
            assert first.process.wait(10) == -signal.SIGKILL
            leave.set()
            with pytest.raises(grpc.RpcError):
                for _ in stream:
                    pass
    finally:
        leave.set()
        if first.process.poll() is None:
            first.process.kill()
    second = start_server_process("--db", str(db), *WAIT)
    try:
        assert _joined(second.address, match_id) == ([True, False], [True, False])
        assert get_match_blocking(second.address, match_id).moves == 0, "it never answered"
    finally:
        assert stop_server_process(second) == 0
