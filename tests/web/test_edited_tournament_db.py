"""A tournament database edited by hand (or written by another program) may
hold anything in any column, numbers included (SQLite keeps text in an
INTEGER column): the viewer shows it as text, never as markup."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from tests.web.test_adversarial import _viewer_of_a_copy
from tests.web.test_http import get
from tournament import html_text
from web.showcase import Showcase

pytestmark = pytest.mark.e2e

# A refresh sends the visitor elsewhere: the Content-Security-Policy does not stop it.
REDIRECT = '<meta http-equiv="refresh" content="0;url=https://example.com/">'
MARKUP = "<b id=injected>2</b>"


@contextlib.contextmanager
def _edited(
    showcase: Showcase, tmp_path: Path, *edits: str | tuple[str, tuple[str, ...]]
) -> Iterator[str]:
    """The address of a viewer of a copy of the showcase's tournament database
    with `edits` made (each an SQL statement, or one and its parameters)."""
    copy = tmp_path / "edited.db"
    _, viewer = _viewer_of_a_copy(showcase, copy)
    try:
        with sqlite3.connect(copy) as connection:
            for edit in edits:
                sql, parameters = (edit, ()) if isinstance(edit, str) else edit
                connection.execute(sql, parameters)
        connection.close()
        yield f"http://127.0.0.1:{viewer.port}"
    finally:
        showcase.server.run(viewer.stop())


def test_the_tournaments_list_shows_a_hand_edited_count_as_text(
    showcase: Showcase, tmp_path: Path
) -> None:
    """The list page set a tournament's player and game counts into its HTML
    unescaped: a count edited into markup redirected every visitor. (The
    database's read now refuses such a count; the page escapes it as well.)"""
    with _edited(
        showcase,
        tmp_path,
        ("UPDATE tournaments SET players = ?, scheduled = ?", (MARKUP, REDIRECT)),
    ) as base:
        status, _, body = get(f"{base}/tournaments")
        assert status == 200, body[:500]
        assert "<meta http-equiv" not in body and "<b id=injected>" not in body, body
        # Said beside the database (a count must be a whole number), as text.
        assert "its players is not a whole number" in body, body
        assert "&lt;b id=injected&gt;2&lt;/b&gt;" in body, body


def test_the_tournaments_list_names_a_game_edited_into_a_blob(
    showcase: Showcase, tmp_path: Path
) -> None:
    """The game was read as it was stored: a blob (a TEXT column keeps one as
    it is) made the list page a 500, its HTML escape given bytes."""
    with _edited(showcase, tmp_path, "UPDATE tournaments SET game = x'00ff'") as base:
        wanted = "its game is not a text (edited by hand?), it holds b'\\x00\\xff'"
        status, _, body = get(f"{base}/tournaments")
        assert status == 200 and wanted in unescape(body), body[:800]
        status, _, body = get(f"{base}/tournaments/0/showcase")
        assert status == 400 and wanted in unescape(body), body[:800]


def test_a_hand_edited_count_is_a_400_page_naming_it(showcase: Showcase, tmp_path: Path) -> None:
    """A count edited into text was a 500 ("the viewer failed on this request")
    with a ValueError traceback in the viewer's log; the list page listed the
    tournament as if nothing were wrong."""
    with _edited(showcase, tmp_path, ("UPDATE tournaments SET scheduled = ?", (REDIRECT,))) as base:
        wanted = "its scheduled is not a whole number (edited by hand?)"
        for path in ("/tournaments/0/showcase", "/tournaments/0/showcase/fragment"):
            status, _, body = get(f"{base}{path}")
            assert status == 400, (path, status, body[:800])
            assert wanted in unescape(body), body
            assert "<meta http-equiv" not in body and str(tmp_path) not in body, body
        status, _, body = get(f"{base}/tournaments")
        assert status == 200 and wanted in unescape(body), body


def test_a_hand_edited_score_is_a_400_page_naming_it(showcase: Showcase, tmp_path: Path) -> None:
    """A seat's score edited into text was a 500 with a TypeError traceback in
    the viewer's log."""
    with _edited(
        showcase, tmp_path, ("UPDATE game_seats SET score = ? WHERE rowid = 1", (MARKUP,))
    ) as base:
        status, _, body = get(f"{base}/tournaments/0/showcase")
        assert status == 400, (status, body[:800])
        assert "its score is not a finite number (edited by hand?)" in unescape(body), body
        assert "<b id=injected>" not in body and str(tmp_path) not in body, body


@pytest.mark.parametrize(
    ("edit", "wanted"),
    [
        (
            "UPDATE tournaments SET updated_at = 'soon'",
            "its updated_at is not a time in seconds since 1970 (edited by hand?), it holds 'soon'",
        ),
        (
            "UPDATE schema_version SET version = 'four'",
            "is not one whole number (edited by hand?): its schema_version table holds 'four'",
        ),
    ],
)
def test_a_hand_edited_time_or_schema_version_is_said_on_the_pages(
    showcase: Showcase, tmp_path: Path, edit: str, wanted: str
) -> None:
    """A schema version edited into text was a 500 with a ValueError traceback
    in the viewer's log; a time edited into text was read on as it was."""
    with _edited(showcase, tmp_path, edit) as base:
        status, _, body = get(f"{base}/tournaments/0/showcase")
        assert status == 400, (status, body[:800])
        assert wanted in unescape(body) and str(tmp_path) not in body, body
        status, _, body = get(f"{base}/tournaments")
        assert status == 200 and wanted in unescape(body), body


def test_a_hand_edited_name_cannot_turn_the_pages_words_round(
    showcase: Showcase, tmp_path: Path
) -> None:
    """A tournament or bot name edited to hold U+202E (right-to-left override)
    was set into the tournaments list and the report as it was: everything
    after it on its line read backwards ("deyalp semag 01 fo 0 ,sreyalp 5").
    A control or bidi character is shown as its escape, as the match page
    shows a bot's name."""
    with _edited(
        showcase,
        tmp_path,
        "UPDATE tournaments SET name = 'show\u202ecase\u2066'",
        "UPDATE game_seats SET bot = 'gr\u202eeedy' WHERE bot = 'greedy'",
        "UPDATE tournaments SET config_json = replace(config_json,"
        ' \'"name": "greedy"\', \'"name": "gr\u202eeedy"\')',
    ) as base:
        for path in ("/tournaments", "/tournaments/0/show%E2%80%AEcase%E2%81%A6"):
            status, _, body = get(base + path)
            assert status == 200, body[:500]
            text = unescape(body)
            shown = re.sub(r"<[^>]*>", "", text)  # what a reader sees: no attributes
            assert "\u202e" not in shown and "\u2066" not in shown, path
            assert "show\\u202ecase\\u2066" in shown, path
        assert "gr\\u202eeedy" in shown
        # The attributes the page's script matches names by keep the name as
        # stored, as the games' data-bots do (JSON): escaped there too, a click
        # on the bot's name listed none of its games.
        assert 'data-bot="gr\u202eeedy"' in text and 'data-row="gr\u202eeedy"' in text


def test_a_tab_newline_or_return_is_written_as_its_escape_as_the_match_page_does() -> None:
    """html_text.escape kept them (HTML shows each as a space), where the
    match page's `visible()` writes them as escapes: a name read "a b" in
    the report and "a\\u0009b" on its game's page. In a quoted attribute a
    newline split a title's tooltip into lines."""
    assert html_text.escape("a\tb\nc\rd") == "a\\u0009b\\u000ac\\u000dd"
    assert html_text.escape('x"\n', quote=True) == "x&quot;\\u000a"
    # Script-read attributes keep the name as stored (matched against JSON).
    assert html_text.attribute("a\tb") == "a\tb"
