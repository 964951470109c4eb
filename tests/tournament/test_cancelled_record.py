"""The record of a game is asked for again when the server cancelled the call.

A server stopped by SIGTERM just as a game ended cancels the `GetReplay` in
flight (`CANCELLED`, not `UNAVAILABLE`); seen in a run whose server was
killed and restarted 6 times: one game of 144 was stored with its result
alone, as if its server had never come back, and `sheepfold replay` found no
moves for it."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2

from clients.launch import Launcher
from tests.tournament.quick_cup import quick_cup
from tournament import game_play
from tournament.game_play import GamePlayer


class _Stub:
    """GetReplay: `code` first, then the record."""

    def __init__(self, code: grpc.StatusCode) -> None:
        self.code = code
        self.calls = 0

    async def GetReplay(self, request: object, **kwargs: Any) -> arena_pb2.Replay:
        self.calls += 1
        if self.calls == 1:
            raise grpc.aio.AioRpcError(
                self.code, grpc.aio.Metadata(), grpc.aio.Metadata(), details=self.code.name
            )
        return arena_pb2.Replay(match_id="m")


class _Log:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, event: str, **fields: object) -> None:
        self.warnings.append(event)


@pytest.mark.parametrize("code", [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED])
def test_a_record_call_the_server_cut_short_is_made_again(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, code: grpc.StatusCode
) -> None:
    checked: list[str] = []

    async def back(address: str, tls: object = None) -> None:
        checked.append(address)

    monkeypatch.setattr(game_play, "still_gone", back)
    player = GamePlayer(quick_cup(tmp_path, 1), "127.0.0.1:1", "", Launcher(), _Log())
    stub, log = _Stub(code), _Log()
    replay = asyncio.run(player._replay(stub, "m", log))  # type: ignore[arg-type]
    assert replay is not None and replay.match_id == "m", log.warnings
    assert stub.calls == 2 and checked == ["127.0.0.1:1"]
