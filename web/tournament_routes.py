"""The tournament pages: the list of every tournament of the viewer's
databases, a tournament's report (and its fragment, polled while it runs), and
a tournament game's replay page and frames."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from aiohttp import web
from sheepfold.v1 import arena_pb2

import games
from server.peers import client_network
from tournament.heartbeat import RUNNING
from tournament.sprt_blocks import SprtPlan
from web import pages, tournaments
from web.gateway import GatewayError
from web.now_playing import hosted_matches, now_playing_html
from web.replays import frames_response, replayable
from web.reports import Report, tournament_url
from web.request_args import move_query, view_query
from web.responses import body_headers, fail, held_back_refusal, html
from web.shared_answers import PageAnswer, SharedAnswers
from web.state import STATE
from web.tournament_answers import FragmentAnswer

T = TypeVar("T")


def _database(request: web.Request) -> Path:
    dbs = request.app[STATE].config.tournament_dbs
    raw = request.match_info["db"]
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9) or int(raw) >= len(dbs):
        raise fail(404, f"no tournament database number {raw[:40]} (this viewer has {len(dbs)})")
    return dbs[int(raw)]


async def _gzipped(text: str) -> PageAnswer:
    plain = text.encode()
    return PageAnswer(plain, await asyncio.to_thread(gzip.compress, plain, 5))


def _page_response(request: web.Request, page: PageAnswer, **headers: str) -> web.Response:
    body, more = body_headers(request, page.plain, page.gzipped, "text/html; charset=utf-8")
    return web.Response(body=body, headers={**headers, **more})


async def _shared(
    request: web.Request, shared: SharedAnswers[Any, T], load: Callable[[], Awaitable[T]]
) -> T:
    """`shared`'s answer for the tournament the request names; a database
    that is none, or no such tournament in it, a 400 or 404 of its own (an
    HTTP answer is one request's: raised to every request sharing the load,
    it was sent once)."""
    _database(request)  # a number of no database: a 404 before it is read as one
    key = (int(request.match_info["db"]), request.match_info["name"])
    try:
        return await request.app[STATE].tournament_answers.get(shared, key, load, _address(request))
    except tournaments.NotATournamentDb as error:
        raise fail(400, str(error)) from None
    except LookupError as error:
        raise fail(404, str(error)) from None


def _address(request: web.Request) -> str:
    return client_network(request.remote or "")


async def _report(request: web.Request) -> Report:
    """NotATournamentDb, BeingRewritten or LookupError as ReportCache.get."""
    index, name = int(request.match_info["db"]), request.match_info["name"]
    return await request.app[STATE].reports.get(index, _database(request), name)


def _listed(index: int, path: Path) -> dict[str, Any]:
    """One database's tournaments for the list page (named by its file alone)."""
    try:
        found, damaged = tournaments.listed_tournaments(path)
    except (tournaments.NotATournamentDb, tournaments.BeingRewritten) as error:
        # One database being written, or no database at all, says so in its
        # own line: the other databases' tournaments are still listed.
        return {"index": index, "file": path.name, "error": str(error)}
    return {
        "index": index,
        "file": path.name,
        "tournaments": [
            {
                "name": t.record.name,
                "href": tournament_url(index, t.record.name),
                "game": t.record.game,
                "players": t.record.players,
                "scheduled": t.record.scheduled,
                "played": t.played,
                "sprt": SprtPlan.from_stored(t.record) is not None,
                "state": t.state.word,
                "state_text": t.state.text(),
            }
            for t in found
        ],
        "damaged": list(damaged),
    }


async def tournaments_page(request: web.Request) -> web.Response:
    dbs = request.app[STATE].config.tournament_dbs

    async def load() -> PageAnswer:
        entries = [await asyncio.to_thread(_listed, index, path) for index, path in enumerate(dbs)]
        return await _gzipped(pages.tournaments_page(entries))

    shared = request.app[STATE].tournament_answers
    return _page_response(request, await shared.get(shared.lists, None, load, _address(request)))


async def tournament_page(request: web.Request) -> web.Response:
    async def load() -> PageAnswer:
        report = await _report(request)
        url = tournament_url(int(request.match_info["db"]), request.match_info["name"])
        playing, etag = await _now_playing(request, report)
        state = {"state": report.state.word, "state_text": report.state.text()}
        boot = {**state, "fragment_url": f"{url}/fragment", "etag": etag}
        return await _gzipped(pages.tournament_page(report.title, playing + report.fragment, boot))

    return _page_response(
        request, await _shared(request, request.app[STATE].tournament_answers.pages, load)
    )


async def tournament_fragment(request: web.Request) -> web.Response:
    """The report alone (after its games in play while it runs), for the page
    to swap in; an unchanged one is a 304 (the page sends the ETag it holds)."""

    async def load() -> FragmentAnswer:
        report = await _report(request)
        playing, etag = await _now_playing(request, report)
        page = PageAnswer(report.plain, report.gzipped)
        if playing:  # compressed again only when it changed (else a 304)
            page = await _gzipped(playing + report.fragment)
        return FragmentAnswer(page, etag, report.state.word == RUNNING, report.state.text())

    answer = await _shared(request, request.app[STATE].tournament_answers.fragments, load)
    headers = {
        "ETag": answer.etag,
        "Cache-Control": "no-cache",
        "X-Tournament-Running": "1" if answer.running else "0",
        "X-Tournament-State": answer.state_text,
    }
    if answer.etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    return _page_response(request, answer.page, **headers)


async def _now_playing(request: web.Request, report: Report) -> tuple[str, str]:
    """The "Now playing" section of a running tournament ('' for none) and
    the ETag of the report with it: it changes as games start and end."""
    if not report.playing:
        return "", report.etag
    hosted = await hosted_matches(request.app[STATE], report.playing)
    section = now_playing_html(report.playing, hosted)
    tag = hashlib.sha256(section.encode()).hexdigest()[:12]
    return section, f'{report.etag[:-1]}-{tag}"'


async def _stored_game(request: web.Request) -> tournaments.StoredGame:
    """A tournament game as its database keeps it; a 403 while the tournament
    still has a game of its deal to play: that game (maybe live now) is dealt
    the same cards and deck, which the record shows, as its seed does."""
    path = _database(request)
    name, match_id = request.match_info["name"], request.match_info["match_id"]
    try:
        stored = await asyncio.get_running_loop().run_in_executor(
            None, tournaments.stored_game, path, name, match_id
        )
    except tournaments.NotATournamentDb as error:
        raise fail(400, str(error)) from None
    except LookupError as error:  # no such tournament, or not one of its games
        raise fail(404, str(error)) from None
    if stored.in_play:
        raise held_back_refusal(name)
    return stored


async def _tournament_game(
    request: web.Request, stored: tournaments.StoredGame | None = None
) -> tuple[arena_pb2.Replay, tournaments.StoredGame]:
    """A tournament game's record and what its database keeps of it (the bot
    in each seat, its failures): the record stored in the tournament
    database, else the game server's (a game stored before tournaments kept
    records)."""
    if stored is None:
        stored = await _stored_game(request)
    name, match_id = request.match_info["name"], request.match_info["match_id"]
    if stored.replay is not None:
        return replayable(match_id, stored.replay), stored
    try:
        return replayable(match_id, await request.app[STATE].gateway.replay(match_id)), stored
    except GatewayError as error:
        if error.status != 404:
            raise
        raise fail(
            404,
            f"the tournament {name!r} in {_database(request).name} keeps no record of its game "
            f"{match_id!r}, and the game server does not know it either",
        ) from None


async def tournament_match_page(request: web.Request) -> web.Response:
    replay, stored = await _tournament_game(request)
    db, name, match_id = (request.match_info[k] for k in ("db", "name", "match_id"))
    base = tournament_url(int(db), name)
    boot = {
        "match_id": match_id,
        "game": replay.game,
        "title": games.get(replay.game).title,
        "players": replay.players,
        "options": dict(replay.options),
        "status": "finished",
        "moves": len(replay.actions),
        "frames_url": f"/api{base}/match/{quote(match_id, safe='')}/frames",
        "live_url": None,
        "clock": {},
        "move": move_query(request, len(replay.actions)),
        # The page names the bot in each seat (a seat without one, in a
        # database edited by hand, is named by its number alone).
        "bots": list(stored.bots),
        # Each seat's failure and the rank the tournament counts: a seat that
        # failed ranks last there, whatever the game server ranked it.
        "failures": [{"failure": failure, "rank": rank} for failure, rank in stored.failures],
        "tournament": {"name": name, "url": base},
    }
    return html(pages.match_page(boot))


async def tournament_frames(request: web.Request) -> web.StreamResponse:
    db, name, match_id = (request.match_info[k] for k in ("db", "name", "match_id"))
    view = view_query(request)
    # Checked on every request, cached frames too: a tournament run again with
    # a new bot plays old deals again.
    stored = await _stored_game(request)

    async def replay() -> arena_pb2.Replay:
        return (await _tournament_game(request, stored))[0]

    # Keyed by the tournament too: its frames are its game's only, never
    # another tournament's URL for them (nor one of no tournament).
    return await frames_response(request, (f"db{db}/{name}", match_id, view), view, replay)
