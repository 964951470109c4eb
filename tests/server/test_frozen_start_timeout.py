"""A server frozen (SIGSTOP, a paused virtual machine) while a match waits for
its seats: joins sent in time while it was stopped wait unread, and when it ran
again the start timeout fired before them, aborting the match ("no seat joined
within the start timeout") and refusing both seats. Time the server does not
run is not the seats': the wait starts again, as a decision's clock does."""

from __future__ import annotations

import os
import queue
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import log_entries

pytestmark = pytest.mark.e2e

START_TIMEOUT = 2.0


def _play(channel: grpc.Channel, match_id: str, token: str, seen: list[str]) -> None:
    """Join and answer every decision with its first action; `seen` gets the
    first message's kind (or the status that ended the stream) and "result"."""
    sent: queue.Queue[arena_pb2.PlayRequest | None] = queue.Queue()
    sent.put(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))

    def requests() -> Iterator[arena_pb2.PlayRequest]:
        while (request := sent.get()) is not None:
            yield request

    try:
        for message in arena_pb2_grpc.ArenaStub(channel).Play(requests(), timeout=60):
            kind = message.WhichOneof("kind")
            if not seen:
                seen.append(kind)
            if kind == "decision":
                answer = arena_pb2.Answer(decision_id=message.decision.decision_id)
                sent.put(arena_pb2.PlayRequest(answer=answer))
            elif kind == "result":
                seen.append(kind)
                break
    except grpc.RpcError as error:
        seen.append(f"{error.code().name}: {error.details()}")
    finally:
        sent.put(None)


def test_joins_sent_while_the_server_was_stopped_are_taken(tmp_path: Path) -> None:
    server = start_server_process(
        "--db", str(tmp_path / "s.db"), "--start-timeout", str(START_TIMEOUT)
    )
    channels = [grpc.insecure_channel(server.address) for _ in range(2)]
    try:
        created = arena_pb2_grpc.ArenaStub(channels[0]).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=3)
        )
        for channel in channels:
            grpc.channel_ready_future(channel).result(timeout=10)
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            seen: list[list[str]] = [[], []]
            seats = [
                threading.Thread(
                    target=_play, args=(channels[seat], created.match_id, token, seen[seat])
                )
                for seat, token in enumerate(created.seat_tokens)
            ]
            for seat in seats:
                seat.start()
            time.sleep(START_TIMEOUT + 2)  # the joins are sent, the server frozen
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        for seat in seats:
            seat.join(60)
        assert seen == [["joined", "result"], ["joined", "result"]]
    finally:
        for channel in channels:
            channel.close()
        assert stop_server_process(server) == 0
    events = [e["event"] for e in log_entries(server.log_lines)]
    assert "match abandoned" not in events and "match finished" in events
