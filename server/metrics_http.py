"""Serving a server's metrics to Prometheus over plain HTTP.

The official client's WSGI app answers in a daemon thread of its own; a scrape
reads counters (thread-safe in prometheus_client) and the registry's live view,
and never waits for the event loop, so a busy loop cannot make scrapes time out.

The HTTP server is the client's thread-per-connection one with bounds the
client's own `start_http_server` lacks: at most `max_connections` connections
are served at once, and `per_address` from one client (an IPv4 address, or an
IPv6 /64: one host is given a whole /64); a connection silent for
`idle_timeout` seconds is dropped, and any connection after `request_deadline`
seconds. Without them every idle connection to the port held a thread (about
26 KB each, 3,000 connections 78 MB), and threads are also what a container's
process limit counts, gRPC's own included.

When every place is taken, a newcomer takes the place of a connection that has
not yet sent its whole request, from the client holding the most places (the
oldest of its), provided that client holds more than the newcomer does; if
none does, the newcomer is closed at once. So clients that only hold places,
from however many addresses, keep no scrape out: eight addresses with four
silent connections each once refused every scrape for as long as they stayed.
A connection whose request is being answered keeps its place.

Only `GET /metrics` is served (with prometheus_client's `name[]` filter).
Every other answer (404 for another path, 405 for another method, 400 for a
request that is not HTTP/1.x, HTTP/0.9's bare `GET /metrics` included, 500
for a failed collection) is a short plain-text line of our own: no `Server`
banner naming Python's WSGI server, and nothing of the request echoed back
(the client's WSGI app wrote the method into its 405 page, the standard
library the request line into an HTML error page).
"""

from __future__ import annotations

import contextlib
import re
import select
import socket
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from socket import socket as Socket
from socketserver import ThreadingMixIn
from typing import IO, Any, cast
from wsgiref.simple_server import ServerHandler, WSGIRequestHandler, WSGIServer

import structlog
from prometheus_client import CollectorRegistry, make_wsgi_app
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from server.metrics import ServerMetrics
from server.peers import client_network

MAX_CONNECTIONS = 32  # Prometheus scrapes one connection at a time per target
MAX_PER_ADDRESS = 4  # connections one client address holds at once
IDLE_TIMEOUT = 10.0  # seconds a connection may stay silent mid-request
REQUEST_DEADLINE = 20.0  # seconds a connection may take for its request and answer


class _WithoutCreated(Collector):
    """A registry's metrics without the `_created` gauge prometheus_client adds
    beside every counter and histogram (`sheepfold_matches_created_created`):
    they doubled the series a scrape reads, and docs/operations.md lists none."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self._registry = registry

    def collect(self) -> Iterator[Metric]:
        for family in self._registry.collect():  # new objects at every collect
            created = f"{family.name}_created"
            family.samples = [sample for sample in family.samples if sample.name != created]
            yield family


def _without_created(registry: CollectorRegistry) -> CollectorRegistry:
    # A collector without names is one `name[]` filtering still asks (it gets
    # every family and keeps the samples named); without the flag the filter
    # found no collector naming what was asked, and served nothing.
    view = CollectorRegistry(auto_describe=False, support_collectors_without_names=True)
    view.register(_WithoutCreated(registry))
    return view


METRICS_PATH = "/metrics"

_Environ = dict[str, Any]
_StartResponse = Callable[..., Any]
_App = Callable[[_Environ, _StartResponse], Iterable[bytes]]


def _plain_answer(status: HTTPStatus) -> tuple[str, list[tuple[str, str]], bytes]:
    """The status line, headers and body of an answer that is not metrics:
    the status's own phrase, and nothing taken from the request."""
    body = f"{status.value} {status.phrase.lower()}\n".encode()
    headers = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(body))),
    ]
    return f"{status.value} {status.phrase}", headers, body


def _only_metrics(app: _App) -> _App:
    """`app` for `GET /metrics`; 404 for any other path, 405 for any other method
    (the client's app served its metrics at every path)."""

    def answer(environ: _Environ, start_response: _StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != METRICS_PATH:
            status, headers, body = _plain_answer(HTTPStatus.NOT_FOUND)
        elif environ.get("REQUEST_METHOD") != "GET":
            status, headers, body = _plain_answer(HTTPStatus.METHOD_NOT_ALLOWED)
            headers.append(("Allow", "GET"))
        else:
            if "HTTP_ACCEPT" in environ:
                environ["HTTP_ACCEPT"] = _sane_accept(environ["HTTP_ACCEPT"])
            return app(environ, start_response)
        start_response(status, headers)
        return [body]

    return answer


# What a media range's parameter in an Accept header may hold to reach
# prometheus_client: a version of at most four short numbers, any other
# parameter one token. The client wrote the version it was asked for into its
# Content-Type as it came (markup, a folded header's line break and the next
# line with it), and compared a version's words to numbers, failing the scrape
# (a 500 and a log line per request, for any client to flood).
_VERSION = re.compile(r"\d{1,9}(?:\.\d{1,9}){0,3}")
_TOKEN = re.compile(r"[A-Za-z0-9._+-]{1,64}")


def _sane_accept(accept: str) -> str:
    """`accept` without the parameters that are no version or token (a media
    range asking for a malformed version is served as one naming none)."""
    ranges = []
    for media_range in accept.split(","):
        kind, *parameters = (part.strip() for part in media_range.split(";"))
        ranges.append("; ".join([kind, *filter(_sane_parameter, parameters)]))
    return ", ".join(ranges)


def _sane_parameter(parameter: str) -> bool:
    name, equals, value = parameter.partition("=")
    pattern = _VERSION if name.strip() == "version" else _TOKEN
    return bool(equals) and pattern.fullmatch(value.strip()) is not None


class _BannerlessHandler(ServerHandler):
    """wsgiref's handler without its `Server: WSGIServer/0.2 CPython/...` header,
    and a failed collection answered with our plain 500 and one log line (it
    printed a traceback on stderr)."""

    server_software = None  # type: ignore[assignment]  # typeshed: str; None sends none
    error_status, error_headers, error_body = _plain_answer(HTTPStatus.INTERNAL_SERVER_ERROR)

    def log_exception(self, exc_info: Any) -> None:
        structlog.get_logger("sheepfold.metrics").warning(
            "metrics request failed", error=repr(exc_info[1])
        )


class MetricsPortError(OSError):
    """The metrics port cannot be bound (taken, or not allowed)."""


class _QuietHandler(WSGIRequestHandler):
    def setup(self) -> None:
        server = cast(_BoundedServer, self.server)  # the one server that makes these
        # Per connection: socketserver reads it from the handler, though typeshed
        # declares it a ClassVar.
        self.timeout = server.idle_timeout  # type: ignore[misc]
        super().setup()  # sets it on the socket: every read waits at most that long
        # The idle timeout is per read: a client sending a byte every few seconds
        # would hold its connection (and a place) for ever without a deadline.
        self._deadline = threading.Timer(server.request_deadline, self._cut)
        self._deadline.daemon = True
        self._deadline.start()

    def finish(self) -> None:
        self._deadline.cancel()
        super().finish()

    def _cut(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes are not logged."""

    def handle(self) -> None:
        """WSGIRequestHandler.handle, with the handler above in place of wsgiref's."""
        self.raw_requestline = self.rfile.readline(65537)
        if len(self.raw_requestline) > 65536:
            self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
            return
        if _is_http_0_9(self.raw_requestline):
            # Its answer has no status line, so an error read as metrics text;
            # and no scraper speaks it.
            self.send_error(HTTPStatus.BAD_REQUEST)
            return
        if not self.parse_request():  # it has sent its error
            return
        if not cast(_BoundedServer, self.server).request_read(self.connection):
            return  # its place was given to another client meanwhile
        handler = _BannerlessHandler(
            self.rfile,
            cast(IO[bytes], self.wfile),  # a socket file: typeshed's BufferedIOBase is narrower
            self.get_stderr(),
            self.get_environ(),
            multithread=False,
        )
        handler.request_handler = self  # type: ignore[attr-defined]  # wsgiref's back pointer
        handler.run(self.server.get_app())  # type: ignore[attr-defined]  # a WSGIServer

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A request that is not HTTP (or one too long) gets our plain answer, with
        a status line whatever version it named; http.server's HTML page echoed
        the request line and named the server."""
        status, headers, body = _plain_answer(HTTPStatus(code))
        lines = [f"HTTP/1.0 {status}", *(f"{name}: {value}" for name, value in headers)]
        lines.append("Connection: close")
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def _is_http_0_9(request_line: bytes) -> bool:
    """Whether http.server would read `request_line` as HTTP/0.9 (a method and a
    path, no version: it splits the line the same way)."""
    return len(str(request_line, "iso-8859-1").rstrip("\r\n").split()) == 2


# How much of a connection's unread input is looked at for the end of its request.
_PEEK_BYTES = 4096


def _request_unread(connection: Socket) -> bool:
    """Whether `connection` has sent its whole request (up to the blank line
    after its headers), still waiting in its socket for its thread to read
    it. A scraper sends it at once, but its thread may start late in a busy
    process, and until it had read the request the connection counted as
    one yet to send it: newcomers from fresh addresses, each taking the
    oldest waiting place, could close the scrape unanswered. A client
    gains nothing by it: its thread reads the request as soon as it runs."""
    # Asked of poll first: with a timeout set on the socket, Python waits out
    # that timeout for input even in a recv told not to wait.
    ready = select.poll()
    try:
        ready.register(connection, select.POLLIN)
        if not ready.poll(0):
            return False
        head = connection.recv(_PEEK_BYTES, socket.MSG_PEEK)
    except (OSError, ValueError):  # gone meanwhile (a closed socket has no file number)
        return False
    return b"\n\r\n" in head or b"\n\n" in head


@dataclass(eq=False, slots=True)
class _Place:
    """A served connection: its client, and whether it is still waiting for
    its whole request (then another client may be given its place)."""

    client: str
    connection: Socket
    waiting: bool = True


class _BoundedServer(ThreadingMixIn, WSGIServer):
    """Thread per connection, at most `max_connections` places at a time (a
    connection that gave up its place may take a moment to end)."""

    daemon_threads = True  # none is waited for at close, and none is kept in a list
    # socketserver's backlog is 5: a burst of connections beyond it waits for the
    # clients' SYN retries (1, 3, 7 s), a scrape among them too.
    request_queue_size = 128

    def __init__(
        self,
        address: tuple[str, int],
        family: socket.AddressFamily,
        max_connections: int,
        idle_timeout: float,
        *,
        per_address: int = MAX_PER_ADDRESS,
        request_deadline: float = REQUEST_DEADLINE,
    ) -> None:
        self.address_family = family  # read when the socket is made, below
        self.idle_timeout = idle_timeout
        self.request_deadline = request_deadline
        self._max_connections = max_connections
        self._per_address = per_address
        self._places: dict[Socket, _Place] = {}  # in the order they were taken
        self._held: Counter[str] = Counter()  # places, per client
        self._places_lock = threading.Lock()
        super().__init__(address, _QuietHandler)

    def process_request(self, request: Socket, client_address: Any) -> None:  # type: ignore[override]
        if not self._take(request, client_network(client_address[0])):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._give_back(request)
            raise

    def process_request_thread(self, request: Socket, client_address: Any) -> None:  # type: ignore[override]
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._give_back(request)

    def _take(self, request: Socket, client: str) -> bool:
        """A place for `request` from `client`: one of `max_connections` (a
        waiting one's, if all are taken), and one of the client's `per_address`."""
        with self._places_lock:
            if self._held[client] >= self._per_address:
                return False
            if len(self._places) >= self._max_connections:
                victim = self._victim(self._held[client])
                if victim is None:
                    return False
                self._drop(victim.connection)
                with contextlib.suppress(OSError):  # it may have closed meanwhile
                    victim.connection.shutdown(socket.SHUT_RDWR)  # its thread ends
            self._places[request] = _Place(client, request)
            self._held[client] += 1
            return True

    def _victim(self, newcomer_holds: int) -> _Place | None:
        """The waiting connection to give up its place to a client holding
        `newcomer_holds`: one of the client holding most, if more, its oldest."""
        waiting = [
            p for p in self._places.values() if p.waiting and not _request_unread(p.connection)
        ]
        victim = max(waiting, key=lambda place: self._held[place.client], default=None)
        if victim is None or self._held[victim.client] <= newcomer_holds:
            return None
        return victim

    def request_read(self, request: Socket) -> bool:
        """`request` has sent its whole request: its place is its own until it
        ends. False if it was given away meanwhile."""
        with self._places_lock:
            place = self._places.get(request)
            if place is not None:
                place.waiting = False
            return place is not None

    def _give_back(self, request: Socket) -> None:
        with self._places_lock:
            self._drop(request)

    def _drop(self, request: Socket) -> None:
        """`request`'s place freed (once; its lock held)."""
        place = self._places.pop(request, None)
        if place is not None:
            self._held[place.client] -= 1
            if not self._held[place.client]:
                del self._held[place.client]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went quiet or away is nothing to report (socketserver
        would print a traceback); anything else is one log line."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        structlog.get_logger("sheepfold.metrics").warning(
            "metrics request failed", error=repr(error)
        )


@dataclass(slots=True)
class MetricsEndpoint:
    httpd: WSGIServer
    thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @classmethod
    def start(cls, metrics: ServerMetrics, host: str, port: int) -> MetricsEndpoint:
        return cls.start_registry(metrics.registry, host, port)

    @classmethod
    def start_registry(
        cls,
        registry: CollectorRegistry,
        host: str,
        port: int,
        *,
        max_connections: int = MAX_CONNECTIONS,
        idle_timeout: float = IDLE_TIMEOUT,
        per_address: int = MAX_PER_ADDRESS,
        request_deadline: float = REQUEST_DEADLINE,
    ) -> MetricsEndpoint:
        try:
            family, address = _family_and_address(host, port)
            httpd = _BoundedServer(
                (address, port),
                family,
                max_connections,
                idle_timeout,
                per_address=per_address,
                request_deadline=request_deadline,
            )
        except OSError as error:
            why = str(error.strerror or error).lower()  # as serve's other ports say it
            raise MetricsPortError(f"cannot serve metrics on {host}:{port}: {why}") from None
        except UnicodeError as error:  # a label over 63 characters, say
            raise MetricsPortError(
                f"cannot serve metrics on {host}:{port}: not a host name ({error})"
            ) from None
        httpd.set_app(_only_metrics(make_wsgi_app(_without_created(registry))))
        thread = threading.Thread(target=httpd.serve_forever, name="metrics-http", daemon=True)
        thread.start()
        return cls(httpd, thread)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def _family_and_address(host: str, port: int) -> tuple[socket.AddressFamily, str]:
    """The address family to bind `host` with (IPv6 hosts need AF_INET6)."""
    family, _, _, _, sockaddr = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    return family, str(sockaddr[0])
