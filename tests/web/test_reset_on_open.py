"""A client that resets its connection right after asking for an event stream
(the matches list's, a live match's) is let go without a word: the stream's
headers, written to the reset connection, raised aiohttp's "Cannot write to
closing transport", which the viewer logged as its own failure ("web request
failed", an error with a traceback) and answered with a 500 nobody read."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import structlog
from aiohttp.client_exceptions import ClientConnectionResetError

import web.match_routes
from web.app import WebConfig, start_web

pytestmark = pytest.mark.e2e


async def _reset(*_args: Any, **_kwargs: Any) -> Any:
    """What open_events meets when the client reset its connection first."""
    raise ClientConnectionResetError("Cannot write to closing transport")


def _answer(port: int, path: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        client.sendall(head.encode())
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
        return answer


def test_a_client_gone_as_its_stream_opens_is_not_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web.match_routes, "open_events", _reset)

    async def run() -> bytes:
        running = await start_web(WebConfig(server="127.0.0.1:1"), "127.0.0.1", 0)
        try:
            return await asyncio.to_thread(_answer, running.port, "/api/matches/events")
        finally:
            await running.stop()

    with structlog.testing.capture_logs() as logs:
        answer = asyncio.run(run())
    assert b" 500 " not in answer, "no error page for a client that left"
    assert [line for line in logs if line["log_level"] in ("error", "critical")] == []
    assert not any("exc_info" in line for line in logs)
