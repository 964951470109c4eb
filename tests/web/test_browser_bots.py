"""A tournament game's replay page names the bot in each seat, in headless
Chromium: above the board, in the scores, the turn, the move played, the
event log and the seat views; as text only, whatever a database holds."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import OwnServerTournament, save_screenshot
from tests.web.test_browser import wait_for_move
from tournament.store import GameRecord, Store
from web.showcase import start_showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# Markup, and a right-to-left override that would turn the words after it round.
HOSTILE = '<img src=x onerror="window.pwned=1">\u202eevil'
HOSTILE_SHOWN = '<img src=x onerror="window.pwned=1">\\u202eevil'
# A config may name a bot so (any length): it breaks across lines on a phone.
LONG = "long-" + "x" * 200


def first_game(database: Path, name: str) -> GameRecord:
    with Store(database) as store:
        return store.games(store.tournament(name).id)[0]


def renamed_copy(
    tournament: OwnServerTournament, database: Path, names: dict[int | None, str]
) -> GameRecord:
    """Copy `tournament`'s database to `database` with the bots of its first
    game renamed (a database edited by hand): seat -> name, None for every
    seat; that game."""
    shutil.copyfile(tournament.database, database)
    game = first_game(database, tournament.name)
    with sqlite3.connect(database) as connection:
        for seat, bot in names.items():
            connection.execute(
                "UPDATE game_seats SET bot = ? WHERE (? IS NULL OR seat = ?) AND game_id ="
                " (SELECT id FROM games WHERE match_id = ?)",
                (bot, seat, seat, game.match_id),
            )
    connection.close()
    return game


def seat_names(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#scores tbody tr", "rows => rows.map(r => r.querySelector('.bot')?.textContent ?? null)"
    )


def test_a_tournament_games_replay_names_its_bots(
    own_server_tournament: OwnServerTournament, page: Any
) -> None:
    viewer = own_server_tournament.viewer
    name = own_server_tournament.name
    game = first_game(own_server_tournament.database, name)
    bots = list(game.bots)
    page.goto(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}#move=1")
    wait_for_move(page, 1)
    head = page.locator("#seat-bots")
    assert head.is_visible()
    assert page.eval_on_selector_all("#seat-bots .bot", "b => b.map(x => x.textContent)") == bots
    assert head.locator("a").get_attribute("href") == f"/tournaments/0/{name}"
    for seat, bot in enumerate(bots):
        assert f"seat {seat} {bot}" in head.inner_text()
    assert seat_names(page) == bots
    frame = page.evaluate("() => window.sheepfold.frames[window.sheepfold.index]")
    turn = page.inner_text("#turn")
    assert f"Seat {frame['to_move']} ({bots[frame['to_move']]}) to move" in turn
    assert f"move 1: seat {frame['seat']} ({bots[frame['seat']]}) " in turn
    views = page.eval_on_selector_all("#view option", "o => o.map(x => x.textContent)")
    assert views[1 : 1 + len(bots)] == [
        f"what seat {seat} ({bot}) saw" for seat, bot in enumerate(bots)
    ]
    page.select_option("#view", "seat-1")
    page.wait_for_function("() => window.sheepfold.view === 'seat-1'")
    page.keyboard.press("End")
    wait_for_move(page, len(page.evaluate("() => window.sheepfold.frames")) - 1)
    finals = page.eval_on_selector_all(
        "#scores tbody tr",
        "rows => rows.map(r => [r.querySelector('.bot').textContent,"
        " +r.querySelector('td.final').dataset.finalScore])",
    )
    assert finals == [[seat.bot, seat.score] for seat in game.seats]
    save_screenshot(page, "tournament-game-bots")

    # A match of the game server's own has seats, and no bots.
    other = viewer.play_finished("sheep-showdown", 2, 79)
    page.goto(f"{viewer.url}/match/{other}#move=1")
    wait_for_move(page, 1)
    assert page.is_hidden("#seat-bots")
    assert seat_names(page) == [None, None]
    assert "Seat " in page.inner_text("#turn") and "(" not in page.inner_text("#turn")


def test_a_bot_name_is_text_whatever_it_holds(
    own_server_tournament: OwnServerTournament, page: Any, browser: Any, tmp_path: Path
) -> None:
    """A name from a database edited by hand (a config's names are plainer)
    holding markup and U+202E: shown as its text, the override as its escape,
    so it neither runs nor turns the page's words round. A long name leaves
    a phone's page no wider than its screen."""
    database = tmp_path / "hostile.db"
    name = own_server_tournament.name
    game = renamed_copy(own_server_tournament, database, {0: HOSTILE, 1: LONG})
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        page.goto(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}#move=1")
        wait_for_move(page, 1)
        assert page.evaluate("() => window.pwned") is None
        assert page.locator("main img").count() == 0
        # The scores cut a long name at 40 characters; the line above the
        # board at 100, the most a config allows (the whole in its title).
        assert seat_names(page) == [HOSTILE_SHOWN[:40] + "…", LONG[:40] + "…"]
        names = page.eval_on_selector_all(
            "#seat-bots .bot", "b => b.map(x => [x.textContent, x.title])"
        )
        assert names == [[HOSTILE_SHOWN, ""], [LONG[:100] + "…", LONG]]
        text = page.inner_text("body")
        assert "\u202e" not in text and "\\u202eevil" in text
        views = page.eval_on_selector_all("#view option", "o => o.map(x => x.textContent)")
        assert "\u202e" not in "".join(views)
        save_screenshot(page, "tournament-game-hostile-bot")
        small = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        try:
            on_phone = small.new_page()
            on_phone.goto(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}#move=1")
            wait_for_move(on_phone, 1)
            assert on_phone.evaluate(
                "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            ), "a long bot name widens the phone's page"
            save_screenshot(on_phone, "phone-tournament-game-long-bot")
        finally:
            small.close()
    finally:
        viewer.stop()


# A name of 40 letters without a break: as long as a name is shown uncut.
UNBROKEN = "u" * 40

# How far each line of the turn's words reaches past the turn's box, and past
# the window's right edge.
TURN_PAST = """() => {
  const turn = document.getElementById('turn');
  const box = turn.getBoundingClientRect(), width = document.documentElement.clientWidth;
  const range = document.createRange();
  range.selectNodeContents(turn);
  const right = Math.max(...[...range.getClientRects()].map((rect) => rect.right));
  return { box: right - box.right, window: right - width, text: turn.innerText };
}"""


@pytest.mark.parametrize("width", [360, 320])
def test_a_long_unbroken_bot_name_stays_inside_the_turn_line_on_a_phone(
    own_server_tournament: OwnServerTournament, browser: Any, tmp_path: Path, width: int
) -> None:
    """ "Seat 0 (uuuu...) to move", its name 40 letters without a break, ran 9 px
    past its box at 360 px and past the page's edge at 320 px: it wraps now,
    every letter of it shown."""
    database = tmp_path / "unbroken.db"
    name = own_server_tournament.name
    game = renamed_copy(own_server_tournament, database, {None: UNBROKEN})
    viewer = start_showcase(games=(), tournament_dbs=[database])
    small = browser.new_context(viewport={"width": width, "height": 640}, is_mobile=True)
    try:
        page = small.new_page()
        page.goto(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}#move=1")
        wait_for_move(page, 1)
        seen = page.evaluate(TURN_PAST)
        save_screenshot(page, f"phone-{width}-turn-unbroken-bot")
    finally:
        small.close()
        viewer.stop()
    assert f"({UNBROKEN}) to move" in seen["text"].replace("\n", "")
    assert seen["box"] <= 0.5, f"the turn line runs {seen['box']:.1f} px past its box"
    assert seen["window"] <= 0.5, f"the turn line runs {seen['window']:.1f} px past the window"


# A tab, a newline and a return in a name edited into a database: none of
# them is a space, though HTML shows each as one.
SPACED = "tab\there\nnew\rret"
SPACED_SHOWN = "tab\\u0009here\\u000anew\\u000dret"


def test_a_name_holding_a_tab_or_a_newline_reads_alike_in_the_report_and_the_game(
    own_server_tournament: OwnServerTournament, page: Any, tmp_path: Path
) -> None:
    """The match page wrote a bot's tab, newline and return as escapes, as it
    writes every control character; the report (and the tournaments list)
    kept them, and HTML showed each as a space: "tab here" in one place,
    "tab\\u0009here" in the other, and a name no config allows read as two
    words. Both write them as escapes, in the report's cells and titles too."""
    database = tmp_path / "spaced.db"
    name = own_server_tournament.name
    game = renamed_copy(own_server_tournament, database, {0: SPACED})
    viewer = start_showcase(games=(), tournament_dbs=[database])
    try:
        page.goto(f"{viewer.url}/tournaments/0/{name}/match/{game.match_id}#move=1")
        wait_for_move(page, 1)
        names = page.eval_on_selector_all("#seat-bots .bot", "b => b.map(x => x.textContent)")
        assert names[0] == SPACED_SHOWN, names
        page.goto(f"{viewer.url}/tournaments/0/{name}")
        page.wait_for_selector("#report table.games")
        seats = page.eval_on_selector_all(
            f"#report table.games tr[data-match-id='{game.match_id}'] .name",
            "names => names.map((n) => [n.textContent, n.title])",
        )
        assert seats[0] == [SPACED_SHOWN, SPACED_SHOWN], seats
    finally:
        viewer.stop()
