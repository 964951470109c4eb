"""Names with no space to break them at, on a 360x740 phone: 80 letters (a
config allows 100) and 10,000 (a database edited by hand). They made the
report scroll sideways in its box (its title, the plot and the tables as
wide as the name) and pushed a tournament game's board thousands of pixels
down its page."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import save_screenshot
from tournament.store import Store
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

TOURNAMENT = "T" * 80
LONG = "a" * 80
HUGE = "c" * 10_000

# The page's width and, for each box that scrolls on its own, whether it
# holds more than it shows; the report's tables scroll in theirs by design.
WIDTHS = """() => ({
  page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  boxes: [...document.querySelectorAll('.report-scroll, .seat-bots, main')]
    .map((box) => [box.className || box.tagName, box.scrollWidth, box.clientWidth]),
})"""


def _named_long(showcase: Showcase, copy: Path) -> str:
    """The showcase's tournament copied to `copy` under a long name, its bots
    named LONG and HUGE; a game of it (its match id)."""
    shutil.copy(showcase.tournament_dbs[0], copy)
    names = {"random": LONG, "greedy": HUGE}
    with sqlite3.connect(copy) as connection:
        (config,) = connection.execute("SELECT config_json FROM tournaments").fetchone()
        config = json.loads(config)
        for bot in config["bots"]:
            bot["name"] = names.get(bot["name"], bot["name"])
        config["ladder"] = [[names.get(bot, bot) for bot in pair] for pair in config["ladder"]]
        config["anchor"] = names.get(config["anchor"], config["anchor"])
        connection.execute(
            "UPDATE tournaments SET name = ?, anchor = ?, config_json = ?",
            (TOURNAMENT, config["anchor"], json.dumps(config)),
        )
        for old, new in names.items():
            connection.execute("UPDATE game_seats SET bot = ? WHERE bot = ?", (new, old))
        # A game's key ("deal:bot|bot") names its bots: the schedule's games
        # are done by their keys (else every deal reads as still in play).
        for game_id, key in connection.execute("SELECT id, key FROM games").fetchall():
            deal, _, bots = key.partition(":")
            seated = "|".join(names.get(bot, bot) for bot in bots.split("|"))
            connection.execute(
                "UPDATE games SET key = ? WHERE id = ?", (f"{deal}:{seated}", game_id)
            )
        # A game of theirs in play on a Ray node (the report's "Now playing"),
        # its runner beating now.
        connection.execute("UPDATE runners SET beat_at = ?, ended_at = NULL", (time.time() + 3600,))
        connection.execute(
            "INSERT INTO games_in_play (tournament_id, key, match_id, seats_json, node,"
            " started_at) SELECT id, ?, 'ffffffffffffffff', ?, 'n1', ? FROM tournaments",
            (f"99:{LONG}|{HUGE}", json.dumps([LONG, HUGE]), time.time()),
        )
    connection.close()
    with Store(copy) as store:
        games = store.games(store.tournament(TOURNAMENT).id)
    return next(
        game.match_id for game in games if {seat.bot for seat in game.seats} == {LONG, HUGE}
    )


def test_long_names_keep_the_report_and_a_game_within_a_phone(
    showcase: Showcase, browser: Any, tmp_path: Path
) -> None:
    copy = tmp_path / "long.db"
    game = _named_long(showcase, copy)
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    base = f"http://127.0.0.1:{viewer.port}"
    report = f"/tournaments/0/{TOURNAMENT}"
    try:
        page = context.new_page()
        for path, shot in (
            ("/tournaments", "phone-long-names-list"),
            (report, "phone-long-names-report"),
            (f"{report}/match/{game}", "phone-long-names-game"),
        ):
            page.goto(base + path)
            page.wait_for_selector("main h1, main h2")
            if "/match/" in path:
                page.wait_for_selector("#seat-bots:not([hidden])")
            else:
                page.wait_for_load_state("networkidle")
            if path == report:
                page.wait_for_selector("#now-playing")
            widths = page.evaluate(WIDTHS)
            save_screenshot(page, shot)
            width, room = widths["page"]
            assert width <= room, (path, widths)
            for name, holds, shows in widths["boxes"]:
                assert holds <= shows, (path, name, widths)
        # The game's board is in sight, under the whole of an 80-letter name
        # and the first 100 letters of the 10,000 (all of it in its title).
        board = page.evaluate("() => document.getElementById('board').getBoundingClientRect().top")
        assert board < 740, board
        names = page.eval_on_selector_all(
            "#seat-bots bdi.bot", "names => names.map((n) => [n.textContent, n.title])"
        )
        assert names == [[LONG, ""], ["c" * 100 + "…", HUGE]], [n[0][:120] for n in names]
        # The report's tables cut a name with "...", its whole in the title.
        page.goto(base + report)
        page.wait_for_selector("#report table.standings td.bot a")
        cut = page.eval_on_selector_all(
            "#report table.standings td.bot a",
            "links => links.filter((a) => a.scrollWidth > a.clientWidth).map((a) => a.title)",
        )
        assert sorted(cut) == [f"the games of {bot}" for bot in (LONG, HUGE)], cut
    finally:
        context.close()
        showcase.server.run(viewer.stop())
