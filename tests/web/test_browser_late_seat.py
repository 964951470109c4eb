"""A match waiting for one late bot, in headless Chromium: its page names the
seat it waits for, not only that it waits."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import create_match
from clients.sdk import play
from server.app import ServerConfig
from tests.web.conftest import save_screenshot
from web.showcase import PacedBot, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _joined(address: str, match_id: str) -> list[bool]:
    with grpc.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        return [seat.joined for seat in info.seats]


def test_a_match_waiting_for_a_late_seat_names_it(page: Any) -> None:
    """With two of three bots joined, the page said "Waiting for its seats to
    join" as it did before any had: which bot was late, it did not say."""
    show = start_showcase(games=(), config=ServerConfig(start_timeout=60.0))
    try:
        created = show.server.run(create_match(show.server.address, "stubborn-sheep", 3, seed=5))

        async def join(seats: range) -> None:
            for seat in seats:
                bot = PacedBot(seat, 0.05)
                token = created.seat_tokens[seat]
                show._players.append(
                    asyncio.ensure_future(
                        play(bot, show.server.address, created.match_id, token, seat)
                    )
                )

        show.server.run(join(range(2)))
        deadline = time.monotonic() + 20
        while _joined(show.server.address, created.match_id) != [True, True, False]:
            assert time.monotonic() < deadline, "the two bots did not join"
            time.sleep(0.05)
        page.goto(f"{show.url}/match/{created.match_id}")
        page.wait_for_selector('#status[data-status="waiting"]')
        page.wait_for_selector("#turn [data-waiting]")
        said = page.inner_text("#turn")
        save_screenshot(page, "waiting-for-a-late-seat")
        assert said.startswith("Waiting for seat 2 to join\n2 of 3 seats joined"), said
        assert "to move" not in said, said
        # The late bot joins: the match starts and the page follows it.
        show.server.run(join(range(2, 3)))
        page.wait_for_selector('#status[data-status="running"]', timeout=20_000)
        assert "Waiting" not in page.inner_text("#turn")
    finally:
        show.stop()
