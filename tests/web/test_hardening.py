"""The viewer's answers are safe to put on a network: security headers, no
internal paths, the static files' types and charsets, links to oddly named
tournaments, and page data that cannot end its script element."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.web.answer_headers import headers_of
from tests.web.test_http import get
from tournament.store import Store
from web.app import WebConfig, start_web
from web.pages import _layout
from web.showcase import Showcase, start_showcase

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    "path", ["/", "/static/style.css", "/api/matches", "/tournaments", "/static/none.js"]
)
def test_every_answer_has_the_security_headers_and_hides_the_software(
    showcase: Showcase, path: str
) -> None:
    _, headers, _ = headers_of(showcase.url + path)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get("Server", "")


def test_the_live_streams_have_the_security_headers_too(showcase: Showcase) -> None:
    match_id = showcase.finished["sheep-showdown"]
    _, headers, _ = headers_of(f"{showcase.url}/api/match/{match_id}/live")
    assert headers["X-Frame-Options"] == "DENY" and headers["Server"] == "sheepfold"


def test_a_missing_static_file_is_the_404_page(showcase: Showcase) -> None:
    status, headers, body = headers_of(f"{showcase.url}/static/no-such-file.js")
    assert status == 404 and "text/html" in headers["Content-Type"]
    assert b"error-page" in body and b"no-such-file.js" in body
    status, _, _ = headers_of(f"{showcase.url}/static/%2E%2E/app.py")
    assert status == 404
    status, headers, _ = headers_of(f"{showcase.url}/static/match.js")
    assert status == 200 and "javascript" in headers["Content-Type"]
    for odd in ("a%00b", "a" * 300):  # a NUL byte, a name too long: no 500, no traceback
        status, _, body = headers_of(f"{showcase.url}/static/{odd}")
        assert status == 404 and b"error-page" in body


def test_a_file_that_is_no_tournament_db_now_is_a_400_page_without_its_folder(
    tmp_path: Path,
) -> None:
    """A tournament database's pages name the file alone, never its folder,
    and say what is wrong with it when it is no tournament database any more
    (the viewer starts only with tournament databases; this one was replaced
    since)."""
    database, notes = tmp_path / "tournament.db", tmp_path / "notes.txt"
    Store(database).close()
    Store(notes).close()
    viewer = start_showcase(games=(), tournament_dbs=[database, notes])
    try:
        notes.write_text("this is not a tournament database\n")
        folder = str(tmp_path)
        status, _, body = get(f"{viewer.url}/tournaments/1/anything")
        assert status == 400 and "notes.txt" in body and folder not in body
        status, _, body = get(f"{viewer.url}/tournaments")
        assert status == 200 and "notes.txt is not a SQLite database" in body
        assert folder not in body
        status, _, body = get(f"{viewer.url}/tournaments/0/no-such-tournament")
        assert status == 404 and "tournament.db" in body and folder not in body
        status, _, body = get(f"{viewer.url}/tournaments/7/anything")
        assert status == 404 and "no tournament database number 7" in body
    finally:
        viewer.stop()


def test_a_tournament_named_with_url_characters_links_to_itself(
    showcase: Showcase, tmp_path: Path
) -> None:
    copy = tmp_path / "odd.db"
    shutil.copy(showcase.tournament_dbs[0], copy)
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE tournaments SET name = ?", ("a?b#c d/e",))
    connection.close()
    viewer = showcase.server.run(
        start_web(WebConfig(showcase.server.address, (copy,)), "127.0.0.1", 0)
    )
    try:
        base = f"http://127.0.0.1:{viewer.port}"
        status, _, body = get(f"{base}/tournaments")
        assert status == 200 and 'href="/tournaments/0/a%3Fb%23c%20d%2Fe"' in body
        status, _, body = get(f"{base}/tournaments/0/a%3Fb%23c%20d%2Fe")
        assert status == 200 and "a?b#c d/e" in body
        assert '"fragment_url": "/tournaments/0/a%3Fb%23c%20d%2Fe/fragment"' in body
        assert 'href="/tournaments/0/a%3Fb%23c%20d%2Fe/match/' in body
    finally:
        showcase.server.run(viewer.stop())


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/static/match.js", "text/javascript; charset=utf-8"),
        ("/static/games/sheep-showdown.js", "text/javascript; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/static/favicon.svg", "image/svg+xml; charset=utf-8"),
    ],
)
def test_static_text_files_say_their_charset(showcase: Showcase, path: str, kind: str) -> None:
    """They hold UTF-8 (glyphs drawn on the boards): a type without a charset
    left a browser showing the file on its own to guess."""
    status, headers, body = headers_of(showcase.url + path)
    assert status == 200 and body
    assert headers["Content-Type"] == kind
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_page_data_holds_no_markup_that_could_end_its_script_element() -> None:
    """Data embedded in a page's `<script type="application/json">` is escaped so
    that no "<" is left: "</script>" would end the element early, and "<!--<script"
    would make the next "</script>" not end it."""
    hostile = "a</script><script>alert(1)</script><!--<script>b"
    html = _layout("t", "", "match.js", {"reason": hostile})
    start = html.index('<script id="boot" type="application/json">') + len(
        '<script id="boot" type="application/json">'
    )
    payload = html[start : html.index("</script>", start)]
    assert "<" not in payload
    assert json.loads(payload) == {"reason": hostile}
