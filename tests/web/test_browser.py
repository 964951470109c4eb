"""The viewer in headless Chromium: what each game's page draws at chosen moves
equals the engine's state there, live pages grow and hold no hidden card, and
the tournament page shows every bot with its Elo and interval."""

from __future__ import annotations

import json
from typing import Any

import pytest

import games
from tests.web.conftest import OwnServerTournament, drawn_move, save_screenshot
from tests.web.expected import (
    PAGE_FACTS,
    PAGE_PRIVATE,
    board_facts,
    normalise,
    observation,
    private_facts,
)
from tests.web.test_http import _replay
from tournament.report import report_data
from tournament.store import Store
from web.showcase import GAMES, Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def wait_for_move(page: Any, move: int) -> None:
    page.wait_for_selector(f'#board[data-move="{move}"]', timeout=15_000)


def replay_state(game: str, replay: Any, move: int) -> Any:
    state = games.get(game).new_state(replay.players, replay.seed, dict(replay.options))
    for recorded in replay.actions[:move]:
        state.apply(state.legal_actions()[recorded.action_index])
    return state


@pytest.mark.parametrize("game", list(GAMES))
def test_finished_match_draws_the_recorded_state(showcase: Showcase, page: Any, game: str) -> None:
    match_id = showcase.finished[game]
    replay = showcase.server.run(_replay(showcase, match_id))
    last = len(replay.actions)
    middle = last // 2
    page.goto(f"{showcase.url}/match/{match_id}#move={middle}")
    wait_for_move(page, middle)
    steps = [
        ("ArrowRight", middle + 1),
        ("ArrowRight", middle + 2),
        ("ArrowLeft", middle + 1),
        ("Home", 0),
        ("End", last),
    ]
    checks = [middle]
    for key, move in steps:
        page.keyboard.press(key)
        wait_for_move(page, move)
        if move in (middle + 1, 0, last):
            checks.append(move)
            expected = board_facts(game, observation(game, replay_state(game, replay, move), None))
            drawn = normalise(page.evaluate(PAGE_FACTS[game]))
            assert drawn == normalise(expected), f"{game} move {move}"
    assert page.evaluate("location.hash") == f"#move={last}"
    # The final scores shown are the recorded result's.
    finals = page.eval_on_selector_all("td.final", "cells => cells.map(c => +c.dataset.finalScore)")
    assert finals == list(replay.result.scores)
    # The buttons and the slider move too.
    page.click("#first")
    wait_for_move(page, 0)
    page.click("#next")
    wait_for_move(page, 1)
    page.fill("#slider", str(middle))
    wait_for_move(page, middle)
    save_screenshot(page, f"{game}-public")

    # After the match: what seat 1 saw, then every seat's hidden cards at once.
    state = replay_state(game, replay, middle)
    page.select_option("#view", "seat-1")
    page.wait_for_selector('#board[data-view="seat-1"]')
    assert sorted(page.evaluate(PAGE_PRIVATE, 1)) == private_facts(
        game, observation(game, state, 1)
    )
    page.select_option("#view", "all")
    page.wait_for_selector('#board[data-view="all"]')
    for seat in range(replay.players):
        assert sorted(page.evaluate(PAGE_PRIVATE, seat)) == private_facts(
            game, observation(game, state, seat)
        ), f"{game} seat {seat}"
    save_screenshot(page, f"{game}-all-cards")


def test_a_bad_move_link_says_so(showcase: Showcase, page: Any) -> None:
    page.goto(f"{showcase.url}/match/{showcase.finished['sheep-showdown']}#move=9999")
    page.wait_for_selector("#notice:not([hidden])")
    assert "no move" in page.inner_text("#notice")
    wait_for_move(page, page.evaluate("() => window.sheepfold.frames.at(-1).move"))  # its end


def _a_tournament_game(showcase: Showcase) -> str:
    with Store(showcase.tournament_dbs[0]) as store:
        return store.games(store.tournament("showcase").id)[0].match_id


@pytest.mark.parametrize("where", ["match", "tournament game"])
def test_a_move_past_the_end_in_the_query_opens_at_the_end_as_in_the_hash(
    showcase: Showcase, page: Any, where: str
) -> None:
    """`#move=9999` opened a finished match at its end, saying there is no
    such move, while `?move=9999`, the same link in the other form, was a 400
    page: the query form now does as the hash form does. A move that is no
    number (`?move=abc`, `?move=-3`) is still a 400 page."""
    if where == "match":
        url = f"{showcase.url}/match/{showcase.finished['sheep-showdown']}"
    else:
        url = f"{showcase.url}/tournaments/0/showcase/match/{_a_tournament_game(showcase)}"
    # However many digits: `#move=` opened at the end past nine digits too.
    for past in ("9999", "123456789012"):
        answer = page.goto(f"{url}?move={past}")
        assert answer.status == 200
        page.wait_for_selector("#notice:not([hidden])")
        last = page.evaluate("() => window.sheepfold.frames.at(-1).move")
        assert page.inner_text("#notice") == (
            f'There is no move "{past}" in this match: its moves are 0 to {last}.'
        )
        wait_for_move(page, last)  # its end
    save_screenshot(page, f"query-move-past-the-end-{where.replace(' ', '-')}")
    # A move it holds, in the query, opens there and says nothing.
    page.goto(f"{url}?move=2")
    wait_for_move(page, 2)
    assert page.locator("#notice").is_hidden()
    for garbage in ("abc", "-3"):
        answer = page.goto(f"{url}?move={garbage}")
        assert answer.status == 400
        assert "move must be a whole number" in page.inner_text("body")


def test_play_steps_through_the_moves_and_pause_stops(showcase: Showcase, page: Any) -> None:
    page.goto(f"{showcase.url}/match/{showcase.finished['stubborn-sheep']}#move=0")
    wait_for_move(page, 0)
    page.select_option("#speed", "10")
    page.click("#play")
    page.wait_for_function("() => +document.getElementById('board').dataset.move >= 3")
    page.click("#play")  # pause
    assert page.inner_text("#play") == "play"
    paused = drawn_move(page)
    page.wait_for_timeout(400)
    assert page.get_attribute("#board", "data-move") == str(paused)


# Private fields of each game's observation: empty for a spectator.
PRIVATE_FIELDS = {
    "sheep-showdown": "own_flock",
    "sheep-n-sheep": "hand",
    "stubborn-sheep": "hand",
}


@pytest.mark.parametrize("game", list(GAMES))
def test_live_match_grows_and_holds_no_hidden_card(
    showcase: Showcase, page: Any, game: str
) -> None:
    players, seed = GAMES[game]
    match_id = showcase.start_live(game, players, seed + 200, delay=0.3)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_selector("#board[data-move]")
    first = int(page.get_attribute("#board", "data-move"))
    page.wait_for_function(
        f"() => +document.getElementById('board').dataset.move > {first}", timeout=15_000
    )
    save_screenshot(page, f"{game}-live")
    held = page.evaluate("JSON.stringify(window.sheepfold.frames)")
    frames = json.loads(held)
    assert frames and all("seats" not in frame for frame in frames)
    # What every seat holds now, from the server's own state: none of it on the page.
    live_state = showcase.server.server.registry.hosted(match_id).state
    for frame in frames:
        obs = frame["observation"]
        assert "seat" not in obs
        if game in PRIVATE_FIELDS:
            assert obs[PRIVATE_FIELDS[game]] == []
        if game == "sheep-and-garden":
            assert all(o["card"] == "" for o in obs["objectives"] if not o["face_up"])
    for seat in range(players):
        hidden = private_facts(game, observation(game, live_state, seat))
        if game == "stubborn-sheep":
            for card in hidden:
                assert f'"id":{card},"icons"' not in held, f"fence card {card} of seat {seat}"
        if game == "sheep-and-garden":
            for frame in frames:
                face_down = {
                    o["slot"] for o in frame["observation"]["objectives"] if not o["face_up"]
                }
                assert all(
                    o["card"] == ""
                    for o in frame["observation"]["objectives"]
                    if o["slot"] in face_down
                )
    assert page.locator("#private .hand-card").count() == 0
    assert page.is_hidden("#view-wrap")


def test_a_page_loaded_while_its_match_waited_says_running_once_moves_are_shown(
    showcase: Showcase, page: Any
) -> None:
    """A page whose match still waited when it was made, and whose stream
    opened only after moves were played, once kept saying "waiting" beside
    those moves: only a move seen after the stream's first snapshot counted.
    The page is made to boot as "waiting" on a match already playing."""
    # Slow bots: the page's first snapshot is read long before the next move.
    match_id = showcase.start_live("sheep-showdown", 2, 700, delay=2.0)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_function("() => +document.getElementById('board').dataset.move > 0")

    def booted_waiting(route: Any) -> None:
        html = route.fetch().text()
        assert '"status": "running"' in html or '"status":"running"' in html
        route.fulfill(
            body=html.replace('"status": "running"', '"status": "waiting"').replace(
                '"status":"running"', '"status":"waiting"'
            ),
            content_type="text/html",
        )

    page.route(f"**/match/{match_id}", booted_waiting)
    page.reload()
    page.wait_for_function("() => +document.getElementById('board').dataset.move > 0")
    shown = page.evaluate(
        "() => [window.sheepfold.status, document.body.dataset.status,"
        " +document.getElementById('board').dataset.frames]"
    )
    assert shown == ["running", "running", 1], shown


def test_tournament_page_shows_every_bot_with_elo_and_interval(
    showcase: Showcase, page: Any
) -> None:
    db = showcase.tournament_dbs[0]
    with Store(db) as store:
        record = store.tournament("showcase")
        stored = store.games(record.id)
    expected = report_data(record, stored, samples=200)
    page.goto(f"{showcase.url}/tournaments/0/showcase")
    page.wait_for_selector("table.standings")
    for row in expected["standings"]:
        bot = row["bot"]
        line = page.locator(f'table.standings tr[data-bot="{bot}"]')
        assert float(line.get_attribute("data-elo")) == row["elo"]
        assert float(line.get_attribute("data-elo-low")) == row["elo_low"]
        assert float(line.get_attribute("data-elo-high")) == row["elo_high"]
        plot = page.locator(f'svg.plot g.interval[data-bot="{bot}"]')
        assert float(plot.get_attribute("data-low")) == row["elo_low"]
        assert float(plot.get_attribute("data-high")) == row["elo_high"]
    heat = page.locator("table.heat td[data-score]")
    assert heat.count() == len(expected["standings"]) * (len(expected["standings"]) - 1)
    assert page.locator("table.games tr[data-match-id]").count() == len(stored)
    save_screenshot(page, "tournament")
    # A game of the list opens as a replay.
    page.locator("table.games tr[data-match-id] a").first.click()
    page.wait_for_selector("#board[data-move]")
    assert int(page.get_attribute("#board", "data-frames")) > 1


def test_a_game_of_a_tournament_on_its_own_server_replays(
    own_server_tournament: OwnServerTournament, page: Any
) -> None:
    """Its record comes from the tournament database: the viewer's server never
    saw the match. The last move drawn is the engine's and the final scores are
    the tournament's stored result."""
    viewer = own_server_tournament.viewer
    with Store(own_server_tournament.database) as store:
        played = store.games(store.tournament(own_server_tournament.name).id)
    page.goto(f"{viewer.url}/tournaments/0/{own_server_tournament.name}")
    link = page.locator("table.games tr[data-match-id] a").first
    match_id = link.inner_text()
    game = next(g for g in played if g.match_id == match_id)
    with Store(own_server_tournament.database) as store:
        replay = store.replay(match_id)
    link.click()
    page.wait_for_selector("#board[data-move]")
    last = len(replay.actions)
    assert int(page.get_attribute("#board", "data-frames")) == last + 1
    page.keyboard.press("End")
    wait_for_move(page, last)
    state = replay_state("sheep-showdown", replay, last)
    expected = board_facts("sheep-showdown", observation("sheep-showdown", state, None))
    assert normalise(page.evaluate(PAGE_FACTS["sheep-showdown"])) == normalise(expected)
    finals = page.eval_on_selector_all("td.final", "cells => cells.map(c => +c.dataset.finalScore)")
    assert finals == [seat.score for seat in game.seats]


# Each event of the log that one seat alone saw: where its move number and its
# first words start, in CSS px.
PRIVATE_EVENTS = """() => [...document.querySelectorAll('#log li.private')].map((li) => {
  const words = document.createRange();
  words.selectNodeContents(li.childNodes[2]);
  const first = words.getClientRects()[0];
  const number = li.querySelector('.mv').getBoundingClientRect();
  return { text: li.textContent, number: [number.left, number.top],
           words: [first.left, first.top] };
})"""


def test_an_event_one_seat_saw_reads_as_one_line_of_the_log(showcase: Showcase, page: Any) -> None:
    """Such an event (class "private") took the flex layout of the seats'
    private parts under the board, which share the class: its move number,
    its words and "seat 2 only" stood on three lines 14 px apart."""
    game = "sheep-n-sheep"
    match_id = showcase.finished[game]
    move = len(showcase.server.run(_replay(showcase, match_id)).actions) // 2
    page.goto(f"{showcase.url}/match/{match_id}#move={move}")
    wait_for_move(page, move)
    page.select_option("#view", "all")
    page.wait_for_selector("#log li.private")
    events = page.evaluate(PRIVATE_EVENTS)
    save_screenshot(page, "private-events")
    assert events
    for event in events:
        assert abs(event["number"][1] - event["words"][1]) < 4, event
        assert event["words"][0] > event["number"][0], event
