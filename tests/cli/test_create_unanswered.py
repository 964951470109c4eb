"""`sheepfold create` and `sheepfold match --server` against a server that takes
the call and answers nothing: one line that says so, not "the server refused"."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from cli.main import main
from clients import matchplay
from clients.connect import refusal_text


class _MuteArena(arena_pb2_grpc.ArenaServicer):
    """Takes CreateMatch and never answers: a server whose gRPC core still speaks
    HTTP/2 while the rest of it is stuck."""

    async def CreateMatch(
        self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> arena_pb2.CreateMatchResponse:
        await asyncio.Event().wait()
        return arena_pb2.CreateMatchResponse()


@pytest.fixture
def mute_server() -> Iterator[str]:
    """The address of a mute Arena, served on a thread of its own."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    address: list[str] = []
    stop = asyncio.Event()

    async def serve() -> None:
        server = grpc.aio.server()
        arena_pb2_grpc.add_ArenaServicer_to_server(_MuteArena(), server)
        address.append(f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}")
        await server.start()
        started.set()
        await stop.wait()
        await server.stop(None)

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield address[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)


def test_create_says_the_server_did_not_answer(
    mute_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It once said "the server refused: DEADLINE_EXCEEDED: Deadline Exceeded"
    after 30 s: no refusal came, and gRPC's words said nothing of why."""
    monkeypatch.setattr(matchplay, "RPC_SECONDS", 0.5)
    with pytest.raises(SystemExit) as ended:
        main(["create", "--server", mute_server, "--game", "sheep-n-sheep", "--players", "2"])
    assert str(ended.value) == (
        "sheepfold create: DEADLINE_EXCEEDED: no answer came from the server before "
        "the call's deadline (is it stuck, or overloaded?)"
    )


def test_a_deadline_the_server_itself_gave_keeps_its_words() -> None:
    said = "no join within 30 s of opening the stream"
    assert refusal_text(grpc.StatusCode.DEADLINE_EXCEEDED, said) == f"DEADLINE_EXCEEDED: {said}"
