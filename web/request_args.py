"""What a page or API request asks for in its query, checked: a 400 with the
reason for anything else."""

from __future__ import annotations

from aiohttp import web

import games
from web.frames import PUBLIC, ViewError, check_view
from web.responses import fail

# More digits than any link to a move has a reason to hold: a 400 says so.
MOVE_DIGITS = 40


def move_query(request: web.Request, moves: int) -> str | None:
    """The move `?move=` names, as its digits: a whole number, which may lie
    past the match's `moves`, however many digits it has (the page opens at
    its end and says so, as it does for `#move=N`: a link to move 9999 was a
    400 in one form and the end in the other); anything else is a 400. The
    page reads the digits as `#move=` gives them."""
    raw = request.query.get("move")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MOVE_DIGITS):
        raise fail(400, f"move must be a whole number from 0 to {moves}, not {raw[:40]!r}")
    return raw


def view_query(request: web.Request) -> str:
    try:
        return check_view(request.query.get("view", PUBLIC))
    except ViewError as error:
        raise fail(400, str(error)) from None


def game_query(request: web.Request) -> str:
    """The `game` filter: empty or a game's wire name (one cached list per game)."""
    game = request.query.get("game", "")
    if game and game not in games.names():
        raise fail(400, f"unknown game {game[:40]!r} (known: {', '.join(games.names())})")
    return game
