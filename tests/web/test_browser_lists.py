"""The list pages as a spectator reads them, in headless Chromium: the matches
list's columns named and lined up on a laptop, its rows alike on a phone, the
tournaments list's progress, and a tournament's games heading under a filter."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tournament.store import Store
from web import tournaments
from web.app import WebConfig, start_web
from web.showcase import GAMES, Showcase, start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


@pytest.fixture(scope="module")
def busy() -> Iterator[Showcase]:
    """A finished and a live match of every game (the live ones a move every
    few seconds, so they stay live while a test reads the list)."""
    show = start_showcase(live=tuple(GAMES), live_delay=3.0)
    try:
        yield show
    finally:
        show.stop()


# Each column heading's left edge and text, and each listed row's cells' left
# edges, by table part (#live, #finished).
COLUMNS = """() => {
  const left = (el) => Math.round(el.getBoundingClientRect().left);
  const heads = [...document.querySelectorAll('table.matches thead th')]
    .filter((th) => th.getBoundingClientRect().width > 0);
  const rows = (id) => [...document.querySelectorAll(`#${id} tr[data-match-id]`)]
    .map((tr) => [...tr.cells].map(left));
  return { heads: heads.map((th) => [th.textContent.trim(), left(th)]),
    live: rows('live'), finished: rows('finished') };
}"""


def test_the_matches_list_names_its_columns_and_lines_them_up(busy: Showcase, page: Any) -> None:
    """On a laptop the list had no column headings: a bare number ("12 moves",
    a score) named by nothing, and the live and finished tables, each sized
    to its own rows, did not line up."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(busy.url)
    page.wait_for_function(
        "(n) => document.querySelectorAll('#live tr[data-match-id]').length === n"
        " && document.querySelectorAll('#finished tr[data-match-id]').length === n",
        arg=len(GAMES),
    )
    seen = page.evaluate(COLUMNS)
    save_screenshot(page, "matches-columns-1280")
    titles = [title for title, _ in seen["heads"]]
    assert titles == ["Match", "Game", "Players", "Status", "Moves", "Result", "Started"], titles
    edges = [x for _, x in seen["heads"]]
    for part in ("live", "finished"):
        for cells in seen[part]:
            assert cells == edges, (part, cells, edges)
    assert not page.evaluate(
        "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
    ), "the list is wider than the window"


# Each listed row's status badge: which line of the row it is on (by its top
# against the row's first cell), and whether any shown cell reaches past the window.
BADGE_LINES = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('table.matches tr[data-match-id]')].map((tr) => {
    const first = tr.cells[0].getBoundingClientRect(), game = tr.cells[1];
    const badge = tr.querySelector('.badge').getBoundingClientRect();
    const shown = [...tr.cells].filter((td) => td.getBoundingClientRect().width > 0);
    return { title: game.textContent, second: badge.top >= first.bottom - 1,
      gameOnFirst: Math.abs(game.getBoundingClientRect().top - first.top) < 2,
      past: shown.some((td) => td.getBoundingClientRect().right > width + 0.5) };
  });
}"""


# Rows whose first words (id and game) are short, middling and long.
PHONE_ROWS = [
    ("a1b2c3", "Sheep & Garden", "finished"),
    ("7d0c6a5e1f2b3c4d", "Sheep Showdown", "running"),
    ("e5f6", "Stubborn Sheep", "waiting"),
    ("9a8b7c6d5e4f3a2b", "Sheep 'n' Sheep", "aborted"),
]


def _listed(match_id: str, title: str, status: str) -> dict[str, Any]:
    return {
        "match_id": match_id, "game": "sheep-showdown", "title": title, "players": 2,
        "status": status, "moves": 12, "to_move": 0 if status == "running" else None,
        "created_at": 1_700_000_000,
        "result": {"scores": [29, 14], "ranks": [1, 2]} if status == "finished" else None,
    }  # fmt: skip


def test_a_phone_shows_every_rows_status_on_its_second_line(busy: Showcase, browser: Any) -> None:
    """At 360 px a row wrapped where its words ran out: with a short id and
    game the status badge stayed on the first line, with longer ones it went
    to the second, so the badges of a list zigzagged down the page."""
    listed = [_listed(*row) for row in PHONE_ROWS]
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True)
    try:
        page = context.new_page()
        page.route(
            "**/api/matches/events*",
            lambda route: route.fulfill(
                status=200,
                headers={"Content-Type": "text/event-stream"},
                body=f"data: {json.dumps(listed)}\n\n",
            ),
        )
        page.goto(busy.url)
        page.wait_for_function(
            "(n) => document.querySelectorAll('table.matches tr[data-match-id]').length === n",
            arg=len(listed),
        )
        rows = page.evaluate(BADGE_LINES)
        save_screenshot(page, "matches-rows-360")
        assert not page.evaluate(
            "() => [...document.querySelectorAll('.table-scroll')]"
            ".some((box) => box.scrollWidth > box.clientWidth)"
        ), "the list scrolls sideways"
    finally:
        context.close()
    assert len(rows) == len(PHONE_ROWS), rows
    for row in rows:
        assert row["second"] and row["gameOnFirst"] and not row["past"], row


@pytest.fixture
def unfinished(showcase: Showcase, tmp_path: Path) -> Iterator[str]:
    """A viewer of a copy of the showcase's tournament database, its schedule
    made 360 games long: a tournament still to be played."""
    copy = tmp_path / "unfinished.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE tournaments SET scheduled = 360")
    connection.close()
    viewer = showcase.server.run(
        start_web(
            WebConfig(showcase.server.address, (showcase.tournament_dbs[0], copy)), "127.0.0.1", 0
        )
    )
    try:
        yield f"http://127.0.0.1:{viewer.port}"
    finally:
        showcase.server.run(viewer.stop())


def test_the_tournaments_list_says_how_many_games_are_played(
    showcase: Showcase, unfinished: str, page: Any
) -> None:
    """The list said "360 games scheduled" and no more: neither how far a
    tournament had got nor whether it was still being played."""
    with Store(showcase.tournament_dbs[0]) as store:
        record = store.tournament("showcase")
        played = len(store.games(record.id))
    page.goto(f"{unfinished}/tournaments")
    save_screenshot(page, "tournaments-list")
    finished, going = page.locator('li[data-tournament="showcase"]').all()
    assert f"{played} of {played} games played" in finished.inner_text()
    assert finished.locator(".badge").inner_text() == "finished"
    assert f"{played} of 360 games played" in going.inner_text()
    # No runner has been at work on the copy: stopped, since its newest game.
    assert going.locator(".badge").inner_text() == "stopped"
    since = going.locator(".since").inner_text()
    assert since.startswith("since ") and since.endswith(" UTC"), since
    # What the tournament's own page counts, and says.
    page.goto(f"{unfinished}/tournaments/1/showcase")
    assert page.locator("[data-games-played]").inner_text() == str(played)
    assert page.locator(".tournament-state .badge").inner_text() == "stopped"
    assert page.locator(".tournament-state .since").inner_text() == since
    save_screenshot(page, "tournament-stopped")


def test_a_tournament_page_follows_its_runner_from_running_to_stopped(
    showcase: Showcase, unfinished: str, page: Any, tmp_path: Path
) -> None:
    """The page said "running" for as long as games were left, its runner
    killed or not: it shows the state the viewer reads from the runner's
    heartbeat, and changes it as the runner stops."""
    copy = tmp_path / "unfinished.db"
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE runners SET beat_at = ?, ended_at = NULL", (time.time(),))
    connection.close()
    # The page asks every 3 s; a quicker pace here changes no step, only the wait.
    page.add_init_script("window.sheepfoldPollSeconds = 0.5")
    page.goto(f"{unfinished}/tournaments/1/showcase")
    assert page.locator(".tournament-state .badge").inner_text() == "running"
    assert page.locator(".tournament-state .since").count() == 0
    stopped = time.time()
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE runners SET beat_at = ?, ended_at = ?", (stopped, stopped))
    connection.close()
    page.wait_for_function(
        "() => document.querySelector('.tournament-state .badge').textContent === 'stopped'",
        timeout=15_000,
    )
    page.goto(f"{unfinished}/tournaments")
    (_, going) = page.locator('li[data-tournament="showcase"]').all()
    since = going.locator(".since").inner_text()
    page.go_back()
    assert page.locator(".tournament-state .since").inner_text() == since


def test_the_tournaments_list_reads_no_games_of_a_round_robin(
    showcase: Showcase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting each tournament's games by reading them all (as its page does)
    would make the list slow for a database of many tournaments: it counts
    them in one query."""
    read: list[int] = []
    games = Store.games
    monkeypatch.setattr(Store, "games", lambda store, i: read.append(i) or games(store, i))
    listed, damaged = tournaments.listed_tournaments(showcase.tournament_dbs[0])
    assert not damaged and [t.record.name for t in listed] == ["showcase"]
    assert listed[0].played == listed[0].record.scheduled
    assert listed[0].state.word == "finished"
    assert read == []


def test_a_pairs_filter_counts_its_games_in_the_heading(showcase: Showcase, page: Any) -> None:
    """With #bot=A&bot=B the list showed that pair's games under a heading
    still counting all of them ("Games (12)" over four)."""
    with Store(showcase.tournament_dbs[0]) as store:
        stored = store.games(store.tournament("showcase").id)
    page.goto(f"{showcase.url}/tournaments/0/showcase")
    page.wait_for_selector("table.heat td[data-row] a")
    heading = page.locator("#report h3", has_text="Games (")
    assert heading.inner_text() == f"Games ({len(stored)})"
    row, col = page.eval_on_selector(
        "table.heat td[data-row][data-col]", "cell => [cell.dataset.row, cell.dataset.col]"
    )
    page.locator(f'table.heat td[data-row="{row}"][data-col="{col}"] a').click()
    page.wait_for_selector("#pair-games")
    theirs = [g for g in stored if {row, col} <= set(g.bots)]
    assert 0 < len(theirs) < len(stored)
    assert heading.inner_text() == f"Games ({len(theirs)} of {len(stored)})"
    page.get_by_role("link", name="every game").click()
    page.wait_for_function("() => !document.getElementById('pair-games')")
    assert heading.inner_text() == f"Games ({len(stored)})"
