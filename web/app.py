"""The aiohttp application: pages, JSON and Server-Sent Events over the gateway."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import structlog
from aiohttp import HttpVersion10, HttpVersion11, hdrs, web

from web import pages, tournaments
from web.gateway import Gateway, GatewayError
from web.hosts import HostGuard
from web.hub import WatchHub
from web.limits import MAX_HEADER_BYTES, MAX_HEADERS, MAX_TARGET_BYTES
from web.match_routes import (
    match_frames,
    match_json,
    match_live,
    match_page,
    matches_events,
    matches_json,
    matches_page,
    matches_page_json,
)
from web.responses import add_security_headers, close_after_upgrade, event_frame, fail
from web.site import BoundedSite
from web.state import STATE, State, WebConfig
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
        await app[STATE].end_shared_loads()  # before the gateway they call closes
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
