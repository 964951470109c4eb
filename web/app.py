"""The aiohttp application: pages, JSON and Server-Sent Events over the gateway."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import structlog
from aiohttp import HttpVersion10, HttpVersion11, hdrs, web
from sheepfold.v1 import arena_pb2

from server.page_tokens import MAX_TOKEN_CHARS
from web import pages, tournaments
from web.frames import PUBLIC, match_info_dict
from web.gateway import Gateway, GatewayError
from web.hosts import HostGuard
from web.hub import WatchHub
from web.limits import MAX_HEADER_BYTES, MAX_HEADERS, MAX_TARGET_BYTES
from web.listing import Listing, entry
from web.replays import frames_response, replayable
from web.request_args import game_query, move_query, view_query
from web.responses import (
    HEARTBEAT,
    accepts_gzip,
    add_security_headers,
    body_headers,
    close_after_upgrade,
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
from web.site import BoundedSite
from web.state import SEEDS_KEPT, SETTLED, STATE, State, WebConfig
from web.tournament_routes import (
    tournament_fragment,
    tournament_frames,
    tournament_match_page,
    tournament_page,
    tournaments_page,
)

STATIC = (Path(__file__).parent / "static").resolve()
REWRITTEN_RETRY_SECONDS = 1  # a tournament database its runner wrote during each read
UNREADABLE_RETRY_SECONDS = 10  # a tournament database that could not be read (locked, say)


def unreadable(error: str) -> str:
    """Why a match is not shown while a tournament database cannot be read."""
    return (
        f"a tournament database this viewer reads cannot be read now ({error}), so it "
        "cannot tell whether this match's deal is still to be played in a tournament: "
        "the match is not shown until it can"
    )


log = structlog.get_logger("sheepfold.web")


def build_app(config: WebConfig) -> web.Application:
    app = web.Application(
        middlewares=[
            _http_1_only,
            _errors,
            _host_check(HostGuard(config.allowed_hosts)),
            # `/match/ID/`, `/tournaments/` (a link pasted with a slash after
            # it) is a 308 to the page without its slash, the query kept; a
            # path that is no page without it stays a 404, and a path that
            # begins with `//` is sent to this host's page, never another's.
            web.normalize_path_middleware(
                append_slash=False, remove_slash=True, merge_slashes=False
            ),
        ]
    )

    async def start(app: web.Application) -> None:
        gateway = Gateway(
            config.server,
            admin_token=config.admin_token,
            credentials=config.credentials,
            keepalive_seconds=config.keepalive_seconds,
            keepalive_timeout=config.keepalive_timeout,
        )
        app[STATE] = State(
            config,
            gateway,
            WatchHub(
                gateway.watch,
                frame=event_frame,
                explain=gateway.stream_failed,
                result_details=not config.tournament_dbs,
            ),
        )

    async def stop(app: web.Application) -> None:
        await app[STATE].hub.close()
        await app[STATE].gateway.close()
        renderer, app[STATE].renderer = app[STATE].renderer, None
        if renderer is not None:
            # Waited for (off the loop): a pool left to the interpreter's exit
            # can race it and print a traceback from its manager thread.
            await asyncio.to_thread(renderer.shutdown, wait=True, cancel_futures=True)

    async def end_streams(app: web.Application) -> None:
        for task in list(app[STATE].streams):
            task.cancel()

    app.on_response_prepare.append(add_security_headers)
    app.on_response_prepare.append(close_after_upgrade)
    app.on_shutdown.append(end_streams)
    app.on_startup.append(start)
    app.on_cleanup.append(stop)
    app.router.add_get("/", matches_page)
    app.router.add_get("/api/matches", matches_json)
    app.router.add_get("/api/matches/events", matches_events)
    app.router.add_get("/api/matches/page", matches_page_json)
    app.router.add_get("/match/{match_id}", match_page)
    app.router.add_get("/api/match/{match_id}", match_json)
    app.router.add_get("/api/match/{match_id}/frames", match_frames)
    app.router.add_get("/api/match/{match_id}/live", match_live)
    app.router.add_get("/tournaments", tournaments_page)
    app.router.add_get("/tournaments/{db}/{name}", tournament_page)
    app.router.add_get("/tournaments/{db}/{name}/fragment", tournament_fragment)
    app.router.add_get("/tournaments/{db}/{name}/match/{match_id}", tournament_match_page)
    app.router.add_get("/api/tournaments/{db}/{name}/match/{match_id}/frames", tournament_frames)
    app.router.add_get("/static/{path:.+}", static_file)
    return app


# ---------------------------------------------------------------- errors


_HTTP_1 = (HttpVersion10, HttpVersion11)


@web.middleware
async def _http_1_only(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """A request in HTTP/0.9 (a request line with no version) or "HTTP/2.0"
    sent as text is a 505, in HTTP/1.0: aiohttp's parser takes both, and its
    answer's status line repeats the request's version ("HTTP/0.9 200 OK"),
    which no client of either version reads."""
    if request.version in _HTTP_1:
        return await handler(request)
    # aiohttp writes the answer's status line in the request's version (read
    # once, and kept): the request is made one of HTTP/1.0 for it.
    request._version = HttpVersion10
    request._cache.pop("version", None)
    response = _error_response(
        request,
        505,
        "this viewer speaks HTTP/1.0 and HTTP/1.1 alone (a proxy in front may speak HTTP/2)",
    )
    response.force_close()
    return response


@web.middleware
async def _errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every failure becomes a clear page (or JSON for /api/) with its status."""
    try:
        return await handler(request)
    except GatewayError as error:
        return _error_response(request, error.status, error.message, error.retry_after)
    except tournaments.BeingRewritten as error:
        # The file is fine, its runner busy: a moment later the read works.
        return _error_response(request, 503, str(error), REWRITTEN_RETRY_SECONDS)
    except tournaments.Unreadable as error:
        # Raised here only by the check whether a game server's match is a
        # tournament's deal still in play (the tournament pages answer for
        # their own database): it cannot tell, so the match is not shown.
        return _error_response(request, 503, unreadable(str(error)), UNREADABLE_RETRY_SECONDS)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        message = error.text or error.reason
        if error.status == 404 and message == f"404: {error.reason}":
            # The router's own miss (a link cut short: "/match/", its id
            # lost), which said "404: Not Found" and nothing of where to go.
            message = (
                f"no page at {request.path[:80]!r}: the matches are listed at /, "
                "a match's page is /match/ID and the tournaments are at /tournaments"
            )
        if error.status == 404 and (request.method == "CONNECT" or request.raw_path == "*"):
            # A proxy's tunnel, or OPTIONS of the server as a whole: no page is
            # named (the 404 said "no page at ''"), and GET and HEAD are what
            # every page takes.
            error = web.HTTPMethodNotAllowed(request.method, ("GET", "HEAD"))
            message = f"this viewer answers GET and HEAD for its pages, not {request.method}"
        response = _error_response(request, error.status, message)
        if "Allow" in error.headers:  # a 405 names the methods the resource takes
            response.headers["Allow"] = error.headers["Allow"]
        return response
    except asyncio.CancelledError:
        raise
    except ConnectionResetError:
        # The client left as its answer began (an event stream's headers
        # written to a connection it had reset): nothing to tell it, and not
        # the viewer's failure. It was logged as one, with a traceback, and a
        # 500 was made for nobody. Ended as aiohttp ends one whose client left.
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError from None
    except Exception:
        log.exception("web request failed", path=request.path)
        return _error_response(request, 500, "the viewer failed on this request (see its log)")


def _host_check(guard: HostGuard) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Answers only requests for a host name the viewer goes by (web.hosts)."""

    @web.middleware
    async def check(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        refusal = guard.refusal(_asked_host(request), request.remote)
        if refusal is not None:
            raise web.HTTPForbidden(text=refusal)
        return await handler(request)

    return check


def _asked_host(request: web.Request) -> str | None:
    """The host a request is for: its Host header, unless its target names a
    host (`GET http://HOST/path`, as a proxy is asked), which then wins (RFC
    9112, 3.2.2). Judged by the header alone, such a request was answered for
    any host, and the trailing-slash redirect sent it to that host."""
    target = request.raw_path
    if target.startswith("/") or "://" not in target:  # "*", CONNECT's "host:port": no URL
        return request.headers.get("Host")
    return urlsplit(target).netloc.rpartition("@")[2]  # no user:password@


def _error_response(
    request: web.Request, status: int, message: str, retry_after: int | None = None
) -> web.Response:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    if request.path.startswith("/api/"):
        return web.json_response(
            {"error": message, "status": status}, status=status, headers=headers
        )
    return web.Response(
        text=pages.error_page(status, message),
        status=status,
        content_type="text/html",
        headers=headers,
    )


async def static_file(request: web.Request) -> web.StreamResponse:
    """A file of web/static/, or the 404 page (aiohttp's own static route
    answered an empty application/octet-stream)."""
    relative = request.match_info["path"]
    try:
        path = (STATIC / relative).resolve()
        found = path.is_relative_to(STATIC) and path.is_file()
    except (ValueError, OSError):  # a NUL byte, a name too long for the system
        found = False
    if not found:
        raise fail(404, f"no file {relative[:80]!r} in the viewer's static files")
    kind = _STATIC_TYPES.get(path.suffix)
    if hdrs.RANGE in request.headers:
        try:
            request.http_range  # noqa: B018 (read for its ValueError)
        except ValueError:
            # Several ranges, or a header that does not parse: the whole file
            # (a few KB), as RFC 9110 (14.2) lets a server do. FileResponse
            # answered 416 "Range Not Satisfiable", which says the file holds
            # none of the bytes asked.
            body = await asyncio.to_thread(path.read_bytes)
            return web.Response(
                body=body, headers={"Content-Type": kind or "application/octet-stream"}
            )
    return web.FileResponse(path, headers={"Content-Type": kind} if kind else None)


# The static files' text types say their charset: aiohttp's guess did not
# (`application/javascript`, `text/css`), and a browser shown such a file on
# its own read its UTF-8 (the board's glyphs, say) in the system's encoding.
_STATIC_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml; charset=utf-8",
}


# ---------------------------------------------------------------- matches


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
    list is /api/matches/events."""
    game = game_query(request)
    token = request.query.get("page", "")
    if len(token) > MAX_TOKEN_CHARS:  # longer than any the game server gives: not sent on
        raise fail(400, NO_PAGE)
    state = request.app[STATE]
    try:
        found = await state.gateway.matches_page(game, state.matches.limit, page_token=token)
    except GatewayError as error:
        if error.status == 400:  # the game server's words are for a bot's author
            raise fail(400, NO_PAGE) from None
        raise
    answer = {
        "matches": [entry(info) for info in found.matches],
        "next_page": found.next_page_token or None,
    }
    plain = json.dumps(answer, separators=(",", ":")).encode()
    body, headers = body_headers(request, plain, gzip.compress(plain, 5), "application/json")
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


# ---------------------------------------------------------------- running


@dataclass
class RunningWeb:
    runner: web.AppRunner
    port: int

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_web(config: WebConfig, host: str, port: int) -> RunningWeb:
    """Serve the viewer on the running loop; port 0 picks a free one."""
    runner = web.AppRunner(
        build_app(config),
        handler_cancellation=True,
        access_log=None,
        keepalive_timeout=config.idle_seconds,
        max_line_size=MAX_TARGET_BYTES,
        max_field_size=MAX_HEADER_BYTES,
        max_headers=MAX_HEADERS,
    )
    await runner.setup()
    site = BoundedSite(
        runner, host, port, config.max_connections, config.max_connections_per_address
    )
    try:
        await site.start()
    except UnicodeError as error:  # a label over 63 characters, say: no host name
        await runner.cleanup()
        raise OSError(f"not a host name ({error})") from None
    except OSError:
        await runner.cleanup()
        raise
    return RunningWeb(runner, site.port)
