"""A "Now playing" link to a match that the game server forgot (restarted
on the same port without a database), in headless Chromium: the match's page
says what happened in a spectator's words, and the tournament's page drops
the game from "Now playing" once the server says NOT_FOUND. Before, the
viewer kept a match it had once seen as hosted for good: the link stayed,
and led to a page saying only "no match 'ID'"."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.web.conftest import save_screenshot
from tournament.schedule import make_schedule
from tournament.store import InPlay, Store
from web.app import RunningWeb, WebConfig, start_web
from web.showcase import Showcase
from web.state import MATCH_INFO_SECONDS

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _server_on(port: int) -> InProcessServer:
    """A game server without a database on `port` (InProcessServer picks a
    free one otherwise)."""
    server = InProcessServer(ServerConfig())
    server.config = dataclasses.replace(server.config, port=port)
    server.start()
    return server


def _answers(address: str) -> bool:
    with grpc.insecure_channel(address) as channel:
        try:
            arena_pb2_grpc.ArenaStub(channel).ListGames(arena_pb2.ListGamesRequest(), timeout=2)
        except grpc.RpcError:
            return False
    return True


@pytest.fixture
def viewer_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A loop of its own for the viewer, which outlives the game server."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def test_a_forgotten_match_is_told_and_leaves_now_playing(
    tmp_path: Path, page: Any, viewer_loop: asyncio.AbstractEventLoop
) -> None:
    first = Showcase(_server_on(0))
    port = int(first.server.address.rsplit(":", 1)[1])
    match_id = first.start_live("sheep-showdown", 2, 31, delay=5)
    database = tmp_path / "cup.db"
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    with Store(database) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.start_run(tid, "run", time.time())
        seats = tuple(schedule[0].seats)
        store.game_in_play(tid, InPlay("game-0", match_id, seats, "", time.time()))
    config = WebConfig(first.server.address, (database,))
    web: RunningWeb = asyncio.run_coroutine_threadsafe(
        start_web(config, "127.0.0.1", 0), viewer_loop
    ).result(30)
    url = f"http://127.0.0.1:{web.port}"
    second: InProcessServer | None = None
    first_running = True
    try:
        page.goto(f"{url}/tournaments/0/cup")
        row = f'#now-playing tr[data-match-id="{match_id}"]'
        assert page.get_attribute(f"{row} a.live-link", "href") == f"/match/{match_id}"

        # A spectator following the match live when its server restarts.
        watching = page.context.new_page()
        watching.goto(f"{url}/match/{match_id}")
        watching.wait_for_function("() => document.body.dataset.stream === 'open'")

        first.stop()  # its bots too
        first_running = False
        second = _server_on(port)
        assert second.address == first.server.address
        assert _answers(second.address)
        # Past the half second a running match's GetMatch answer serves page loads.
        time.sleep(MATCH_INFO_SECONDS + 0.1)

        live = page.context.new_page()
        answer = live.goto(f"{url}/match/{match_id}")
        assert answer is not None and answer.status == 404
        told = live.inner_text(".error-page")
        save_screenshot(live, "forgotten-match")
        assert "no longer there" in told and "restarted" in told, told
        assert "database" in told, told
        live.close()

        # The live page, trying to follow the match again, says it is gone, in
        # the same words, one sentence after another ("cut short.." before).
        watching.wait_for_function(
            "() => document.getElementById('notice').textContent.includes('no longer be followed')",
            timeout=30_000,
        )
        notice = watching.inner_text("#notice")
        assert "restarted" in notice and ".." not in notice, notice
        watching.close()

        # The page's next ask (every 3 s) drops the game from "Now playing".
        page.wait_for_selector(row, state="detached", timeout=20_000)
        assert page.locator("#now-playing").count() == 0
        assert page.locator("a.live-link").count() == 0
    finally:
        asyncio.run_coroutine_threadsafe(web.stop(), viewer_loop).result(30)
        if second is not None:
            second.stop()
        if first_running:
            first.stop()
