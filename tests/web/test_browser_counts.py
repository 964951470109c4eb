"""The matches list's counts in headless Chromium: one move is "1 move"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from web.showcase import start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _listed(match_id: str, moves: int, players: int) -> dict[str, Any]:
    return {
        "match_id": match_id, "game": "stubborn-sheep", "title": "Stubborn Sheep",
        "players": players, "status": "running", "moves": moves, "to_move": 0,
        "created_at": 1_700_000_000, "result": None,
    }  # fmt: skip


def test_the_matches_list_counts_one_move_as_one(page: Any) -> None:
    """A match one move in read "1 moves"."""
    viewer = start_showcase(games=())
    listed = [_listed("one", 1, 1), _listed("two", 2, 2), _listed("none", 0, 3)]
    body = f"data: {json.dumps(listed)}\n\n"
    page.route(
        "**/api/matches/events*",
        lambda route: route.fulfill(
            status=200, headers={"Content-Type": "text/event-stream"}, body=body
        ),
    )
    try:
        page.goto(viewer.url + "/")
        page.wait_for_selector('#live tr[data-match-id="one"]')
        cells = page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('#live tr[data-match-id]')]
              .map((tr) => [tr.dataset.matchId, [tr.children[4].textContent,
                                                 tr.querySelector('td.players').textContent]]))"""
        )
    finally:
        viewer.stop()
    assert cells == {
        "one": ["1 move", "1 player"],
        "two": ["2 moves", "2 players"],
        "none": ["0 moves", "3 players"],
    }
