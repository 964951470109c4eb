"""A tournament name or game id far longer than any real one, asked of the
viewer: its 404 quotes the first 80 characters, as the viewer's other
messages cut what a request brought (a path at 80, a query value at 40)."""

from __future__ import annotations

import html
import json

import pytest

from tests.web.test_http import assert_clear_error, get
from web.showcase import Showcase

pytestmark = pytest.mark.e2e

LONG = "x" * 7000
CUT = 80


@pytest.mark.parametrize(
    "path",
    [
        f"/tournaments/0/{LONG}",
        f"/tournaments/0/{LONG}/fragment",
        f"/tournaments/0/{LONG}/match/abc",
        f"/api/tournaments/0/{LONG}/match/abc/frames",
    ],
    ids=["page", "fragment", "game page", "game frames"],
)
def test_an_unknown_tournament_s_404_quotes_its_name_cut_short(
    showcase: Showcase, path: str
) -> None:
    """It quoted the whole name back: a 7 KB address was a 9 KB page (or
    JSON) holding 7,000 escaped characters of it."""
    status, _, body = get(showcase.url + path)
    message = json.loads(body)["error"] if path.startswith("/api/") else html.unescape(body)
    assert_clear_error(status, message, 404, f"no tournament '{'x' * CUT}' in tournament.db")
    assert "x" * (CUT + 1) not in message
    assert "(it holds: showcase)" in message
    assert len(body) < 4000, len(body)


@pytest.mark.parametrize(
    "path",
    [f"/tournaments/0/showcase/match/{LONG}", f"/api/tournaments/0/showcase/match/{LONG}/frames"],
    ids=["page", "frames"],
)
def test_an_unknown_game_of_a_tournament_is_quoted_cut_short(showcase: Showcase, path: str) -> None:
    status, _, body = get(showcase.url + path)
    message = json.loads(body)["error"] if path.startswith("/api/") else html.unescape(body)
    assert_clear_error(status, message, 404, f"has no game '{'x' * CUT}'")
    assert "x" * (CUT + 1) not in message
    assert len(body) < 4000, len(body)
