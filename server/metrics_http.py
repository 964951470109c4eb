"""Serving a server's metrics to Prometheus over plain HTTP.

The official client's WSGI server runs in a daemon thread of its own; a scrape
reads counters (thread-safe in prometheus_client) and the registry's live view,
and never waits for the event loop, so a busy loop cannot make scrapes time out.
"""

from __future__ import annotations

from dataclasses import dataclass
from threading import Thread
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server

from server.metrics import ServerMetrics


class MetricsPortError(OSError):
    """The metrics port cannot be bound (taken, or not allowed)."""


@dataclass(slots=True)
class MetricsEndpoint:
    httpd: WSGIServer
    thread: Thread

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @classmethod
    def start(cls, metrics: ServerMetrics, host: str, port: int) -> MetricsEndpoint:
        return cls.start_registry(metrics.registry, host, port)

    @classmethod
    def start_registry(cls, registry: CollectorRegistry, host: str, port: int) -> MetricsEndpoint:
        try:
            httpd, thread = start_http_server(port, addr=host, registry=registry)
        except OSError as error:
            raise MetricsPortError(
                f"cannot serve metrics on {host}:{port}: {error.strerror or error}"
            ) from None
        return cls(httpd, thread)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
