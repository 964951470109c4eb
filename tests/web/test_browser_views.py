"""A finished match's seat views, in headless Chromium, when one cannot be
loaded: the view list names the view the board shows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import drawn_move
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_view_that_cannot_be_loaded_leaves_the_list_at_the_view_shown(
    showcase: Showcase, page: Any
) -> None:
    """Choosing "what seat 0 saw" while the viewer refuses it (its deal still
    to be played in a tournament, the viewer restarting): the page said why,
    went on showing the spectator's view, and the list went on naming seat 0's,
    so the board read as what seat 0 saw; and the refusal stayed said once
    another view had loaded."""
    match_id = showcase.finished["sheep-n-sheep"]

    def refused(route: Any) -> None:
        if "view=seat-0" in route.request.url:
            route.fulfill(
                status=503,
                content_type="application/json",
                body='{"error": "the viewer is starting again", "status": 503}',
            )
        else:
            route.continue_()

    page.route(f"**/api/match/{match_id}/frames*", refused)
    page.goto(f"{showcase.url}/match/{match_id}#move=4")
    assert drawn_move(page) == 4
    page.select_option("#view", "seat-0")
    page.wait_for_selector("#notice:not([hidden])")
    assert "the viewer is starting again" in page.inner_text("#notice")
    assert page.evaluate("() => window.sheepfold.view") == "public"
    assert page.input_value("#view") == "public"
    # A view that loads is shown, and named.
    page.select_option("#view", "seat-1")
    page.wait_for_function("() => window.sheepfold.view === 'seat-1'")
    assert page.input_value("#view") == "seat-1"
    assert page.is_hidden("#notice"), "the refusal is still said"
    assert drawn_move(page) == 4
