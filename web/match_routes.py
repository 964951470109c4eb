"""The game server's matches in the viewer: the matches list (a page, its JSON,
a page at a time, its event stream) and a match's page, JSON, frames and live
events, each holding back a deal a tournament of the viewer's databases still
plays."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import quote

from aiohttp import web
from sheepfold.v1 import arena_pb2

from server.page_tokens import MAX_TOKEN_CHARS
from server.peers import client_network
from web import pages, tournaments
from web.frames import PUBLIC, match_info_dict
from web.gateway import GatewayError
from web.listing import Listing
from web.replays import frames_response, replayable
from web.request_args import game_query, move_query, view_query
from web.responses import (
    HEARTBEAT,
    accepts_gzip,
    body_headers,
    deflate_event,
    event_frame,
    fail,
    held_back_refusal,
    html,
    is_head,
    open_events,
    with_heartbeats,
    write_event,
)
from web.state import SEEDS_KEPT, SETTLED, STATE, State


async def matches_page(request: web.Request) -> web.Response:
    game_query(request)  # an unknown filter is refused, not shown as every game
    state = request.app[STATE]
    return html(pages.matches_page(await state.gateway.games(), state.matches.limit))


async def matches_json(request: web.Request) -> web.Response:
    listing = await request.app[STATE].matches.get(game_query(request))
    body, headers = body_headers(request, listing.plain, listing.gzipped, "application/json")
    return web.Response(body=body, headers=headers)


# An older page's address (`?page=`) cut short, changed, or made for another filter.
NO_PAGE = (
    "this address holds no page of the matches list (cut short or changed?): "
    "\u2190 newest leads to the newest matches"
)


async def matches_page_json(request: web.Request) -> web.Response:
    """One page of every match, newest first, `limit` (200) at a time, and the
    token of the page after it (null on the last): `?page=` a previous
    answer's `next_page`, none for the first page. Not kept current: the live
    list is /api/matches/events. Shared and bounded (web.older_pages): a 503
    when the game server was asked for many pages just now."""
    game = game_query(request)
    token = request.query.get("page", "")
    if len(token) > MAX_TOKEN_CHARS:  # longer than any the game server gives: not sent on
        raise fail(400, NO_PAGE)
    address = client_network(request.remote or "")
    try:
        page = await request.app[STATE].pages.get(game, token, address)
    except GatewayError as error:
        if error.status == 400:  # the game server's words are for a bot's author
            raise fail(400, NO_PAGE) from None
        raise
    body, headers = body_headers(request, page.plain, page.gzipped, "application/json")
    return web.Response(body=body, headers=headers)


async def matches_events(request: web.Request) -> web.StreamResponse:
    """The matches list, sent again whenever it changes (gzipped for a client
    that takes gzip); a client that does not take an update in time is dropped."""
    state = request.app[STATE]
    game = game_query(request)
    gzipped = accepts_gzip(request.headers.get("Accept-Encoding", ""))
    response = await open_events(request, gzipped)
    if is_head(request):
        return response
    last: Listing | bytes | None = None
    beat = deflate_event(HEARTBEAT) if gzipped else HEARTBEAT
    loop = asyncio.get_running_loop()
    written = loop.time()
    try:
        state.streams.add(_this_task())
        while True:
            frame: bytes | None = None
            try:
                listing = await state.matches.get(game)
                if listing is not last:  # the same object while the list is unchanged
                    last = listing
                    frame = listing.event_gzipped if gzipped else listing.event
            except GatewayError as error:
                failed = event_frame(json.dumps({"error": error.message}).encode())
                if failed != last:
                    last = failed
                    frame = deflate_event(failed) if gzipped else failed
            if frame is None and loop.time() - written >= state.config.heartbeat_seconds:
                frame = beat  # nothing changed for a while: a proxy would close the stream
            if frame is not None:
                await write_event(request, response, frame)
                written = loop.time()
            await asyncio.sleep(min(state.matches.poll_seconds, state.config.heartbeat_seconds))
    except ConnectionResetError:
        pass
    finally:
        state.streams.discard(_this_task())
    return response


def _this_task() -> asyncio.Task[Any]:
    task = asyncio.current_task()
    assert task is not None, "called from a request handler"
    return task


async def _deal_held_back(
    request: web.Request,
    match_id: str,
    info: arena_pb2.MatchInfo | None = None,
    seed: int | None = None,
) -> str | None:
    """The tournament (of the viewer's databases) that played match `match_id`
    as a game, or dealt it from `seed` (a match of `info`'s game and seats),
    and still has a game of that deal to play, dealt the same cards: the
    match's record and seed are not shown meanwhile. By its seed alone are
    known the matches of a deal that the tournament never stored as games (a
    first try no bot joined, aborted by the server; a game whose runner was
    stopped): their frames once showed the deal while its games were held back."""
    paths = request.app[STATE].config.tournament_dbs
    if not paths:
        return None

    def check() -> str | None:
        found = tournaments.deal_held_back(paths, match_id)
        if found is None and info is not None and seed is not None:
            found = tournaments.seed_held_back(
                paths, info.game, info.players, seed, request.app[STATE].deal_seeds
            )
        return found

    return await asyncio.get_running_loop().run_in_executor(None, check)


async def _match_seed(state: State, info: arena_pb2.MatchInfo) -> int | None:
    """The seed of a match that is over: the game server's GetMatch gives it,
    or (a server with private replays) its record does, asked once and kept;
    None when the viewer reads no tournament database (nothing to hold back)."""
    if not state.config.tournament_dbs:
        return None
    if info.HasField("seed"):
        return info.seed
    seed = state.seeds.get(info.match_id)
    if seed is None:
        seed = (await state.gateway.replay(info.match_id)).seed
        state.seeds[info.match_id] = seed
        if len(state.seeds) > SEEDS_KEPT:
            state.seeds.popitem(last=False)
    return seed


async def _shown_info(request: web.Request, info: arena_pb2.MatchInfo) -> dict[str, Any]:
    """A match's JSON, while its deal is held back without its seed and without
    its result's breakdown (`details`: Sheep and Garden's face-down objectives
    of every seat, each round's sheep points and wolves in Sheep Showdown),
    which tell the deal as the record does; its scores and ranks stay, as the
    tournament's report shows them. The breakdown was once shown, and on a
    game server with private replays (whose GetMatch gives no seed) nothing
    was checked at all."""
    data = match_info_dict(info)
    if info.status not in SETTLED:
        return data  # no seed, no result yet
    state = request.app[STATE]
    try:
        seed = await _match_seed(state, info)
    except GatewayError:
        seed = None
        if state.config.tournament_dbs:
            # Its record cannot be read: whether it was dealt a deal in play
            # cannot be told, so it is taken to be.
            _hold_back(data)
            return data
    if await _deal_held_back(request, info.match_id, info, seed):
        _hold_back(data)
    return data


def _hold_back(data: dict[str, Any]) -> None:
    """Take out of a match's JSON what tells its deal: the seed and the result's breakdown."""
    data["seed"] = None
    if data["result"] is not None:
        data["result"]["details"] = {}


def no_match(match_id: str) -> str:
    """What a match's page says of a match the game server does not have:
    the server's own words ("no match 'ID'") left a spectator who followed a
    link to a live game, a "Now playing" one say, to a server restarted since,
    with nothing to understand. No full stop at its end: the live page puts
    one after it ("The match can no longer be followed: ...")."""
    return (
        f"no match {match_id[:80]!r} on the game server: it is no longer there, or never "
        "was. The game server may have been restarted since this link was made (a server "
        "that keeps no database forgets its matches when it restarts), or the link was cut short"
    )


async def _match_info(
    state: State, match_id: str, max_age: float | None = None
) -> arena_pb2.MatchInfo:
    """State.match_info, its NOT_FOUND told in a spectator's words (no_match)."""
    try:
        return await state.match_info(match_id, max_age)
    except GatewayError as error:
        if error.status == 404:
            raise GatewayError(404, no_match(match_id)) from None
        raise


async def match_page(request: web.Request) -> web.Response:
    state = request.app[STATE]
    info = await _match_info(state, request.match_info["match_id"])
    data = await _shown_info(request, info)
    boot = {
        **data,
        "frames_url": f"/api/match/{quote(info.match_id, safe='')}/frames",
        "live_url": f"/api/match/{quote(info.match_id, safe='')}/live",
        "info_url": f"/api/match/{quote(info.match_id, safe='')}",
        "move": move_query(request, info.moves),
    }
    return html(pages.match_page(boot))


async def match_json(request: web.Request) -> web.Response:
    """A match's JSON, from the GetMatch answer every page of the match shares
    for half a second (MATCH_INFO_SECONDS): a live page asks it every few
    seconds whether each seat's bot is connected."""
    state = request.app[STATE]
    info = await _match_info(state, request.match_info["match_id"])
    return web.json_response(await _shown_info(request, info))


async def match_frames(request: web.Request) -> web.StreamResponse:
    """Every frame of a match that is over (finished or aborted: the game
    server's GetReplay gives both) in one view (public, all, seat-N)."""
    state = request.app[STATE]
    match_id = request.match_info["match_id"]
    view = view_query(request)
    info = await _match_info(state, match_id, max_age=0)  # a running one may just have ended
    if info.status not in SETTLED:
        if view != PUBLIC:
            raise fail(403, "a seat's cards are shown only once the match is over")
        raise fail(409, "the match is not over: follow it live instead")
    # Checked on every request, frames already kept too: a tournament run again
    # with a new bot plays old deals again.
    seed = await _match_seed(state, info)
    tournament = await _deal_held_back(request, match_id, info, seed)
    if tournament is not None:
        raise held_back_refusal(tournament)
    return await frames_response(
        request, ("server", match_id, view), view, lambda: _server_replay(state, match_id)
    )


async def _server_replay(state: State, match_id: str) -> arena_pb2.Replay:
    """The game server's record of a match (the game server aborts a match it
    cannot resume under today's rules)."""
    return replayable(match_id, await state.gateway.replay(match_id))


async def match_live(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: batches of what Watch says (public information only)."""
    state = request.app[STATE]
    match_id = request.match_info["match_id"]
    over = False
    if not state.hub.following(match_id):
        info = await _match_info(state, match_id, max_age=0)  # a clear 404 before the stream
        over = info.status in SETTLED
    response = await open_events(request)
    if is_head(request):
        return response
    if over:
        # It ended before the page opened its stream: the page shows the replay
        # (watching it would make the game server rebuild the whole match).
        await response.write(b'event: end\ndata: {"over":true}\n\n')
        return response
    try:
        state.streams.add(_this_task())
        batches = state.hub.subscribe(match_id)  # each an event, built once
        beating = with_heartbeats(batches, state.config.heartbeat_seconds)
        # Closed here, even when the page leaves during a write: its place
        # among the match's watchers is given up now, not when collected.
        async with contextlib.aclosing(beating) as frames:
            async for frame in frames:
                await write_event(request, response, frame)
        await write_event(request, response, b"event: end\ndata: {}\n\n")
    except ConnectionResetError:
        pass
    finally:
        state.streams.discard(_this_task())
    return response
