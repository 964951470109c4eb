"""The replays waiting to render are shared out per client address, an IPv6
client by its /64 network: one host is usually given a whole /64, and counted
by its whole address a client asked for each replay from a new address and
held every place, the share per address notwithstanding."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from web import replays
from web.gateway import GatewayError
from web.state import STATE, State, WebConfig


def _request(app: web.Application, host: str) -> web.Request:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        (host, 40000, 0, 0) if name == "peername" else default
    )
    return make_mocked_request("GET", "/api/match/m/frames", app=app, transport=transport)


def _started(hosts: list[str]) -> list[int | None]:
    """The status each host's replay request got at once (None: rendering)."""

    async def run() -> list[int | None]:
        app = web.Application()
        gateway: Any = SimpleNamespace(matches=None)
        app[STATE] = State(WebConfig(server="127.0.0.1:1"), gateway, mock.Mock())
        never = asyncio.Event()

        async def load() -> Any:
            await never.wait()

        answers: list[int | None] = []
        pending = []
        for number, host in enumerate(hosts):
            key = ("server", f"m{number}", "public")
            task = asyncio.ensure_future(
                replays.frames_response(_request(app, host), key, "public", load)
            )
            await asyncio.sleep(0)
            if task.done():
                error = task.exception()
                answers.append(error.status if isinstance(error, GatewayError) else -1)
            else:
                answers.append(None)
                pending.append(task)
        for task in pending:
            task.cancel()
        for rendering in app[STATE].rendering.values():
            rendering.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return answers

    return asyncio.run(run())


def test_addresses_of_one_ipv6_network_share_its_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replays, "MAX_RENDERS_WAITING", 4)
    monkeypatch.setattr(replays, "MAX_RENDERS_PER_ADDRESS", 2)
    hosts = ["2001:db8:0:7::1", "2001:db8:0:7::2", "2001:db8:0:7::3", "2001:db8:0:8::1"]
    # The third from the /64 is told to come back; another network still gets in.
    assert _started(hosts) == [None, None, 503, None]
