"""The viewer for a screen reader and a keyboard alone, in headless Chromium:
what a match page says politely as its moves arrive or are stepped to, and
each page's title, headings and landmarks; a running tournament's page
keeping the keyboard's focus across its refreshes and saying its news; the
contrast of the crosstable's figures."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import drawn_move, save_screenshot
from tests.web.held_tournament import held_tournament
from tests.web.test_browser import wait_for_move
from web.showcase import Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Every text the polite region is given, as it is given (the region watched
# from the moment the page holds a frame).
WATCH_ANNOUNCE = """() => {
  const region = document.getElementById('announce');
  window.announced = [region.textContent];
  window.announcedAt = [performance.now()];
  new MutationObserver(() => {
    window.announced.push(region.textContent);
    window.announcedAt.push(performance.now());
  })
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


# The page's headings in order, as levels, and its landmarks.
OUTLINE = """() => ({
  levels: [...document.querySelectorAll('h1, h2, h3, h4')].map((h) => +h.tagName[1]),
  h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
  lang: document.documentElement.lang,
  main: document.querySelectorAll('main').length,
  nav: document.querySelectorAll('header nav').length,
})"""


def assert_outline(page: Any) -> dict[str, Any]:
    outline: dict[str, Any] = page.evaluate(OUTLINE)
    assert outline["lang"] == "en" and outline["main"] == 1 and outline["nav"] == 1, outline
    levels = outline["levels"]
    assert levels.count(1) == 1 and levels[0] == 1, outline
    # No level skipped on the way down (an h3 straight under the h1 was).
    assert all(b <= a + 1 for a, b in pairwise(levels)), outline
    return outline


FOCUSED = "() => document.activeElement.outerHTML.slice(0, 80)"


def tab_to(page: Any, target: Any) -> None:
    """The focus on `target`, reached by the Tab key alone."""
    for _ in range(30):
        page.keyboard.press("Tab")
        if target.evaluate("(element) => element === document.activeElement"):
            return
    raise AssertionError("Tab never reached it")


def words(turn: str) -> str:
    """The turn line's text as the status line reads it: its lines joined."""
    return ". ".join(" ".join(line.split()) for line in turn.split("\n") if line.strip())


def turn_words(page: Any) -> str:
    return words(page.inner_text("#turn"))


def test_a_live_match_is_read_out_move_by_move_and_only_when_it_changes(browser: Any) -> None:
    """A live match's moves arrived in silence for a screen reader: nothing on
    the page was a live region, and the turn line ("Seat 2 to move", "move 7:
    seat 1 turn fence 4") was read only by going to look for it. The matches
    list, redrawn at each of its moves, dropped a keyboard's focus each time.
    The viewer going away was said on the page alone."""
    viewer = start_showcase(games=(), live=("stubborn-sheep",), live_delay=0.3)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{viewer.url}/match/{viewer.live['stubborn-sheep']}")
        page.wait_for_function("() => window.sheepfold.frames.length >= 1", timeout=20_000)
        region = page.locator("#announce")
        assert region.get_attribute("role") == "status"
        assert region.get_attribute("aria-live") == "polite"
        page.evaluate(WATCH_ANNOUNCE)
        held = page.evaluate("() => window.sheepfold.frames.length")
        # Two texts said since the watch began (moves arrive every 0.3 s).
        page.wait_for_function("() => window.announced.length >= 3", timeout=20_000)
        drawn_move(page)
        page.set_viewport_size({"width": 1200, "height": 800})  # drawn again, the same move
        # Read at one moment, once the status line has caught up with the
        # turn line (it says one text a second at most, the newest): a move
        # may arrive between two reads.
        seen = page.wait_for_function(
            """() => {
              const turn = document.getElementById('turn').innerText;
              const now = turn.split('\\n').map((line) => line.replace(/\\s+/g, ' ').trim())
                .filter(Boolean).join('. ');
              return document.getElementById('announce').textContent === now
                && { said: window.announced, at: window.announcedAt, turn,
                  frames: window.sheepfold.frames.length,
                  move: +document.getElementById('board').dataset.move };
            }""",
            timeout=20_000,
        ).json_value()
        said: list[str] = seen["said"]
        arrived, move = seen["frames"] - held, seen["move"]
        now = words(seen["turn"])
        assert "to move" in now and f"move {move}: " in now, now
        assert said[-1] == now, (said, now)
        # One text a move at most (moves arriving together are drawn once),
        # each new: not once a clock tick (200 ms), nor again when a redraw
        # changed nothing.
        assert 1 <= len(said) - 1 <= arrived + 1, (said, arrived)
        assert all(a != b for a, b in pairwise(said)), said
        # Not every move (one each 0.3 s queued in a screen reader, ever
        # further behind): a second apart at least, the newest move each time.
        gaps = [b - a for a, b in pairwise(seen["at"][1:])]
        assert gaps and min(gaps) >= 900, gaps
        # A notice is given its second too: a move's text due just after it
        # took its place before a screen reader could read it.
        kept_for = page.evaluate(
            """async () => {
              const { notice } = await import('/static/match/model.js');
              const region = document.getElementById('announce');
              const written = () => new Promise((done) => new MutationObserver(done)
                .observe(region, { childList: true, characterData: true, subtree: true }));
              // Just before the next move's text is due.
              await written();
              await new Promise((done) => setTimeout(done, 850));
              notice('a notice to read');
              const at = performance.now();
              await written();
              return performance.now() - at;
            }"""
        )
        assert kept_for >= 900, kept_for
        title = page.title()
        assert title.startswith("Stubborn Sheep · "), title
        assert_outline(page)

        # The matches list, kept current as the match moves, keeps the focus
        # on the link a keyboard user reached with Tab.
        page.goto(f"{viewer.url}/")
        link = page.locator("#live tr[data-match-id] a")
        link.wait_for()
        tab_to(page, link)
        # The same element, never focused anew: a new link focused at each
        # update had a screen reader say the link again several times a second.
        page.evaluate(
            """() => { window.held = document.activeElement; window.focusins = 0;
              document.addEventListener('focusin', () => { window.focusins += 1; }); }"""
        )
        moves = page.inner_text("#live td.moves")
        page.wait_for_function(
            f"() => document.querySelector('#live td.moves').textContent !== {moves!r}"
        )
        assert link.evaluate("(a) => a === document.activeElement"), page.evaluate(FOCUSED)
        kept = page.evaluate("() => [window.held === document.activeElement, window.focusins]")
        assert kept == [True, 0], kept

        # The viewer gone: the list and the match page each say so politely,
        # once (they said it on the page alone, in a box a screen reader
        # was not told of).
        watching = context.new_page()
        watching.goto(f"{viewer.url}/match/{viewer.live['stubborn-sheep']}")
        watching.wait_for_function("() => document.body.dataset.stream === 'open'")
        assert viewer.web is not None
        viewer.server.run(viewer.web.stop())
        viewer.web = None
        lost = "not updating: the viewer does not answer"
        page.wait_for_function(
            f"() => document.getElementById('list-news').textContent == {lost!r}"
        )
        assert page.get_attribute("#list-news", "role") == "status"
        watching.wait_for_function(
            "() => document.getElementById('announce').textContent"
            ".startsWith('The live stream ended')"
        )
    finally:
        context.close()
        viewer.stop()


def test_a_replay_reads_the_move_stepped_to_and_the_end_and_its_pages_say_what_they_are(
    showcase: Showcase, page: Any
) -> None:
    """A step said nothing but the slider's number: the move stepped to, and
    the final scores at the end, are read out; a replay played is quiet until
    paused (a move every tick would queue up), then reads where it stopped.
    The match page went from its h1 to an h3, the tournament page had no h1,
    and an error page's tab read "404" alone; a 0% crosstable cell's figure
    was 3.98:1, dark on red, and board text as low as 1.8:1 (Stubborn Sheep's
    "pen 2" in yellow on cream; a Sheep Showdown dog's white number 4.28:1 on
    seat 0's red)."""
    match_id = showcase.finished["sheep-and-garden"]
    page.goto(f"{showcase.url}/match/{match_id}#move=3")
    wait_for_move(page, 3)
    page.keyboard.press("ArrowRight")
    assert drawn_move(page) == 4
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('move 4: ')"
    )
    assert page.text_content("#announce") == turn_words(page)
    assert page.evaluate(BOARD_TEXT_UNDER) == []
    page.keyboard.press("End")
    last = drawn_move(page)
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('final')"
    )
    ending = page.text_content("#announce") or ""
    assert ending.startswith("Game over. ") and f"move {last}: " in ending, ending
    assert "final scores: seat 0 " in ending and "(1st)" in ending, ending
    # Played, it says nothing until paused, then the move it stopped at.
    page.keyboard.press("Home")
    drawn_move(page)
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.startsWith('Seat ')"
    )
    page.evaluate(WATCH_ANNOUNCE)
    page.keyboard.press(" ")
    page.wait_for_function("() => +document.getElementById('board').dataset.move >= 2")
    page.keyboard.press(" ")
    stopped = drawn_move(page)
    page.wait_for_function(
        f"() => document.getElementById('announce').textContent.includes('move {stopped}: ')"
    )
    said = page.evaluate("() => window.announced")
    # The start (Home), then the pause alone: none of the moves played between.
    assert stopped >= 2 and len(said) == 2 and said[0].startswith("Seat "), (stopped, said)
    assert_outline(page)

    for game in ("stubborn-sheep", "sheep-showdown"):
        page.goto(f"{showcase.url}/match/{showcase.finished[game]}#move=10")
        wait_for_move(page, 10)
        assert page.evaluate(BOARD_TEXT_UNDER) == [], game

    page.goto(f"{showcase.url}/tournaments/0/showcase")
    outline = assert_outline(page)
    assert outline["h1"] == ["Tournament showcase"], outline
    ratios = page.evaluate(CONTRASTS)
    assert ratios and min(ratios) >= 4.5, ratios
    save_screenshot(page, "screen-reader-tournament")

    page.goto(f"{showcase.url}/match/no-such-match")
    assert page.title() == "404 · Not found · Sheepfold"
    assert_outline(page)


# WCAG's contrast of two computed colours (relative luminance).
CONTRAST = """
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (one, other) => {
    const [a, b] = [luminance(one), luminance(other)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
"""

# The contrast of every crosstable cell's text on its heat colour.
CONTRASTS = (
    """() => {"""
    + CONTRAST
    + """
  return [...document.querySelectorAll('#report table.heat td')].map((cell) =>
    contrast(getComputedStyle(cell.querySelector('a') || cell).color,
      getComputedStyle(cell).backgroundColor));
}"""
)

# Every board text (or every one `selector` finds) under 4.5:1 on what it is
# drawn on: the filled shapes under its middle, each at its opacity (and its
# groups') over those under it, down to the page. An outline earns nothing: a
# Sheep Showdown dog's white number, outlined dark 1.5 units wide, was 4.28:1
# on seat 0's red and 2.2:1 on seat 2's yellow.
BOARD_TEXT_UNDER = """(selector) => {
  const luminance = ([r, g, b]) => [r, g, b].map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + [0.2126, 0.7152, 0.0722][i] * v, 0);
  const contrast = (one, other) => {
    const [a, b] = [luminance(one), luminance(other)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
  const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const shown = (el) => {
    let a = parseFloat(getComputedStyle(el).fillOpacity);
    for (let up = el; up && up.id !== 'board'; up = up.parentElement) {
      a *= parseFloat(getComputedStyle(up).opacity);
    }
    return a;
  };
  const page = rgb(getComputedStyle(document.body).backgroundColor);
  const filled = (el) => !['text', 'tspan', 'line', 'polyline', 'path', 'svg'].includes(el.tagName)
    && !['none', 'transparent'].includes(getComputedStyle(el).fill);
  const seen = (shapes) => {
    if (!shapes.length) return page;
    const [top, ...under] = shapes, a = shown(top), colour = rgb(getComputedStyle(top).fill);
    const below = a < 1 ? seen(under) : colour;
    return colour.map((c, i) => a * c + (1 - a) * below[i]);
  };
  return [...document.querySelectorAll(selector || '#board text')].flatMap((t) => {
    const box = t.getBoundingClientRect();
    if (!box.width || getComputedStyle(t).fill === 'none') return [];
    const shapes = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)
      .filter((el) => el !== t && el.closest('#board') && filled(el));
    const [ink, ground] = [seen([t]), seen(shapes)];
    const ratio = contrast(ink, ground);
    return ratio < 4.5 ? [[t.textContent, t.getAttribute('class'), ink, ground, ratio]] : [];
  });
}"""


def test_a_running_tournament_keeps_the_focus_and_says_its_news_politely(
    tmp_path: Path, page: Any
) -> None:
    """Each refresh of a running tournament's report (every 3 s) swapped it
    whole: the link a keyboard user stood on was gone, the focus fell to the
    page's top (then, a new link was focused, read out again), and a game
    ending, or the viewer going away, was told to nobody using a screen
    reader."""
    with held_tournament(tmp_path, "a11y") as tournament:
        viewer, match_id = tournament.viewer, tournament.match_id
        page.add_init_script("window.sheepfoldPollSeconds = 0.3")
        page.goto(f"{viewer.url}/tournaments/0/a11y")
        page.wait_for_selector("#now-playing a.live-link")
        # The viewer out of reach for a moment: said once, politely.
        page.route("**/fragment", lambda route: route.abort())
        page.wait_for_function(
            "() => document.getElementById('report-news').textContent"
            " === 'not updating: the viewer does not answer'"
        )
        page.unroute("**/fragment")
        page.wait_for_function("() => document.getElementById('report-status').hidden")
        # The keyboard on the standings' second bot.
        tab_to(page, page.locator("#report table.standings tr[data-bot] a").nth(1))
        held = page.evaluate(
            "() => { window.heldLink = document.activeElement;"
            " return document.activeElement.getAttribute('href'); }"
        )
        refreshed = int(page.get_attribute("#report", "data-refreshed") or 0)

        tournament.release()
        page.wait_for_selector(
            f'#report table.games tr[data-match-id="{match_id}"]', state="attached", timeout=30_000
        )
        assert int(page.get_attribute("#report", "data-refreshed") or 0) > refreshed
        focus = page.evaluate(
            "() => ({ href: document.activeElement.getAttribute('href'),"
            " inReport: document.getElementById('report').contains(document.activeElement) })"
        )
        assert focus == {"href": held, "inReport": True}, page.evaluate(FOCUSED)
        # The very same link, its row kept with the report renewed around it:
        # a new one focused was said again by a screen reader at each refresh.
        assert page.evaluate("() => document.activeElement === window.heldLink")
        news = page.locator("#report-news")
        assert news.get_attribute("role") == "status"
        assert news.get_attribute("aria-live") == "polite"
        assert page.locator("#report[aria-live]").count() == 0  # not read out whole
        with closing(sqlite3.connect(tournament.database)) as raw:
            ((stored,),) = raw.execute("SELECT COUNT(*) FROM games").fetchall()
        assert news.text_content() == f"{stored} games played, no game playing now"
