"""Each page fetches the Sheepfold sheep once, in headless Chromium with its
cache off (as a developer's network log shows it). The page drew the top
bar's sheep from /static/favicon.svg as an image and named the same file as
its tab icon: two fetches of one file on every page load, whenever the
browser's cache did not answer the second (its cache off, a private window,
a browser that keeps its tab icons apart)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

FAVICON = "/static/favicon.svg"


@pytest.mark.parametrize("path", ["/", "/tournaments"])
def test_a_page_fetches_its_icon_once(showcase: Showcase, page: Any, path: str) -> None:
    fetched: list[str] = []
    network = page.context.new_cdp_session(page)
    network.on(
        "Network.requestWillBeSent",
        lambda event: fetched.append(event.get("type", "")) if
        event["request"]["url"].endswith(FAVICON) else None,
    )  # fmt: skip
    network.send("Network.enable")
    network.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(f"{showcase.url}{path}", wait_until="load")
    # The tab's icon is fetched after the page has loaded: time for a late one.
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(fetched) == 1, f"{FAVICON} fetched {len(fetched)} times: {fetched}"
    # The top bar still shows the sheep, drawn in the page itself.
    assert page.locator("header.top .brand svg").count() == 1
    assert page.locator("header.top .brand").bounding_box()["height"] >= 22
