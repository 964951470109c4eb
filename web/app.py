"""The aiohttp application: pages, JSON and Server-Sent Events over the gateway."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

import structlog
from aiohttp import web
from sheepfold.v1 import arena_pb2

import games
from tournament.report_html import report_fragment
from web import pages, tournaments
from web.frames import (
    PUBLIC,
    ViewError,
    check_view,
    ignore_interrupts,
    match_info_dict,
    parse_view,
    render_json,
)
from web.gateway import Gateway, GatewayError
from web.hub import WatchHub
from web.limits import IDLE_SECONDS, MAX_CONNECTIONS
from web.site import BoundedSite

STATIC = Path(__file__).parent / "static"
LIST_POLL_SECONDS = 1.0
MATCH_INFO_SECONDS = 0.5  # a running match's GetMatch answer reused for page loads
SETTLED_KEPT = 2000  # finished matches' list entries and GetMatch answers kept
MAX_RENDERS_WAITING = 32  # different replays asked for and not yet rendered; more: 503
SEND_PIECE = 256 * 1024  # a larger body is written in pieces of this size
SEND_SECONDS = 120.0  # a client still reading a large body after this is dropped
_SETTLED = (arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_ABORTED)
log = structlog.get_logger("sheepfold.web")


@dataclass
class WebConfig:
    server: str  # the game server's gRPC address
    tournament_dbs: tuple[Path, ...] = ()
    cache_size: int = 16  # finished matches' frames kept, per view
    max_connections: int = MAX_CONNECTIONS
    idle_seconds: float = IDLE_SECONDS
    # For a server with private replays (serve --private-replays): whoever can open
    # the viewer then sees every match the server lists.
    admin_token: str = ""


@dataclass
class _Frames:
    """JSON of one view of a finished match, plain and gzipped."""

    plain: bytes
    gzipped: bytes


@dataclass
class State:
    config: WebConfig
    gateway: Gateway
    hub: WatchHub
    cache: OrderedDict[tuple[str, str, str], _Frames] = field(default_factory=OrderedDict)
    rendering: dict[tuple[str, str, str], asyncio.Future[_Frames]] = field(default_factory=dict)
    # Replaying is CPU work: in a process of its own, so that it takes nothing
    # from the event loop (which may also run the game server), not even its
    # interpreter lock; one replay at a time. Started on the first replay.
    renderer: ProcessPoolExecutor | None = None
    # The matches list, per game filter: (loop time, JSON bytes). Every open list
    # page shares one ListMatches a second.
    listings: dict[str, tuple[float, bytes]] = field(default_factory=dict)
    # A match that is over never changes: its JSON is built once, not once a
    # second (a list of 200 matches took the loop ~15 ms each time).
    settled: OrderedDict[str, bytes] = field(default_factory=OrderedDict)

    # GetMatch answers for page loads: a match that is over never changes; a
    # running one's is reused for MATCH_INFO_SECONDS (the live stream brings
    # the moves), so a crowd opening one match costs the server one call.
    infos: OrderedDict[str, tuple[float, arena_pb2.MatchInfo]] = field(default_factory=OrderedDict)

    info_seconds: float = MATCH_INFO_SECONDS

    async def match_info(self, match_id: str, max_age: float | None = None) -> arena_pb2.MatchInfo:
        now = asyncio.get_running_loop().time()
        cached = self.infos.get(match_id)
        age = self.info_seconds if max_age is None else max_age
        if cached is not None and (cached[1].status in _SETTLED or now - cached[0] < age):
            return cached[1]
        info = await self.gateway.match(match_id)
        self.infos[match_id] = (now, info)
        self.infos.move_to_end(match_id)
        if len(self.infos) > SETTLED_KEPT:
            self.infos.popitem(last=False)
        return info

    def render(self) -> ProcessPoolExecutor:
        if self.renderer is None:
            # spawn, not fork: a forked copy of a process running gRPC is unsafe.
            self.renderer = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_interrupts
            )
        return self.renderer

    async def listing(self, game: str) -> bytes:
        now = asyncio.get_running_loop().time()
        cached = self.listings.get(game)
        if cached is not None and now - cached[0] < LIST_POLL_SECONDS:
            return cached[1]
        parts = []
        for info in await self.gateway.matches(game):
            part = self.settled.get(info.match_id)
            if part is None:
                part = json.dumps(match_info_dict(info), separators=(",", ":")).encode()
                if info.status in _SETTLED:
                    self.settled[info.match_id] = part
                    if len(self.settled) > SETTLED_KEPT:
                        self.settled.popitem(last=False)
            parts.append(part)
        payload = b"[" + b",".join(parts) + b"]"
        self.listings[game] = (now, payload)
        return payload


STATE = web.AppKey("state", State)


def build_app(config: WebConfig) -> web.Application:
    app = web.Application(middlewares=[_errors])

    async def start(app: web.Application) -> None:
        gateway = Gateway(config.server, admin_token=config.admin_token)
        app[STATE] = State(config, gateway, WatchHub(gateway.watch))

    async def stop(app: web.Application) -> None:
        await app[STATE].hub.close()
        await app[STATE].gateway.close()
        if app[STATE].renderer is not None:
            # Waited for (off the loop): a pool left to the interpreter's exit
            # can race it and print a traceback from its manager thread.
            renderer, app[STATE].renderer = app[STATE].renderer, None
            await asyncio.to_thread(renderer.shutdown, wait=True, cancel_futures=True)

    app.on_startup.append(start)
    app.on_cleanup.append(stop)
    app.router.add_get("/", matches_page)
    app.router.add_get("/api/matches", matches_json)
    app.router.add_get("/api/matches/events", matches_events)
    app.router.add_get("/match/{match_id}", match_page)
    app.router.add_get("/api/match/{match_id}", match_json)
    app.router.add_get("/api/match/{match_id}/frames", match_frames)
    app.router.add_get("/api/match/{match_id}/live", match_live)
    app.router.add_get("/tournaments", tournaments_page)
    app.router.add_get("/tournaments/{db}/{name}", tournament_page)
    app.router.add_get("/tournaments/{db}/{name}/fragment", tournament_fragment)
    app.router.add_get("/tournaments/{db}/{name}/match/{match_id}", tournament_match_page)
    app.router.add_get("/api/tournaments/{db}/{name}/match/{match_id}/frames", tournament_frames)
    app.router.add_static("/static", STATIC)
    return app


# ---------------------------------------------------------------- errors


@web.middleware
async def _errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every failure becomes a clear page (or JSON for /api/) with its status."""
    try:
        return await handler(request)
    except GatewayError as error:
        return _error_response(request, error.status, error.message)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _error_response(request, error.status, error.text or error.reason)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("web request failed", path=request.path)
        return _error_response(request, 500, "the viewer failed on this request (see its log)")


def _error_response(request: web.Request, status: int, message: str) -> web.Response:
    if request.path.startswith("/api/"):
        return web.json_response({"error": message, "status": status}, status=status)
    return web.Response(
        text=pages.error_page(status, message), status=status, content_type="text/html"
    )


def _fail(status: int, message: str) -> web.HTTPException:
    return _HTTP[status](text=message)


_HTTP: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    403: web.HTTPForbidden,
    404: web.HTTPNotFound,
    409: web.HTTPConflict,
    503: web.HTTPServiceUnavailable,
}


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html")


# ---------------------------------------------------------------- matches


async def matches_page(request: web.Request) -> web.Response:
    state = request.app[STATE]
    return _html(pages.matches_page(await state.gateway.games()))


def _game_query(request: web.Request) -> str:
    """The `game` filter: empty or a game's wire name (one cached list per game)."""
    game = request.query.get("game", "")
    if game and game not in games.names():
        raise _fail(400, f"unknown game {game[:40]!r} (known: {', '.join(games.names())})")
    return game


async def matches_json(request: web.Request) -> web.Response:
    state = request.app[STATE]
    body = await state.listing(_game_query(request))
    return web.Response(body=body, content_type="application/json")


async def matches_events(request: web.Request) -> web.StreamResponse:
    """The matches list, sent again whenever it changes."""
    state = request.app[STATE]
    game = _game_query(request)
    response = await _sse(request)
    last = b""
    while True:
        try:
            payload = await state.listing(game)
        except GatewayError as error:
            payload = json.dumps({"error": error.message}).encode()
        if payload != last:
            last = payload
            await response.write(b"data: " + payload + b"\n\n")
        await asyncio.sleep(LIST_POLL_SECONDS)


async def _sse(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    return response


def _move_query(request: web.Request, moves: int) -> int | None:
    raw = request.query.get("move")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise _fail(400, f"move must be a whole number from 0 to {moves}, not {raw[:40]!r}")
    if int(raw) > moves:
        raise _fail(400, f"this match has moves 0 to {moves}; there is no move {raw}")
    return int(raw)


async def match_page(request: web.Request) -> web.Response:
    state = request.app[STATE]
    info = await state.match_info(request.match_info["match_id"])
    data = match_info_dict(info)
    boot = {
        **data,
        "frames_url": f"/api/match/{info.match_id}/frames",
        "live_url": f"/api/match/{info.match_id}/live",
        "move": _move_query(request, info.moves),
    }
    return _html(pages.match_page(boot))


async def match_json(request: web.Request) -> web.Response:
    state = request.app[STATE]
    info = await state.gateway.match(request.match_info["match_id"])
    return web.json_response(match_info_dict(info))


async def match_frames(request: web.Request) -> web.Response:
    """Every frame of a finished match in one view (public, all, seat-N)."""
    state = request.app[STATE]
    match_id = request.match_info["match_id"]
    view = _view_query(request)
    info = await state.match_info(match_id, max_age=0)  # a running one may just have ended
    if info.status not in (arena_pb2.MATCH_STATUS_FINISHED,):
        if view != PUBLIC:
            raise _fail(403, "a seat's cards are shown only once the match is over")
        raise _fail(409, "the match is not over: follow it live instead")
    return await _frames_response(
        request, ("server", match_id, view), view, lambda: state.gateway.replay(match_id)
    )


def _view_query(request: web.Request) -> str:
    try:
        return check_view(request.query.get("view", PUBLIC))
    except ViewError as error:
        raise _fail(400, str(error)) from None


async def _frames_response(
    request: web.Request,
    key: tuple[str, str, str],
    view: str,
    load: Callable[[], Awaitable[arena_pb2.Replay]],
) -> web.Response:
    state = request.app[STATE]
    frames = state.cache.get(key)
    if frames is None:
        # Pages opening a match that just ended share one replay.
        rendering = state.rendering.get(key)
        if rendering is None:
            if len(state.rendering) >= MAX_RENDERS_WAITING:
                raise _fail(503, "the viewer is replaying many matches now: try again shortly")
            rendering = asyncio.ensure_future(_load_and_render(state, key, view, load))
            state.rendering[key] = rendering
            rendering.add_done_callback(lambda done: _rendered(state, key, done))
        frames = await asyncio.shield(rendering)
    if key in state.cache:  # others may have pushed it out meanwhile
        state.cache.move_to_end(key)
    headers = {"Content-Type": "application/json"}
    body = frames.plain
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = frames.gzipped
    return await _send(request, body, headers)


async def _send(request: web.Request, body: bytes, headers: dict[str, str]) -> web.StreamResponse:
    """`body` written a piece at a time, each after the last has left: a client
    that does not read holds one piece of it, not a copy of all of it (a
    replay's frames can be 15 MB), and is dropped after SEND_SECONDS."""
    if len(body) <= SEND_PIECE or request.method == "HEAD":  # HEAD: aiohttp sends no body
        return web.Response(body=body, headers=headers)
    response = web.StreamResponse(headers=headers)
    response.content_length = len(body)
    await response.prepare(request)
    whole = memoryview(body)
    try:
        async with asyncio.timeout(SEND_SECONDS):
            for start in range(0, len(body), SEND_PIECE):
                await response.write(whole[start : start + SEND_PIECE])
            await response.write_eof()
    except (TimeoutError, ConnectionResetError):
        # Too slow, or gone: end the connection as aiohttp ends one whose client left.
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError from None
    return response


async def _load_and_render(
    state: State,
    key: tuple[str, str, str],
    view: str,
    load: Callable[[], Awaitable[arena_pb2.Replay]],
) -> _Frames:
    replay = await load()
    try:
        parsed = parse_view(view, replay.players)
    except ViewError as error:
        raise _fail(400, str(error)) from None
    frames = await _render(state, replay, parsed)
    state.cache[key] = frames
    while len(state.cache) > state.config.cache_size:
        state.cache.popitem(last=False)
    return frames


async def _render(state: State, replay: arena_pb2.Replay, view: int | str) -> _Frames:
    renderer = state.render()
    try:
        plain, gzipped = await asyncio.get_running_loop().run_in_executor(
            renderer, render_json, replay.SerializeToString(), view
        )
    except ValueError as error:
        raise GatewayError(500, str(error)) from None
    except BrokenProcessPool:
        # Killed (out of memory, say): the next replay starts a new process.
        if state.renderer is renderer:
            state.renderer = None
        renderer.shutdown(wait=False, cancel_futures=True)
        log.warning("the replay process ended unexpectedly; starting another")
        raise GatewayError(500, "the replay process ended unexpectedly: try again") from None
    return _Frames(plain, gzipped)


def _rendered(state: State, key: tuple[str, str, str], done: asyncio.Future[_Frames]) -> None:
    state.rendering.pop(key, None)
    if not done.cancelled():
        done.exception()  # retrieved: every page that waited has its answer


async def match_live(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: batches of what Watch says (public information only)."""
    state = request.app[STATE]
    match_id = request.match_info["match_id"]
    over = False
    if not state.hub.following(match_id):
        info = await state.match_info(match_id, max_age=0)  # a clear 404 before the stream
        over = info.status in _SETTLED
    response = await _sse(request)
    if over:
        # It ended before the page opened its stream: the page shows the replay
        # (watching it would make the game server rebuild the whole match).
        await response.write(b'event: end\ndata: {"over":true}\n\n')
        return response
    try:
        async for batch in state.hub.subscribe(match_id):
            await response.write(b"data: " + batch + b"\n\n")
        await response.write(b"event: end\ndata: {}\n\n")
    except ConnectionResetError:
        pass
    return response


# ---------------------------------------------------------------- tournaments


def _database(request: web.Request) -> Path:
    dbs = request.app[STATE].config.tournament_dbs
    raw = request.match_info["db"]
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9) or int(raw) >= len(dbs):
        raise _fail(404, f"no tournament database number {raw[:40]} (this viewer has {len(dbs)})")
    return dbs[int(raw)]


async def _tournament(request: web.Request) -> tournaments.TournamentView:
    path = _database(request)
    name = request.match_info["name"]
    try:
        return await asyncio.get_running_loop().run_in_executor(None, tournaments.load, path, name)
    except tournaments.NotATournamentDb as error:
        raise _fail(400, str(error)) from None
    except LookupError as error:
        raise _fail(404, str(error)) from None


async def tournaments_page(request: web.Request) -> web.Response:
    entries = []
    for index, path in enumerate(request.app[STATE].config.tournament_dbs):
        try:
            found = tournaments.list_tournaments(path)
        except tournaments.NotATournamentDb as error:
            entries.append({"index": index, "path": str(path), "error": str(error)})
            continue
        entries.append(
            {
                "index": index,
                "path": str(path),
                "tournaments": [
                    {"name": t.name, "game": t.game, "players": t.players, "scheduled": t.scheduled}
                    for t in found
                ],
            }
        )
    return _html(pages.tournaments_page(entries))


def _fragment(request: web.Request, view: tournaments.TournamentView) -> str:
    db = request.match_info["db"]
    name = request.match_info["name"]
    return report_fragment(
        view.report,
        view.games,
        replay_href=lambda game: f"/tournaments/{db}/{name}/match/{game.match_id}",
    )


async def tournament_page(request: web.Request) -> web.Response:
    view = await _tournament(request)
    boot = {
        "running": view.running,
        "fragment_url": f"/tournaments/{request.match_info['db']}/{request.match_info['name']}"
        "/fragment",
    }
    return _html(pages.tournament_page(view.record.name, _fragment(request, view), boot))


async def tournament_fragment(request: web.Request) -> web.Response:
    view = await _tournament(request)
    response = _html(_fragment(request, view))
    response.headers["X-Tournament-Running"] = "1" if view.running else "0"
    return response


async def _tournament_replay(request: web.Request) -> arena_pb2.Replay:
    """A tournament game's record: the one stored in the tournament database,
    else the game server's (a game stored before tournaments kept records)."""
    path = _database(request)
    match_id = request.match_info["match_id"]
    try:
        stored = await asyncio.get_running_loop().run_in_executor(
            None, tournaments.stored_replay, path, match_id
        )
    except tournaments.NotATournamentDb as error:
        raise _fail(400, str(error)) from None
    if stored is not None:
        return stored
    try:
        return await request.app[STATE].gateway.replay(match_id)
    except GatewayError as error:
        if error.status != 404:
            raise
        raise _fail(
            404,
            f"no game {match_id!r} in the tournament database {path.name}, "
            "and the game server does not know it either",
        ) from None


async def tournament_match_page(request: web.Request) -> web.Response:
    replay = await _tournament_replay(request)
    db, name, match_id = (request.match_info[k] for k in ("db", "name", "match_id"))
    boot = {
        "match_id": match_id,
        "game": replay.game,
        "title": games.get(replay.game).title,
        "players": replay.players,
        "status": "finished",
        "moves": len(replay.actions),
        "frames_url": f"/api/tournaments/{db}/{name}/match/{match_id}/frames",
        "live_url": None,
        "clock": {},
        "move": _move_query(request, len(replay.actions)),
    }
    return _html(pages.match_page(boot))


async def tournament_frames(request: web.Request) -> web.Response:
    db, match_id = request.match_info["db"], request.match_info["match_id"]
    view = _view_query(request)
    return await _frames_response(
        request, (f"db{db}", match_id, view), view, lambda: _tournament_replay(request)
    )


# ---------------------------------------------------------------- running


@dataclass
class RunningWeb:
    runner: web.AppRunner
    port: int

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_web(config: WebConfig, host: str = "127.0.0.1", port: int = 8080) -> RunningWeb:
    """Serve the viewer on the running loop; port 0 picks a free one."""
    runner = web.AppRunner(
        build_app(config),
        handler_cancellation=True,
        access_log=None,
        keepalive_timeout=config.idle_seconds,
    )
    await runner.setup()
    site = BoundedSite(runner, host, port, config.max_connections)
    try:
        await site.start()
    except UnicodeError as error:  # a label over 63 characters, say: no host name
        await runner.cleanup()
        raise OSError(f"not a host name ({error})") from None
    except OSError:
        await runner.cleanup()
        raise
    return RunningWeb(runner, site.port)
