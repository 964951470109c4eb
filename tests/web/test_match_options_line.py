"""A match page names the game options the match is played with, under its
title: the board drew nothing of Stubborn Sheep's bonus actions, nor of its wolf
before the wolf first moved, and a quick Sheep Showdown looked like the full
game until its header's "round 1 of 1"; only the page's boot JSON held them."""

from __future__ import annotations

from typing import Any

from web.pages import match_page


def _boot(**changes: Any) -> dict[str, Any]:
    return {
        "match_id": "m1",
        "game": "stubborn-sheep",
        "title": "Stubborn Sheep",
        "players": 3,
        "status": "running",
        "moves": 0,
        **changes,
    }


def _body(page: str) -> str:
    """The page without its boot JSON, which held the options all along."""
    start = page.index('<script id="boot"')
    return page[:start] + page[page.index("</script>", start) :]


def test_the_options_are_named_under_the_title_sorted_by_name() -> None:
    page = _body(match_page(_boot(options={"wolf": "false", "bonus_actions": "true"})))
    line = '<p id="options" class="match-options">options: bonus_actions=true, wolf=false</p>'
    assert line in page
    assert page.index('class="match-head"') < page.index(line) < page.index('id="board"')


def test_a_game_without_options_gets_no_line_and_values_are_escaped() -> None:
    assert 'id="options"' not in match_page(_boot(game="sheep-n-sheep", options={}))
    assert 'id="options"' not in match_page(_boot(game="sheep-n-sheep"))
    page = _body(match_page(_boot(options={"rounds": "<b>1</b>"})))
    assert "options: rounds=&lt;b&gt;1&lt;/b&gt;</p>" in page
