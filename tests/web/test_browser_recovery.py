"""Pages that recover by themselves, in headless Chromium: a tournament page
that asks nothing while its tab is hidden, and asks at once when shown; an
older page of the matches list, a finished match's views and a match's
page opened while the game server is away, tried again less and less often
until they load."""

from __future__ import annotations

import itertools
import json
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import drawn_move, laptop_and_phone, save_screenshot
from tests.web.many_matches import every_match, many_matches
from tests.web.test_browser_pages import _visibility
from tests.web.test_browser_streams_away import _running
from web.pages import error_page
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_a_hidden_tournament_page_asks_for_nothing_and_asks_at_once_when_shown(
    showcase: Showcase, page: Any
) -> None:
    """The page asks for its report every 3 s while its tournament runs. A
    tab left open in the background went on asking every 3 s for as long as
    it was open (the live match page lets go of its stream while hidden)."""
    url = f"{showcase.url}/tournaments/0/showcase"
    asked: list[float] = []
    # Every 2 s here, not 3: a page that waited one of them to ask once shown
    # still asks later than the 1.5 s allowed below.
    page.add_init_script(f"window.sheepfoldPollSeconds = {POLL_SECONDS}")
    page.route(url, _running)
    page.route(f"{url}/fragment", lambda route: _running_fragment(route, asked))
    page.goto(url)
    polled = "() => document.getElementById('report').dataset.polled"
    page.wait_for_function(f"{polled} === '1'", timeout=15_000)
    page.evaluate(_visibility(True))
    before = len(asked)
    page.wait_for_timeout(POLL_SECONDS * 2_000 + 500)  # two asks' time
    assert len(asked) == before, "a hidden tab asked for its report"
    shown = time.monotonic()
    page.evaluate(_visibility(False))
    page.wait_for_function(f"{polled} === '2'", timeout=15_000)
    assert len(asked) == before + 1
    assert asked[-1] - shown < 1.5, "shown again, the page waited to ask"
    # And goes on asking every few seconds, as before.
    page.wait_for_function(f"{polled} === '3'", timeout=15_000)


POLL_SECONDS = 2


def _running_fragment(route: Any, asked: list[float]) -> None:
    """The report as a running tournament's: the page goes on asking."""
    asked.append(time.monotonic())
    answer = route.fetch()
    headers = {**answer.headers, "x-tournament-state": "running"}
    route.fulfill(response=answer, headers=headers)


# Waits the pages make between attempts in these tests (they grow as the
# project's 1, 2, 4, 8, 15, 30 s do), and how the failing answers fail.
WAITS = [0.2, 0.4, 0.8, 1.6]


def _failing_then_answered(page: Any, pattern: str, failures: int) -> list[float]:
    """Routes `pattern`: its first `failures` requests fail as they do with the
    viewer or the game server away (no answer, a proxy's 502 page, the
    viewer's 502 JSON), then every one goes through. Returns when each was made."""
    asked: list[float] = []

    def fail_first(route: Any) -> None:
        asked.append(time.monotonic())
        tried = len(asked)
        if tried > failures:
            route.continue_()
        elif tried % 3 == 1:
            route.abort("connectionrefused")
        elif tried % 3 == 2:
            route.fulfill(status=502, content_type="text/html", body="<p>bad gateway</p>")
        else:
            route.fulfill(
                status=502,
                content_type="application/json",
                body='{"error": "the game server does not answer (ListMatches)", "status": 502}',
            )

    page.add_init_script(f"window.sheepfoldRetrySeconds = {WAITS}")
    page.add_init_script(RECORD_TEXTS)
    page.route(pattern, fail_first)
    return asked


# Every text #list-status and #notice show, in order. Read once a wait is over,
# the line could already name the next failure: the first wait is 0.2 s, and a
# loaded machine took longer than that to read it.
RECORD_TEXTS = """
window.sheepfoldShown = {};
new MutationObserver(() => {
  for (const id of ['list-status', 'notice']) {
    const element = document.getElementById(id);
    if (!element) continue;
    const shown = (window.sheepfoldShown[id] ||= []);
    const text = element.innerText;
    if (text && shown[shown.length - 1] !== text) shown.push(text);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _shown(page: Any, element_id: str, words: str) -> str:
    """The first text element_id showed that holds these words."""
    texts = page.evaluate(f"() => window.sheepfoldShown[{element_id!r}] || []")
    said = [text for text in texts if words in text]
    assert said, (words, texts)
    return str(said[0])


def _waited_longer_each_time(asked: list[float]) -> None:
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked)]
    assert len(gaps) >= len(WAITS), gaps
    for gap, wait in zip(gaps, WAITS, strict=False):
        assert gap >= wait * 0.9, (gaps, WAITS)


def test_an_older_page_of_the_list_that_fails_to_load_tries_again_until_it_loads(
    tmp_path: Path, page: Any
) -> None:
    """An older page (`/?page=TOKEN`) is loaded once. With the viewer or the
    game server away at that moment it said so and never asked again, until
    a reload by hand; it tries again now, waiting longer each time, and
    shows the page once an answer comes."""
    with many_matches(tmp_path) as viewer:
        every = every_match(viewer)
        with urllib.request.urlopen(f"{viewer.url}/api/matches/page", timeout=30) as answer:
            token = json.load(answer)["next_page"]
        asked = _failing_then_answered(page, "**/api/matches/page?*", len(WAITS))
        page.goto(f"{viewer.url}/?page={urllib.parse.quote(token)}")
        page.wait_for_selector("body[data-stream='retrying']")
        page.wait_for_function(
            "() => document.getElementById('list-status').textContent.includes('answered 502')"
        )
        said = _shown(page, "list-status", "trying")
        assert said.startswith("could not load this page: the viewer does not answer; trying"), said
        save_screenshot(page, "list-page-retrying")
        page.wait_for_selector("body[data-stream='loaded']", timeout=15_000)
        assert len(asked) == len(WAITS) + 1
        _waited_longer_each_time(asked)
        shown = page.eval_on_selector_all(
            "tbody tr[data-match-id]", "rows => rows.map(r => r.dataset.matchId)"
        )
        assert shown == every[200:400]
        assert "of every match, as of" in page.inner_text("#list-status")


def test_a_hidden_older_page_of_the_list_waits_to_be_shown_before_it_tries_again(
    tmp_path: Path, page: Any
) -> None:
    """An older page (`/?page=TOKEN`) that failed to load tries again while the
    viewer is away. In a background tab it went on asking, twice a minute in
    the end, for as long as it was open; now a retry waits for the tab to be
    shown, says so, and is made at once when it is."""
    with many_matches(tmp_path) as viewer:
        every = every_match(viewer)
        with urllib.request.urlopen(f"{viewer.url}/api/matches/page", timeout=30) as answer:
            token = json.load(answer)["next_page"]
        asked = _failing_then_answered(page, "**/api/matches/page?*", 1)
        # Hidden from the start (a tab opened in the background): hidden only once
        # the page said it was retrying, its first 0.2 s wait could end first on a
        # loaded machine, and the retry was rightly made while the tab was shown.
        page.add_init_script(f"({_visibility(True)})()")
        page.goto(f"{viewer.url}/?page={urllib.parse.quote(token)}")
        page.wait_for_selector("body[data-stream='retrying']")
        page.wait_for_timeout(sum(WAITS) * 1000)  # every wait the page would make, and more
        assert len(asked) == 1, "asked again while hidden"
        said = page.inner_text("#list-status")
        assert said == (
            "could not load this page: the viewer does not answer; "
            "trying again when this tab is shown"
        ), said
        save_screenshot(page, "list-page-hidden-waiting")
        shown_at = time.monotonic()
        page.evaluate(_visibility(False))
        page.wait_for_selector("body[data-stream='loaded']", timeout=15_000)
        assert len(asked) == 2 and asked[1] - shown_at < 1.0, "not asked at once when shown"
        shown = page.eval_on_selector_all(
            "tbody tr[data-match-id]", "rows => rows.map(r => r.dataset.matchId)"
        )
        assert shown == every[200:400]
        save_screenshot(page, "list-page-shown-loaded")


def test_a_finished_match_s_views_that_fail_to_load_are_tried_again(
    showcase: Showcase, page: Any
) -> None:
    """A finished match's page loads its frames once, and a seat's view when
    chosen. With the viewer or the game server away at that moment the page
    said so and never asked again: the board stayed empty, or the seat's view
    unshown, until a reload by hand."""
    match_id = showcase.finished["sheep-n-sheep"]
    asked = _failing_then_answered(page, f"**/api/match/{match_id}/frames?view=public", 2)
    page.goto(f"{showcase.url}/match/{match_id}#move=4")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('trying again in')"
    )
    said = _shown(page, "notice", "trying again in")
    assert said.startswith("Could not load the public view: the viewer does not answer"), said
    assert drawn_move(page) == 4, "loaded at last, it opens at the move the link names"
    assert page.is_hidden("#notice")
    assert len(asked) == 3
    # A seat's view, chosen while the viewer is away: tried again until shown.
    seat = _failing_then_answered(page, f"**/api/match/{match_id}/frames?view=seat-1", len(WAITS))
    page.select_option("#view", "seat-1")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('answered 502')"
    )
    said = _shown(page, "notice", "seat-1 view: the viewer answered")
    assert said.startswith("Could not load the seat-1 view: the viewer answered 502; trying"), said
    # Meanwhile the list names the view the board shows.
    assert page.input_value("#view") == "public"
    save_screenshot(page, "match-view-retrying")
    page.wait_for_function("() => window.sheepfold.view === 'seat-1'", timeout=15_000)
    assert page.input_value("#view") == "seat-1"
    assert page.is_hidden("#notice")
    assert drawn_move(page) == 4
    assert len(seat) == len(WAITS) + 1
    _waited_longer_each_time(seat)


def test_a_hidden_page_waits_to_be_shown_before_it_tries_again(
    showcase: Showcase, page: Any
) -> None:
    """An older page of the list and a finished match's views try again while
    the viewer is away (web/static/retry.js). A tab in the background went on
    asking, twice a minute in the end, for as long as it was open; now a
    retry waits for the tab to be shown, and is made at once when it is."""
    match_id = showcase.finished["sheep-n-sheep"]
    asked = _failing_then_answered(page, f"**/api/match/{match_id}/frames?view=public", 1)
    # Hidden from the start (a tab opened in the background), as the list's test
    # is: hidden only once the notice said "trying again in", the first 0.2 s
    # wait ended first on a loaded machine, and the retry was rightly made
    # while the tab was still shown (asked twice, 0.36 s apart).
    page.add_init_script(f"({_visibility(True)})()")
    page.goto(f"{showcase.url}/match/{match_id}#move=4")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('trying again')"
    )
    # Every wait the page would make, and more (Playwright's, as its routes
    # answer only while it waits).
    page.wait_for_timeout(sum(WAITS) * 1000)
    assert len(asked) == 1, "asked again while hidden"
    # It says what it waits for: it said "trying again in 0.2 s" throughout.
    said = page.inner_text("#notice")
    assert said.endswith("; trying again when this tab is shown."), said
    save_screenshot(page, "match-view-hidden-waiting")
    shown_at = time.monotonic()
    page.evaluate(_visibility(False))
    assert drawn_move(page) == 4
    assert len(asked) == 2 and asked[1] - shown_at < 1.0, "not asked at once when shown"
    assert page.is_hidden("#notice")
    save_screenshot(page, "match-view-shown-loaded")


@laptop_and_phone
def test_a_match_page_opened_while_the_game_server_is_away_shows_the_match_once_it_is_back(
    showcase: Showcase, browser: Any, viewport: dict[str, int], mobile: bool
) -> None:
    """A match's page opened while the game server was away (restarting, say)
    was the viewer's 502 page, and stayed one until reloaded by hand, though
    every other page of the viewer tries again by itself. It tries again now,
    waiting longer each time and saying when, and shows the match once the
    viewer can answer."""
    match_id = showcase.finished["sheep-showdown"]
    away = error_page(502, "the game server does not answer (GetMatch)")
    asked: list[tuple[str, float]] = []

    def away_at_first(route: Any) -> None:
        asked.append((route.request.method, time.monotonic()))
        if len(asked) > len(WAITS):
            route.continue_()
        else:
            route.fulfill(status=502, content_type="text/html", body=away)

    context = browser.new_context(viewport=viewport, is_mobile=mobile)
    try:
        page = context.new_page()
        page.add_init_script(f"window.sheepfoldRetrySeconds = {WAITS}")
        page.route(f"**/match/{match_id}", away_at_first)
        page.goto(f"{showcase.url}/match/{match_id}")
        assert page.inner_text("h1").startswith("502")
        page.wait_for_function(
            "() => document.getElementById('again').textContent.startsWith('Trying again in')"
        )
        save_screenshot(page, f"match-page-away-retrying-{'phone' if mobile else 'laptop'}")
        page.wait_for_selector("#board[data-move]", timeout=15_000)
        assert page.locator(".error-page").count() == 0
        assert [method for method, _ in asked][1 : len(WAITS)] == ["HEAD"] * (len(WAITS) - 1)
        _waited_longer_each_time([at for _, at in asked][: len(WAITS) + 1])
        assert drawn_move(page) == int(page.evaluate("() => window.sheepfold.frames.length")) - 1
    finally:
        context.close()


def test_an_error_page_that_no_wait_mends_does_not_try_again(showcase: Showcase, page: Any) -> None:
    """Only an answer that may come a moment later (502, 503, 504) is asked
    again: an unknown match's 404 stays as it is, asking nothing."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.add_init_script("window.sheepfoldRetrySeconds = [0.1]")
    page.goto(f"{showcase.url}/match/no-such-match")
    page.wait_for_timeout(500)
    assert page.locator("#again").count() == 0
    assert not [url for url in asked if url.endswith("/match/no-such-match")][1:]
