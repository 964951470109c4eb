"""What the boards show beyond the engine's facts, in headless Chromium: every
seat in a colour of its own, the final position in sight once a match is over,
and who is deciding named as the engine names it."""

from __future__ import annotations

from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from tests.web.conftest import save_screenshot
from tests.web.test_browser import replay_state, wait_for_move
from tests.web.test_http import _replay
from web.showcase import GAMES, Showcase

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_six_seats_are_six_colours(showcase: Showcase, page: Any) -> None:
    """Sheep Showdown seats six: seat 5's dog and dot were seat 0's red."""
    bots = [RandomBot(70 + seat) for seat in range(6)]
    # Played here, not with play_finished: the showcase's own match stays the one shown.
    outcome = showcase.server.run(
        play_match(showcase.server.address, "sheep-showdown", bots, seed=7)
    )
    page.goto(f"{showcase.url}/match/{outcome.match_id}#move=6")
    wait_for_move(page, 6)  # every seat has placed its dog
    dogs = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board g.dog')].map(
             (g) => [g.dataset.owner, g.querySelector('circle:not([stroke-dasharray])')
               .getAttribute('fill')]))"""
    )
    assert sorted(dogs) == [str(seat) for seat in range(6)]
    assert len(set(dogs.values())) == 6, f"dogs share a colour: {dogs}"
    dots = page.eval_on_selector_all(
        "#scores tbody tr .dot", "dots => dots.map(d => getComputedStyle(d).backgroundColor)"
    )
    assert len(dots) == 6 and len(set(dots)) == 6, f"seats share a colour: {dots}"
    save_screenshot(page, "sheep-showdown-six-seats")
    page.goto(f"{showcase.url}/?game=sheep-showdown")
    row = page.locator(f'tr[data-match-id="{outcome.match_id}"] .score .dot')
    row.first.wait_for()
    listed = row.evaluate_all("dots => dots.map(d => getComputedStyle(d).backgroundColor)")
    assert len(set(listed)) == 6, f"the list gives seats one colour: {listed}"


# Each dog that is out: its number's text, whether it is the topmost thing at
# its number's centre, and how opaque it is drawn (its own and its groups').
OUT_DOGS = """() => [...document.querySelectorAll('#board g.dog[data-out="true"]')].map((g) => {
  const number = g.querySelector('.dog-number'), r = number.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  let opacity = 1;
  for (let e = number; e && e.id !== 'board'; e = e.parentElement) {
    opacity *= +getComputedStyle(e).opacity;
  }
  return { dog: g.dataset.dog, text: number.textContent, top: top === number, opacity };
})"""


def test_a_sheep_showdown_dog_that_is_out_keeps_its_number_readable(
    showcase: Showcase, page: Any
) -> None:
    """A dog out of the round was drawn at 45% opacity with a "✕" over its
    number: at the end of a six-seat match every dog was out, six faded dogs
    whose colours one could not tell apart and whose numbers were crossed
    out, so no one could say whose dog stood where."""
    bots = [RandomBot(80 + seat) for seat in range(6)]
    outcome = showcase.server.run(
        play_match(showcase.server.address, "sheep-showdown", bots, seed=8)
    )
    last = len(showcase.server.run(_replay(showcase, outcome.match_id)).actions)
    page.goto(f"{showcase.url}/match/{outcome.match_id}#move={last}")
    wait_for_move(page, last)
    dogs = page.evaluate(OUT_DOGS)
    assert dogs, "no dog is out at the end of the match"
    for dog in dogs:
        assert dog["text"] == dog["dog"] and dog["top"], f"dog {dog} covered"
        assert dog["opacity"] == 1, f"dog {dog['dog']}'s number faded: {dog}"
    save_screenshot(page, "sheep-showdown-dogs-out")


def test_the_final_position_of_sheep_showdown_stays_in_sight(showcase: Showcase, page: Any) -> None:
    """A "game over" box once sat over the middle of the grid at the last move,
    hiding the cards (and any dog) under it."""
    match_id = showcase.finished["sheep-showdown"]
    last = len(showcase.server.run(_replay(showcase, match_id)).actions)
    page.goto(f"{showcase.url}/match/{match_id}#move={last}")
    wait_for_move(page, last)
    hidden = page.evaluate(
        """() => [...document.querySelectorAll('#board g.cell, #board g.dog')].flatMap((g) => {
             const r = g.getBoundingClientRect();
             const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
             // A dog stands on its cell's card: either is the cell seen.
             return hit && hit.closest('#board g.cell, #board g.dog') ? []
               : [`${g.getAttribute('class')} ${g.dataset.row},${g.dataset.col}`];
           })"""
    )
    assert hidden == [], f"covered at the last move: {hidden}"
    assert "game over" in page.text_content("#board .board-title")
    save_screenshot(page, "sheep-showdown-game-over")


def test_stubborn_sheep_names_the_seat_orienting_its_fences(showcase: Showcase, page: Any) -> None:
    """At set-up each seat orients its own two fences while the turn is still
    seat 0's: the board said "seat 0: orient" while seat 1 or 2 decided."""
    match_id = showcase.finished["stubborn-sheep"]
    replay = showcase.server.run(_replay(showcase, match_id))
    differs = [
        move
        for move in range(len(replay.actions))
        if (state := replay_state("stubborn-sheep", replay, move)).to_move is not None
        and state.to_move != state.current
    ]
    assert differs, "the showcase's match has no set-up decision by another seat"
    page.goto(f"{showcase.url}/match/{match_id}#move={differs[0]}")
    for move in differs[:4]:
        page.evaluate(f"location.hash = '#move={move}'")
        wait_for_move(page, move)
        to_move = replay_state("stubborn-sheep", replay, move).to_move
        said = page.eval_on_selector_all(
            "#board text",
            "texts => texts.map(t => t.textContent).filter(t => /^seat \\d+: /.test(t))",
        )
        assert said == [f"seat {to_move}: keeps or turns a fence"], f"move {move}: {said}"
        assert page.get_attribute("[data-to-move]", "data-to-move") == str(to_move)
    save_screenshot(page, "stubborn-sheep-orient")


def test_the_live_clock_names_the_seat_to_move_as_soon_as_the_move_is_drawn(
    showcase: Showcase, page: Any
) -> None:
    """The clock ticked on its own every 0.2 s: for up to that long after each
    move it still said the seat before was deciding, beside "seat N to move"."""
    players, seed = GAMES["sheep-n-sheep"]
    match_id = showcase.start_live("sheep-n-sheep", players, seed + 300, delay=0.15)
    page.goto(f"{showcase.url}/match/{match_id}")
    page.wait_for_selector("#board[data-move]")
    # What the page says as each move is drawn, before any later tick of the clock.
    page.evaluate(
        """() => {
          window.seen = [];
          new MutationObserver(() => {
            const m = window.sheepfold, frame = m.frames[m.index];
            const clock = document.getElementById('clock').textContent;
            window.seen.push([frame.move, frame.to_move, clock]);
          }).observe(document.getElementById('board'), { attributeFilter: ['data-move'] });
        }"""
    )
    page.wait_for_function("() => window.seen.length >= 6", timeout=20_000)
    seen = page.evaluate("window.seen")
    wrong = [s for s in seen if s[1] is not None and not s[2].startswith(f"seat {s[1]} ")]
    assert wrong == [], f"the clock named another seat than the one to move: {wrong}"
    save_screenshot(page, "sheep-n-sheep-live-clock")
