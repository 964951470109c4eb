"""A running tournament's "Now playing": the games its runner is playing now
(tournament.store's `games_in_play`), each with its seats and a link to its
live page on the viewer's game server. A game the viewer's server does not
host (played on a Ray node, or on another server than the one the viewer
reads) is listed without a link, saying so. Before, a running tournament's
page listed only finished games: a spectator could not find the live ones."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from urllib.parse import quote

from tournament.html_text import attribute, escape, name
from tournament.store_records import InPlay
from web.state import Hosting, State

__all__ = ["hosted_matches", "now_playing_html"]


async def hosted_matches(state: State, playing: Sequence[InPlay]) -> dict[str, Hosting]:
    """Where each match of `playing` played in the runner's own process (not
    on a Ray node) is: on the viewer's game server, on another, or gone from
    the viewer's (a server restarted without a database forgets its matches).
    Each match is asked of the server once every 10 s (State.hosting_of), not
    on every poll: a page polled every 3 s by many spectators of a 50-game
    tournament asked 50 GetMatch a poll. ListMatches cannot answer for them
    all in one call: it takes no match ids, a status filter misses a game
    just started or just over, a busy server's newest page may hold other
    matches, and a server with private replays lists its matches only for its
    admin token, while GetMatch answers anyone."""
    asked = [game.match_id for game in playing if not game.node]
    found = await asyncio.gather(*(state.hosting_of(match_id) for match_id in asked))
    return dict(zip(asked, found, strict=True))


def now_playing_html(playing: Sequence[InPlay], hosted: Mapping[str, Hosting]) -> str:
    """The section (empty when no game is in play): each game's key, its seats
    and its live page's link, or where it plays when the viewer cannot show it.
    A game gone from the viewer's game server is left out: its runner still
    lists it, but no one plays it there any more, and its link led to a page
    saying only "no match". The match's cell keeps the key as its title: a
    phone leaves the key's column out (style.css), as the report's games do."""
    playing = [game for game in playing if hosted.get(game.match_id) != "gone"]
    if not playing:
        return ""
    rows = []
    for game in playing:
        # Each name with the comma after it, which a phone otherwise put on a
        # line of its own (style.css).
        last = len(game.seats) - 1
        seats = " ".join(
            f'<span class="seat">{name(bot)}{"," if seat < last else ""}</span>'
            for seat, bot in enumerate(game.seats)
        )
        match = escape(game.match_id)
        if hosted.get(game.match_id) == "here":
            href = f"/match/{quote(game.match_id, safe='')}"
            match = f'<a class="live-link" href="{escape(href)}">{match}</a>'
        elif game.node:
            match += f' <span class="muted">(on Ray: {escape(game.node)})</span>'
        else:
            match += ' <span class="muted">(not on this viewer\'s game server)</span>'
        rows.append(
            f'<tr data-match-id="{attribute(game.match_id)}"><td>{name(game.key)}</td>'
            f'<td title="{escape("game " + game.key)}">{match}</td><td>{seats}</td></tr>'
        )
    return (
        '<section id="now-playing" class="now-playing"><h2>Now playing</h2>'
        '<table class="now-playing-games"><thead><tr><th>game</th><th>match</th>'
        f"<th>seats</th></tr></thead><tbody>{''.join(rows)}</tbody></table></section>"
    )
