"""What every answer of the viewer shares: its security headers, whether a
client takes gzip, and Server-Sent Events written with a deadline."""

from __future__ import annotations

import asyncio

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


async def open_events(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    return response


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
