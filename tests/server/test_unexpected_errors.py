"""A fault the handlers did not foresee ends the call with INTERNAL and a
logged traceback, never gRPC's UNKNOWN "Unexpected <class ...>: ..." (which
shows the caller the server's insides and logs nothing), and the server goes on."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from server.registry import MatchRegistry
from server.unexpected import MESSAGE

pytestmark = pytest.mark.e2e


@pytest.fixture
def stub() -> Iterator[arena_pb2_grpc.ArenaStub]:
    with InProcessServer() as running, grpc.insecure_channel(running.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


def _calls(stub: arena_pb2_grpc.ArenaStub) -> dict[str, Callable[[], object]]:
    return {
        "GetMatch": lambda: stub.GetMatch(arena_pb2.GetMatchRequest(match_id="m"), timeout=10),
        "GetReplay": lambda: stub.GetReplay(arena_pb2.GetReplayRequest(match_id="m"), timeout=10),
        "Watch": lambda: list(stub.Watch(arena_pb2.WatchRequest(match_id="m"), timeout=10)),
    }


# The registry method each call leans on, made to fail as no handler foresaw.
LEANS_ON = {"GetMatch": "info", "GetReplay": "replay", "Watch": "finished"}


@pytest.mark.parametrize("method", sorted(LEANS_ON))
def test_an_unforeseen_exception_is_internal_and_logged(
    stub: arena_pb2_grpc.ArenaStub, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    async def broken(self: MatchRegistry, match_id: str) -> None:
        raise RuntimeError("secret detail of the server")

    monkeypatch.setattr(MatchRegistry, LEANS_ON[method], broken)
    with structlog.testing.capture_logs() as logs, pytest.raises(grpc.RpcError) as caught:
        _calls(stub)[method]()
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    assert caught.value.details() == MESSAGE
    logged = [entry for entry in logs if entry["event"] == "unexpected error in a call"]
    assert [entry["method"] for entry in logged] == [f"/sheepfold.v1.Arena/{method}"]
    monkeypatch.undo()
    # The server goes on.
    created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2))
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
    assert info.match_id == created.match_id


def test_an_unforeseen_exception_in_play_is_internal_and_logged(
    stub: arena_pb2_grpc.ArenaStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play is not wrapped like the other calls (it is the hot path) and catches
    the unforeseen itself, with the same status, message and log line."""
    created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2))

    def broken(self: MatchRegistry, match_id: str) -> None:
        raise RuntimeError("secret detail of the server")

    monkeypatch.setattr(MatchRegistry, "hosted", broken)
    join = arena_pb2.Join(match_id=created.match_id, seat=0, token=created.seat_tokens[0])
    with structlog.testing.capture_logs() as logs, pytest.raises(grpc.RpcError) as caught:
        list(stub.Play(iter([arena_pb2.PlayRequest(join=join)]), timeout=10))
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    assert caught.value.details() == MESSAGE
    logged = [entry for entry in logs if entry["event"] == "unexpected error in a call"]
    assert [entry["method"] for entry in logged] == ["/sheepfold.v1.Arena/Play"]
    monkeypatch.undo()
    # The server goes on: the same seat joins and is sent its first decision.
    call = stub.Play(iter([arena_pb2.PlayRequest(join=join)]), timeout=10)
    first = next(call)
    call.cancel()
    assert first.WhichOneof("kind") == "joined"


@pytest.mark.parametrize("method", sorted(LEANS_ON))
def test_a_call_whose_client_left_before_its_answer_logs_nothing(
    stub: arena_pb2_grpc.ArenaStub,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    method: str,
) -> None:
    """The client's deadline passes while the server reads the match, which is
    then not found: the NOT_FOUND cannot be sent. gRPC once logged that as
    "Unexpected [CallEnded] raised by servicer method" with a traceback, an
    error line a client with deadlines of a few milliseconds made again and
    again (about one in twenty calls at 3 ms)."""
    read = threading.Event()

    async def slow(self: MatchRegistry, match_id: str) -> None:
        # The loop held past the deadline (a read on a busy server): the call's
        # cancellation comes after the handler's NOT_FOUND is tried.
        time.sleep(0.3)
        read.set()

    monkeypatch.setattr(MatchRegistry, LEANS_ON[method], slow)
    with caplog.at_level(logging.WARNING), pytest.raises(grpc.RpcError) as caught:
        {
            "GetMatch": lambda: stub.GetMatch(arena_pb2.GetMatchRequest(match_id="m"), timeout=0.1),
            "GetReplay": lambda: stub.GetReplay(
                arena_pb2.GetReplayRequest(match_id="m"), timeout=0.1
            ),
            "Watch": lambda: list(stub.Watch(arena_pb2.WatchRequest(match_id="m"), timeout=0.1)),
        }[method]()
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert read.wait(5)
    time.sleep(0.3)  # the status tried, and failed, after the read
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_join_whose_client_left_before_its_refusal_logs_nothing(
    stub: arena_pb2_grpc.ArenaStub,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """As above, for a Play join of a match that is not there: its NOT_FOUND
    could not be sent, and gRPC logged "Unexpected [CallEnded] raised by
    servicer method [/sheepfold.v1.Arena/Play]" with a traceback."""
    read = threading.Event()

    async def slow(self: MatchRegistry, match_id: str) -> None:
        time.sleep(0.3)  # the loop held past the client's deadline
        read.set()

    monkeypatch.setattr(MatchRegistry, "finished_summary", slow)
    join = arena_pb2.PlayRequest(join=arena_pb2.Join(match_id="m", token="t"))
    with caplog.at_level(logging.WARNING), pytest.raises(grpc.RpcError) as caught:
        list(stub.Play(iter([join]), timeout=0.1))
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert read.wait(5)
    time.sleep(0.3)  # the status tried, and failed, after the read
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
