"""The viewer's listening socket, bounded.

aiohttp accepts every connection and keeps one that never sends a request for
an hour. In `sheepfold serve --web-port` the viewer shares the game server's
process, so a client opening idle connection after connection took every file
descriptor, and then nobody could reach the game server either. This site
holds at most `max_connections` at once and closes the rest as they arrive;
the runner's keep-alive timeout closes idle ones.

Of those, one client address (an IPv6 one counted by its /64 network, as the
game server counts it) holds at most `max_per_address`: with the bound
alone, one client holding its 1,000 connections (live pages, or requests
sent a byte at a time) kept everyone else out. A connection past it is
closed as soon as its address is known, before aiohttp sees it.

Both refusals are logged with the client's address, an address's first 20
in full and then one in a thousand, as the server logs what a client can
repeat at will.

A request aiohttp cannot parse (a request line or header too long, a header
without a colon, no HTTP at all) is answered with the viewer's own short 400
page: aiohttp's quoted part of the request back, and named itself, its
version and Python's in the Server header. aiohttp logs it through the
standard library, which `serve` and `web` route into their own log
(server.logs): one counted line, not aiohttp's traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import Counter
from typing import cast

import structlog
from aiohttp import hdrs, web
from aiohttp.http_exceptions import BadHttpMessage, LineTooLong
from aiohttp.web_protocol import RequestHandler

from server.logs import Counts
from server.peers import client_network
from web.limits import (
    GONE_SECONDS,
    MAX_HEADER_BYTES,
    MAX_HEADERS,
    MAX_TARGET_BYTES,
    PROBE_AFTER_SECONDS,
    PROBE_EVERY_SECONDS,
)
from web.pages import error_page
from web.responses import SECURITY_HEADERS


class BoundedSite(web.BaseSite):
    """A TCP site that holds at most `max_connections` connections at once, and
    at most `max_per_address` of them from one client address."""

    __slots__ = (
        "_by_address",
        "_host",
        "_log",
        "_max_connections",
        "_max_per_address",
        "_open",
        "_port",
        "_refused",
    )

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        max_connections: int,
        max_per_address: int,
    ) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._max_connections = max_connections
        self._max_per_address = max_per_address
        self._open = 0
        self._by_address: Counter[str] = Counter()
        self._log = structlog.get_logger("sheepfold.web")
        self._refused = Counts()  # refusals per address, for the log

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        """The bound port (the one asked for until started)."""
        # What `start` made: the loop's Server (asyncio's or uvloop's, both with
        # `sockets`), though aiohttp declares the attribute an AbstractServer.
        server = cast(asyncio.Server | None, self._server)
        if server is not None and server.sockets:
            return int(server.sockets[0].getsockname()[1])
        return self._port

    @property
    def open_connections(self) -> int:
        return self._open

    async def start(self) -> None:
        await super().start()
        handlers = self._runner.server
        assert handlers is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: self._protocol(handlers),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=True,
        )

    def _protocol(self, handlers: web.Server) -> asyncio.Protocol:
        # Counted here, as each connection is accepted: the handlers' own list
        # grows only once a connection is set up, after a whole burst is accepted.
        if self._open >= self._max_connections:
            return _Refused(self)
        self._open += 1
        handler = handlers()
        if type(handler) is RequestHandler:  # aiohttp's own, as it has always made
            handler.__class__ = _OwnErrorPages
        return _Counted(handler, self)

    def _closed(self) -> None:
        self._open -= 1

    def _admit(self, address: str) -> bool:
        """Whether a connection from `address` may be held; if so, it is counted."""
        if self._by_address[address] >= self._max_per_address:
            self._note_refused(address, f"this address holds {self._max_per_address}")
            return False
        self._by_address[address] += 1
        return True

    def _note_refused(self, address: str, reason: str) -> None:
        total = self._refused.due(address)
        if total is not None:
            more = self._refused.left_out()
            self._log.info(
                "web connection refused", client=address, reason=reason, total=total, **more
            )

    def _left(self, address: str) -> None:
        self._by_address[address] -= 1
        if not self._by_address[address]:
            del self._by_address[address]


UNREADABLE = "The viewer could not read this request: not HTTP, or a line of it too long."


class _OwnErrorPages(RequestHandler):
    """aiohttp's handler for a connection, with the viewer's own page for a
    request it cannot parse: aiohttp's page quoted the request back."""

    __slots__ = ()

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        # aiohttp's own logs the error (the log has it, counted) and checks
        # that nothing was sent yet; its page is dropped.
        super().handle_error(request, status, exc, message)
        status, why = _refusal(status, exc)
        page = error_page(status, why)
        if _asked_with_head(request):
            # Its headers only, with the length the page would have. aiohttp
            # leaves out a HEAD's body by the request's method, which for a
            # request it could not parse is "UNKNOWN": it sent the page.
            response = web.Response(
                status=status,
                headers={hdrs.CONTENT_LENGTH: str(len(page.encode()))},
                content_type="text/html",
                charset="utf-8",
            )
        else:
            response = web.Response(status=status, text=page, content_type="text/html")
        response.headers.update(SECURITY_HEADERS)
        response.force_close()
        return response


def _asked_with_head(request: web.BaseRequest) -> bool:
    transport = request.transport
    counted = transport.get_protocol() if transport is not None else None
    return isinstance(counted, _Counted) and counted.unanswered_request.is_head


TARGET_TOO_LONG = (
    f"The viewer could not read this request: its address (path and query) is over "
    f"{MAX_TARGET_BYTES:,} bytes."
)
HEADERS_TOO_LARGE = (
    f"The viewer could not read this request: a header line over {MAX_HEADER_BYTES:,} "
    f"bytes, or more than {MAX_HEADERS} headers."
)
# aiohttp's parser says this, a BadHttpMessage, of one header too many.
_TOO_MANY_HEADERS = "Too many headers received"


def _refusal(status: int, exc: BaseException | None) -> tuple[int, str]:
    """The status and the page's words for a request aiohttp could not read:
    a 414 for a target too long and a 431 for headers too large, told apart
    by the bound the parser passed (web.limits); a 400 for the rest."""
    if status >= 500:
        return status, "The viewer failed on this request."
    if isinstance(exc, LineTooLong) and len(exc.args) > 1:
        if exc.args[1] == MAX_TARGET_BYTES:
            return 414, TARGET_TOO_LONG
        if exc.args[1] == MAX_HEADER_BYTES:
            return 431, HEADERS_TOO_LARGE
    if isinstance(exc, BadHttpMessage) and exc.message == _TOO_MANY_HEADERS:
        return 431, HEADERS_TOO_LARGE
    return status, UNREADABLE


class _Refused(asyncio.Protocol):
    """A connection past the bound in all: closed at once, and noted."""

    def __init__(self, site: BoundedSite) -> None:
        self._site = site

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()
        site = self._site
        site._note_refused(_address(transport), f"the viewer holds {site._max_connections}")


def _address(transport: asyncio.BaseTransport) -> str:
    """The client a connection counts against: its IP address, an IPv6 one by
    its /64 network, as the game server counts its clients
    (`server.peers.client_network`). Counted by its whole address, a client
    given a /64 (one host usually is) took a fresh address for each
    connection and got round the bound per address."""
    peer = transport.get_extra_info("peername")
    return client_network(str(peer[0]) if isinstance(peer, tuple) and peer else str(peer))


def _notice_when_gone(transport: asyncio.BaseTransport) -> None:
    """TCP keep-alive probes and a user timeout on the connection: a client that
    vanishes without closing (no FIN, no RST) is dropped within about
    GONE_SECONDS, even on an event stream with nothing to send, rather than
    after the system's two hours (where it held a place of its address)."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    options = [
        (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
        (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPIDLE", None), PROBE_AFTER_SECONDS),
        (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPINTVL", None), PROBE_EVERY_SECONDS),
        (socket.IPPROTO_TCP, getattr(socket, "TCP_KEEPCNT", None), 3),
        (socket.IPPROTO_TCP, getattr(socket, "TCP_USER_TIMEOUT", None), GONE_SECONDS * 1000),
    ]
    for level, option, value in options:
        if option is not None:  # Linux has them all; another system what it has
            with contextlib.suppress(OSError):
                sock.setsockopt(level, option, value)


class _UnansweredRequest:
    """The first bytes of the request a parse failure on a connection answers,
    for its method (aiohttp's parser keeps none of it, and names it "UNKNOWN").

    aiohttp parses each read whole and, on a fault, answers it once, for the
    whole read: the requests before the fault in that read are dropped with
    it. The client takes that one answer for the oldest request it has not
    had an answer to: one begun in an earlier read and not yet whole, else the
    first one this read begins. A request ends at the blank line ending its
    head; a body holding a blank line would mislead this, but only as to
    whether the short page is sent whole or as its headers."""

    __slots__ = ("_carry", "_unfinished", "start")

    KEPT = 16  # enough for a method past a few stray line ends

    def __init__(self) -> None:
        self.start = b""
        self._unfinished = b""  # the start of a request not whole at the end of the reads so far
        self._carry = b""  # the last 4 bytes read, for a blank line split between reads

    def feed(self, data: bytes) -> None:
        self.start = (self._unfinished + data)[: self.KEPT]
        seen = self._carry + data
        end = seen.rfind(b"\r\n\r\n")
        if end >= 0:
            self._unfinished = seen[end + 4 : end + 4 + self.KEPT]
        else:
            self._unfinished = (self._unfinished + data)[: self.KEPT]
        self._carry = seen[-4:]

    @property
    def is_head(self) -> bool:
        # A server ignores empty lines before a request line (RFC 9112, 2.2).
        return self.start.lstrip(b"\r\n").startswith(b"HEAD ")


class _Counted(asyncio.Protocol):
    """aiohttp's handler for one connection, and the site's count of it."""

    __slots__ = ("_address", "_handler", "_site", "unanswered_request")

    def __init__(self, handler: asyncio.Protocol, site: BoundedSite) -> None:
        self._handler = handler
        self._site = site
        self._address: str | None = None  # set once admitted
        self.unanswered_request = _UnansweredRequest()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = _address(transport)
        if not self._site._admit(address):
            transport.close()  # aiohttp never sees it
            return
        self._address = address
        _notice_when_gone(transport)
        self._handler.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._site._closed()
        if self._address is None:
            return
        self._site._left(self._address)
        self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._address is not None:
            self.unanswered_request.feed(data)
            self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self._address is None else self._handler.eof_received()

    def pause_writing(self) -> None:
        self._handler.pause_writing()

    def resume_writing(self) -> None:
        self._handler.resume_writing()
