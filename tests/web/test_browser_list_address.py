"""The matches list's address, in headless Chromium: an empty page token is
the first page, the live one."""

from __future__ import annotations

from typing import Any

import pytest

from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


@pytest.mark.parametrize(
    ("query", "address"), [("?page=", "/"), ("?page=&game=sheep-showdown", "/?game=sheep-showdown")]
)
def test_an_empty_page_token_is_the_live_first_page(
    showcase: Showcase, page: Any, query: str, address: str
) -> None:
    """`/?page=` (a link cut at its token, a form sent empty) names no older
    page: the list showed the newest matches as "an older page", not kept
    current, with a link to the "newest" (the same matches), where the first
    page follows the list as it changes."""
    page.goto(f"{showcase.url}/{query}")
    page.wait_for_selector("body[data-stream='open']", timeout=15_000)
    assert page.evaluate("() => document.body.dataset.page") is None
    assert page.inner_text("#list-status").startswith("updated ")
    assert page.locator("#finished tr[data-match-id]").count() > 0
    assert page.is_hidden("#newer")
    assert page.url == showcase.url + address  # the first page's own address
