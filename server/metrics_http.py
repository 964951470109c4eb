"""Serving a server's metrics to Prometheus over plain HTTP.

The official client's WSGI app answers in a daemon thread of its own; a scrape
reads counters (thread-safe in prometheus_client) and the registry's live view,
and never waits for the event loop, so a busy loop cannot make scrapes time out.

The HTTP server is the client's thread-per-connection one with two bounds the
client's own `start_http_server` lacks: at most `max_connections` connections
are served at once (the next are closed at once), and a connection silent for
`idle_timeout` seconds is dropped. Without them every idle connection to the
port held a thread (about 26 KB each, 3,000 connections 78 MB), and threads
are also what a container's process limit counts, gRPC's own included.
"""

from __future__ import annotations

import socket
import sys
import threading
from dataclasses import dataclass
from socket import socket as Socket
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

import structlog
from prometheus_client import CollectorRegistry, make_wsgi_app

from server.metrics import ServerMetrics

MAX_CONNECTIONS = 32  # Prometheus scrapes one connection at a time per target
IDLE_TIMEOUT = 10.0  # seconds a connection may stay silent mid-request


class MetricsPortError(OSError):
    """The metrics port cannot be bound (taken, or not allowed)."""


class _QuietHandler(WSGIRequestHandler):
    def setup(self) -> None:
        self.timeout = self.server.idle_timeout  # type: ignore[attr-defined]
        super().setup()  # sets it on the socket: every read waits at most that long

    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes are not logged."""


class _BoundedServer(ThreadingMixIn, WSGIServer):
    """Thread per connection, at most `max_connections` threads at a time."""

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
    ) -> None:
        self.address_family = family  # read when the socket is made, below
        self.idle_timeout = idle_timeout
        self._slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, _QuietHandler)

    def process_request(self, request: Socket, client_address: Any) -> None:  # type: ignore[override]
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Socket, client_address: Any) -> None:  # type: ignore[override]
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

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
    ) -> MetricsEndpoint:
        try:
            family, address = _family_and_address(host, port)
            httpd = _BoundedServer((address, port), family, max_connections, idle_timeout)
        except OSError as error:
            raise MetricsPortError(
                f"cannot serve metrics on {host}:{port}: {error.strerror or error}"
            ) from None
        except UnicodeError as error:  # a label over 63 characters, say
            raise MetricsPortError(
                f"cannot serve metrics on {host}:{port}: not a host name ({error})"
            ) from None
        httpd.set_app(make_wsgi_app(registry))
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
