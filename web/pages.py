"""The HTML shells of the pages: the JavaScript modules fill them in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.options import options_line
from games.words import count
from tournament.html_text import attribute, escape
from tournament.report_html import STYLE as REPORT_STYLE

# The top bar's sheep, drawn in the page from the tab icon's own file. Shown
# as an <img> of /static/favicon.svg, it was a second fetch of the file the
# tab icon fetches, on every page load the browser's cache did not answer.
_MARK = (
    (Path(__file__).parent / "static" / "favicon.svg")
    .read_text(encoding="utf-8")
    .strip()
    .replace("<svg ", '<svg width="22" height="22" aria-hidden="true" focusable="false" ', 1)
)


def _layout(title: str, body: str, script: str = "", data: dict[str, Any] | None = None) -> str:
    boot = ""
    if data is not None:
        # JSON in a script element: with no "<" at all, neither "</script" nor
        # "<!--<script" (which makes the next "</script>" not end it) can occur.
        payload = json.dumps(data).replace("<", "\\u003c")
        boot = f'<script id="boot" type="application/json">{payload}</script>'
    module = f'<script type="module" src="/static/{script}"></script>' if script else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · Sheepfold</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<style>{REPORT_STYLE}</style>
</head><body>
<header class="top"><a class="brand" href="/">
{_MARK} Sheepfold</a>
<nav><a href="/">matches</a><a href="/tournaments">tournaments</a></nav></header>
<main>{body}</main>
{boot}{module}
</body></html>
"""


# The matches list's columns (one table, live and finished matches under one
# header, so their columns line up): each heading and its cells' class.
MATCH_COLUMNS = (
    ("Match", "id"),
    ("Game", "game"),
    ("Players", "players"),
    ("Status", "status"),
    ("Moves", "moves"),
    ("Result", "result"),
    ("Started", "when"),
)


def _section(title: str) -> str:
    return (
        f'<tbody class="section"><tr><th colspan="{len(MATCH_COLUMNS)}" scope="colgroup">'
        f"<h2>{escape(title)}</h2></th></tr></tbody>"
    )


def matches_page(games: list[dict[str, str]], limit: int) -> str:
    heads = "".join(
        f'<th class="{name}" scope="col">{escape(title)}</th>' for title, name in MATCH_COLUMNS
    )
    options = "".join(
        f'<option value="{escape(g["name"])}">{escape(g["title"])}</option>' for g in games
    )
    body = f"""<h1>Matches</h1>
<div class="filters"><label>game <select id="game-filter"><option value="">every game</option>
{options}</select></label> <span id="list-status" class="muted"></span>
<span id="list-news" class="sr-only" role="status"></span></div>
<p id="capped" class="notice" hidden></p>
<div class="table-scroll"><table class="matches" tabindex="-1">
<thead><tr>{heads}</tr></thead>
{_section("Live")}<tbody id="live"></tbody>
{_section("Finished")}<tbody id="finished"></tbody>
</table></div>
<nav id="pager" class="pager" aria-label="pages of matches" hidden>
<a id="newer" href="/">← newer</a> <span id="page-number" class="muted"></span>
<a id="older" href="/">older →</a></nav>"""
    return _layout("Matches", body, "matches.js", {"games": games, "limit": limit})


def match_page(boot: dict[str, Any]) -> str:
    title = f"{boot['title']} · {boot['match_id']}"
    # The options played, which the board alone does not always show (Stubborn
    # Sheep's bonus actions, its wolf before it first moves); none for a game
    # without options.
    played = options_line(boot.get("options") or {})
    options = (
        f'<p id="options" class="match-options">options: {escape(played)}</p>\n' if played else ""
    )
    body = f"""<div class="match-head"><h1>{escape(boot["title"])}</h1>
<span class="match-id">{escape(boot["match_id"])}</span>
<span id="status" class="badge"></span></div>
{options}<p id="seat-bots" class="seat-bots" hidden></p>
<div id="notice" class="notice" hidden></div>
<div class="match">
  <section class="board-wrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" role="img"
  aria-label="board"></svg>
  <div id="private" class="private"></div>
  <details id="board-words" class="board-words"><summary>The board in words</summary>
  <div id="board-words-list"></div></details></section>
  <aside class="side">
    <div id="turn" class="turn"></div>
    <div id="clock" class="clock"></div>
    <table id="scores" class="scores"></table>
    <div id="final" class="final"></div>
    <h2 class="side-heading">Events</h2><ol id="log" class="log"></ol>
  </aside>
</div>
<div class="controls" id="controls">
  <button id="first" title="first move (Home)" aria-label="first move">|◀</button>
  <button id="prev" title="previous move (←)" aria-label="previous move">◀</button>
  <button id="play" title="play / pause (space)">play</button>
  <button id="next" title="next move (→)" aria-label="next move">▶</button>
  <button id="last" title="last move (End)" aria-label="last move">▶|</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
  <span id="move-label" class="move-label"></span>
  <label>speed <select id="speed"><option value="1">1 move/s</option>
  <option value="4" selected>4 moves/s</option><option value="10">10 moves/s</option>
  <option value="30">30 moves/s</option></select></label>
  <label id="view-wrap">view <select id="view"></select></label>
  <label class="follow" id="follow-wrap"><input type="checkbox" id="follow" checked>
  follow live</label>
</div>
<p id="announce" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></p>"""
    return _layout(title, body, "match.js", boot)


def tournaments_page(entries: list[dict[str, Any]]) -> str:
    rows = []
    for entry in entries:
        # A database that cannot be read, or a tournament in it edited by hand
        # into nonsense, is one line each: the others are listed all the same.
        problems = [entry["error"]] if entry.get("error") else entry.get("damaged", [])
        rows += [
            f"<li><code>{escape(entry['file'])}</code>: "
            f'<span class="error">{escape(why)}</span></li>'
            for why in problems
        ]
        for t in entry.get("tournaments", ()):
            # Its page's words (tournament.heartbeat.run_state): "running" while
            # its runner's heartbeat is fresh, "stopped since ..." or "finished".
            # An SPRT's schedule is its limit, not games to play: "20 of 60
            # games played" beside "finished" read as a run cut short.
            played = (
                f"{_count(t['played'], 'game')} played of an SPRT (at most "
                f"{escape(str(t['scheduled']))})"
                if t.get("sprt")
                else f"{escape(str(t['played']))} of {_count(t['scheduled'], 'game')} played"
            )
            rows.append(
                f'<li data-tournament="{attribute(t["name"])}"><a href="{escape(t["href"])}">'
                f"{escape(t['name'])}</a> · {escape(t['game'])}, {_count(t['players'], 'player')}, "
                f'<span class="played">{played}</span> '
                f"{_state_badge(t['state'], t['state_text'])} "
                f'<span class="muted">({escape(entry["file"])})</span></li>'
            )
    if not entries:
        rows.append(
            '<li class="muted">No tournament database given: start the viewer with '
            "<code>--tournament-db FILE</code>.</li>"
        )
    body = f'<h1>Tournaments</h1><ul class="tournaments">{"".join(rows)}</ul>'
    return _layout("Tournaments", body)


def _count(n: int, noun: str) -> str:
    # Escaped too: a database edited by hand may hold markup in a count's column.
    return escape(count(n, noun))


def _state_badge(word: str, text: str) -> str:
    """A tournament's state as the list and its page show it: the word in a
    badge, then since when a stopped one stopped."""
    since = text.removeprefix(word).strip()
    return (
        f'<span class="run-state" data-state="{escape(word)}">'
        f'<span class="badge {escape(word)}">{escape(word)}</span>'
        + (f' <span class="since">{escape(since)}</span>' if since else "")
        + "</span>"
    )


def tournament_page(title: str, fragment: str, boot: dict[str, Any]) -> str:
    # The report's own heading is its h2 (the report stands alone too): the
    # page's h1, for a screen reader's list of headings, which found none.
    # The report is no live region (each swap would be read out whole):
    # #report-news says what changed, and the report takes the focus when the
    # link holding it is gone from the new one (tournament.js).
    body = (
        f'<h1 class="sr-only">Tournament {escape(title)}</h1>'
        f'<p class="tournament-state">{_state_badge(boot["state"], boot["state_text"])}</p>'
        '<p id="report-news" class="sr-only" role="status" aria-live="polite"></p>'
        f'<div id="report" class="report-scroll" tabindex="-1" '
        f'data-state="{escape(boot["state"])}">'
        f"{fragment}</div>"
    )
    return _layout(title, body, "tournament.js", boot)


def error_page(status: int, message: str) -> str:
    reasons = {
        400: "Bad request",
        403: "Not shown",
        404: "Not found",
        405: "Method not allowed",
        409: "Not yet",
        414: "Address too long",
        431: "Headers too large",
        505: "HTTP version not supported",
        500: "Server error",
        502: "Game server unreachable",
        504: "Game server not answering",  # it took the connection, then said nothing
    }
    # The game server away or slow, or the viewer busy: the same request may be
    # answered a moment later, and the page asks it again by itself.
    again = status in (502, 503, 504)
    # The tab's title says what the page is, as its heading does: a bare "404"
    # was all a screen reader's list of tabs read.
    heading = f"{status} · {reasons.get(status, 'Error')}"
    body = (
        f'<div class="error-page" data-status="{status}"><h1>{escape(heading)}'
        f"</h1><p>{escape(message)}</p>"
        + ('<p id="again" class="muted"></p>' if again else "")
        + '<p><a href="/">back to the matches</a></p></div>'
    )
    return _layout(heading, body, "again.js" if again else "")
