"""Which views of a match the viewer serves, asked by URL alone (no page, no
live stream in between), as a visitor editing the address asks them."""

from __future__ import annotations

import json

import pytest

from tests.web.test_http import assert_clear_error, get, wait_finished
from web.app import STATE
from web.showcase import GAMES, Showcase

pytestmark = pytest.mark.e2e


def test_every_view_of_a_match_just_over_is_served_though_the_viewer_saw_it_running(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frames ask the game server afresh whether the match is over: the
    match's JSON the viewer keeps for its pages (half a second by default,
    a minute here) still says "running", and the frames of a match over were
    refused as a live one's (409, and 403 for a seat's cards)."""
    assert showcase.web is not None
    monkeypatch.setattr(showcase.web.runner.app[STATE], "info_seconds", 60.0)
    match_id = showcase.start_live("sheep-showdown", 2, 9_311, delay=0.01)
    status, _, body = get(f"{showcase.url}/api/match/{match_id}")
    assert status == 200 and json.loads(body)["status"] in ("waiting", "running"), body
    wait_finished(showcase.server.address, match_id)
    assert json.loads(get(f"{showcase.url}/api/match/{match_id}")[2])["status"] != "finished"
    for view in ("seat-1", "all", "public"):
        status, _, body = get(f"{showcase.url}/api/match/{match_id}/frames?view={view}")
        assert status == 200, (view, body[:300])
        assert json.loads(body)["view"] == view and json.loads(body)["result"] is not None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_view_past_the_last_seat_is_a_400_naming_the_seats(
    showcase: Showcase, game: str
) -> None:
    """`seat-N` for N the number of seats is no seat: a 400 naming the seats
    there are (not a 500 saying the record does not replay), and the last
    seat's view is served."""
    players = GAMES[game][0]
    frames = f"{showcase.url}/api/match/{showcase.finished[game]}/frames"
    status, _, body = get(f"{frames}?view=seat-{players}")
    assert_clear_error(status, body, 400, f"seat-0 to seat-{players - 1}")
    status, _, body = get(f"{frames}?view=seat-{players - 1}")
    assert status == 200 and json.loads(body)["view"] == f"seat-{players - 1}", body[:300]
