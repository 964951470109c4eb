"""A live page's last item, the match's result, from a viewer of tournament
databases: without its breakdown (`details`), which tells the deal (each
round's sheep points and wolves, every seat's face-down objectives) while other
games of the tournament may still have that deal to play. The page then asks
for the match's frames, which give it whole when the deal is no longer held
back. It once came whole on the live stream of a game that had just ended."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from sheepfold.v1 import arena_pb2

from web.app import build_app
from web.hub import WatchHub
from web.state import STATE, WebConfig

DETAILS = {"players": [{"seat": 0, "rounds": [{"round": 1, "sheep_points": 12, "wolves": 1}]}]}


class _Stream:
    """A Watch call that gives `messages` and ends."""

    def __init__(self, messages: list[arena_pb2.WatchResponse]) -> None:
        self._messages = list(messages)

    def __aiter__(self) -> _Stream:
        return self

    async def __anext__(self) -> arena_pb2.WatchResponse:
        if not self._messages:
            raise StopAsyncIteration
        return self._messages.pop(0)

    def cancel(self) -> None:
        pass


def _result_seen(result_details: bool) -> dict[str, Any]:
    result = arena_pb2.MatchResult(
        scores=[12, 3], ranks=[1, 2], winners=[0], details_json=json.dumps(DETAILS)
    )
    stream = _Stream([arena_pb2.WatchResponse(result=result)])

    async def scenario() -> list[bytes]:
        hub = WatchHub(lambda match_id: stream, flush_seconds=0.01, result_details=result_details)
        return [batch async for batch in hub.subscribe("m")]

    items = [item for batch in asyncio.run(scenario()) for item in json.loads(batch)]
    (item,) = [item for item in items if item["kind"] == "result"]
    return item["result"]


@pytest.mark.parametrize("result_details", [True, False])
def test_the_live_result_has_its_breakdown_only_when_asked(result_details: bool) -> None:
    result = _result_seen(result_details)
    assert result["scores"] == [12, 3] and result["ranks"] == [1, 2]
    assert result["details"] == (DETAILS if result_details else {})


@pytest.mark.parametrize("databases", [0, 1])
def test_a_viewer_of_tournament_databases_sends_no_breakdown_live(
    tmp_path: Path, databases: int
) -> None:
    paths = tuple(tmp_path / f"cup{n}.db" for n in range(databases))
    app = build_app(WebConfig("127.0.0.1:1", paths))

    async def scenario() -> bool:
        runner = web.AppRunner(app)  # started as the viewer starts it, without a site
        await runner.setup()
        try:
            return app[STATE].hub.result_details
        finally:
            await runner.cleanup()

    assert asyncio.run(scenario()) is (databases == 0)
