"""What a page or API request asks for in its query, checked: a 400 with the
reason for anything else."""

from __future__ import annotations

from aiohttp import web

import games
from web.frames import PUBLIC, ViewError, check_view
from web.responses import fail


def move_query(request: web.Request, moves: int) -> int | None:
    raw = request.query.get("move")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise fail(400, f"move must be a whole number from 0 to {moves}, not {raw[:40]!r}")
    if int(raw) > moves:
        raise fail(400, f"this match has moves 0 to {moves}; there is no move {raw}")
    return int(raw)


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
