"""What every answer of the viewer shares: its security headers, whether a
client takes gzip, Server-Sent Events (gzipped or not) written with a deadline,
and the refusals (an HTTP error with its reason as text)."""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections.abc import AsyncGenerator

from aiohttp import web

# A stream whose client has not taken one event after this long is dropped:
# otherwise every event sent meanwhile waits in the viewer's memory for it.
EVENT_WRITE_SECONDS = 20.0

# script-src stays 'self': the boot data is a JSON <script> element, never run.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    # aiohttp would name itself, its version and Python's.
    "Server": "sheepfold",
}


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """An on_response_prepare hook: every answer, pages, JSON, streams and files."""
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value


async def close_after_upgrade(request: web.Request, response: web.StreamResponse) -> None:
    """An on_response_prepare hook: an answer to a request asking to switch
    protocols (`Connection: Upgrade`, which the viewer never does, or a
    proxy's CONNECT) closes the connection. aiohttp read what followed it on
    the connection as the new protocol's: a request sent behind it was never
    answered, the connection held until its idle close 30 s later."""
    connection = {
        token.strip().lower() for token in request.headers.get("Connection", "").split(",")
    }
    if "upgrade" in connection or request.method == "CONNECT":
        response.force_close()
        # The hook runs after aiohttp wrote its Connection header: said here.
        response.headers["Connection"] = "close"


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip: `gzip` or `x-gzip` (or `*`)
    with a quality above zero; `gzip;q=0` refuses it."""
    qualities: dict[str, float] = {}
    for part in accept_encoding.split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        if not coding:
            continue
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        qualities[coding.lower()] = quality
    for coding in ("gzip", "x-gzip"):
        if coding in qualities:
            return qualities[coding] > 0
    return qualities.get("*", 0.0) > 0


def body_headers(
    request: web.Request, plain: bytes, gzipped: bytes, content_type: str
) -> tuple[bytes, dict[str, str]]:
    """The body to send (gzipped when the client takes it) and its headers."""
    headers = {"Content-Type": content_type, "Vary": "Accept-Encoding"}
    if accepts_gzip(request.headers.get("Accept-Encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return gzipped, headers
    return plain, headers


def event_frame(data: bytes, event: str = "") -> bytes:
    """One Server-Sent Event; built once and written to every client."""
    head = f"event: {event}\n".encode() if event else b""
    return head + b"data: " + data + b"\n\n"


# A Server-Sent Events comment: a page's EventSource skips it.
HEARTBEAT = b":\n\n"


async def with_heartbeats(
    source: AsyncGenerator[bytes, None], seconds: float, beat: bytes = HEARTBEAT
) -> AsyncGenerator[bytes, None]:
    """What `source` yields, and `beat` whenever it has yielded nothing for
    `seconds` (the item it is waiting for is not given up meanwhile). Closed,
    it closes `source` at once: closed between two items (its page gone while
    it wrote one), it once left `source` open until collected, and with it a
    live match's place among the hub's watchers (web.hub)."""
    waiting: asyncio.Future[bytes] | None = None
    try:
        while True:
            if waiting is None:
                waiting = asyncio.ensure_future(anext(source))
            done, _ = await asyncio.wait({waiting}, timeout=seconds)
            if not done:
                yield beat
                continue
            try:
                item = waiting.result()
            except StopAsyncIteration:
                return
            waiting = None
            yield item
    finally:
        if waiting is not None and not waiting.done():
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await waiting
        await source.aclose()


# A gzip member's header: deflate, no name, no time, unknown system. A gzipped
# event stream is this, then one deflate_event piece per event, and never a
# trailer: the stream ends only when the page or the viewer drops it.
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def deflate_event(frame: bytes) -> bytes:
    """`frame` as raw deflate blocks that follow any others in a stream: a fresh
    compressor (no reference to earlier events, so the piece is built once and
    sent to every page) ended by a sync flush (so the page decodes the whole
    event as soon as it arrives, not when the next one pushes it out)."""
    compressor = zlib.compressobj(5, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(frame) + compressor.flush(zlib.Z_SYNC_FLUSH)


async def open_events(request: web.Request, gzipped: bool | None = None) -> web.StreamResponse:
    """A Server-Sent Events stream. `gzipped` None: never gzipped; else chosen
    by Accept-Encoding (said by Vary), and True: its events are to be written
    as deflate_event pieces, after the gzip header sent here. A HEAD request
    gets the headers alone: its handler returns the response at once
    (`is_head`), for aiohttp would send whatever is written after them."""
    headers = {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",
    }
    if gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if gzipped:
        headers["Content-Encoding"] = "gzip"
    response = web.StreamResponse(headers=headers)
    await response.prepare(request)
    if gzipped and not is_head(request):
        await response.write(GZIP_HEADER)
    return response


def is_head(request: web.Request) -> bool:
    """A HEAD request: its answer has no body, and a stream must write none
    (aiohttp sends what a handler writes even then, and the next answer on the
    connection would be read from the middle of it)."""
    return request.method == "HEAD"


async def write_event(
    request: web.Request,
    response: web.StreamResponse,
    frame: bytes,
    seconds: float | None = None,
) -> None:
    """`frame` written, or the client dropped (ConnectionResetError) when it
    has not taken it within `seconds` (EVENT_WRITE_SECONDS): a client that never reads holds the
    events sent to it, and would hold more and more."""
    try:
        async with asyncio.timeout(EVENT_WRITE_SECONDS if seconds is None else seconds):
            await response.write(frame)
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()
        raise ConnectionResetError("the client did not read its events in time") from None


def fail(status: int, message: str) -> web.HTTPException:
    return _HTTP[status](text=message)


_HTTP: dict[int, type[web.HTTPException]] = {
    400: web.HTTPBadRequest,
    403: web.HTTPForbidden,
    404: web.HTTPNotFound,
    409: web.HTTPConflict,
    503: web.HTTPServiceUnavailable,
}


def html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html")


def held_back_refusal(tournament: str) -> web.HTTPException:
    return fail(
        403,
        f"the tournament {tournament!r} still has games to play on this game's deal, "
        "dealt the same cards: its record is shown once they are played",
    )
