"""The metrics port's HTTP server: idle or slow connections cannot grow the
process's threads without bound, and a silent one is dropped."""

from __future__ import annotations

import select
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
from prometheus_client import CollectorRegistry, Counter
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from server import metrics_http
from server.metrics_http import MetricsEndpoint, MetricsPortError
from server.peers import client_network


@pytest.fixture
def registry() -> CollectorRegistry:
    registry = CollectorRegistry()
    Counter("probe_things", "things", registry=registry).inc(3)
    return registry


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        return response.read().decode()


def serving_threads() -> int:
    """Threads serving a connection (socketserver names them after their target)."""
    return sum(t.name.endswith("(process_request_thread)") for t in threading.enumerate())


def read_to_end(connection: socket.socket) -> bytes:
    connection.settimeout(10)
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    return answer


def raw_exchange(port: int, request: bytes, source: str = "127.0.0.1") -> bytes:
    """All `request` gets back on one connection from `source`."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=10, source_address=(source, 0)
    ) as connection:
        connection.sendall(request)
        return read_to_end(connection)


def wait_until(check: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def idle_connections() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for connection in opened:
        connection.close()


def test_idle_connections_hold_at_most_the_bound_of_threads(
    registry: CollectorRegistry, idle_connections: list[socket.socket]
) -> None:
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0, max_connections=4)
    try:
        assert "probe_things_total 3.0" in scrape(endpoint.port)
        wait_until(lambda: serving_threads() == 0)
        for _ in range(50):
            idle_connections.append(socket.create_connection(("127.0.0.1", endpoint.port)))
        # Four are served (each waits for its request); the rest are closed at once.
        wait_until(lambda: serving_threads() >= 4)
        time.sleep(0.3)
        assert serving_threads() == 4
        closed = 0
        for connection in idle_connections[4:]:
            connection.settimeout(5)
            if connection.recv(1) == b"":
                closed += 1
        assert closed == 46
        # Once the idle ones go, scrapes are served again.
        for connection in idle_connections:
            connection.close()
        wait_until(lambda: serving_threads() == 0)
        assert "probe_things_total 3.0" in scrape(endpoint.port)
    finally:
        endpoint.stop()


def test_a_silent_connection_is_dropped_after_the_idle_timeout_without_a_traceback(
    registry: CollectorRegistry,
    idle_connections: list[socket.socket],
    capfd: pytest.CaptureFixture[str],
) -> None:
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0, idle_timeout=0.5)
    try:
        connection = socket.create_connection(("127.0.0.1", endpoint.port))
        idle_connections.append(connection)
        connection.sendall(b"GET /metr")  # half a request line, then silence
        connection.settimeout(5)
        started = time.monotonic()
        while connection.recv(4096):  # the server may answer 408 before it closes
            pass
        assert time.monotonic() - started < 4
        assert "probe_things_total 3.0" in scrape(endpoint.port)
    finally:
        endpoint.stop()
    assert "Traceback" not in capfd.readouterr().err


def test_a_taken_port_is_a_metrics_port_error(registry: CollectorRegistry) -> None:
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0)
    try:
        # As serve says it ("address already in use"): `tournament run
        # --metrics-port` once said "Address already in use", capitalised mid-line.
        with pytest.raises(
            MetricsPortError,
            match=f"^cannot serve metrics on 127.0.0.1:{endpoint.port}: address already in use$",
        ):
            MetricsEndpoint.start_registry(registry, "127.0.0.1", endpoint.port)
    finally:
        endpoint.stop()


def test_one_address_holds_a_few_places_and_others_are_still_served(
    registry: CollectorRegistry, idle_connections: list[socket.socket]
) -> None:
    """40 connections from one client once held every place (32): scrapes from
    anywhere else were refused for as long as it kept them."""
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0, per_address=4)
    try:
        for _ in range(10):
            idle_connections.append(socket.create_connection(("127.0.0.1", endpoint.port)))
        wait_until(lambda: serving_threads() >= 4)
        time.sleep(0.3)
        assert serving_threads() == 4
        answer = raw_exchange(endpoint.port, b"GET /metrics HTTP/1.0\r\n\r\n", "127.0.0.2")
        assert answer.startswith(b"HTTP/1.0 200") and b"probe_things_total 3.0" in answer
    finally:
        endpoint.stop()


def test_a_client_sending_a_byte_at_a_time_is_cut_at_the_request_deadline(
    registry: CollectorRegistry, idle_connections: list[socket.socket]
) -> None:
    """Each byte came within the idle timeout, so the connection was never idle
    and never dropped."""
    endpoint = MetricsEndpoint.start_registry(
        registry, "127.0.0.1", 0, idle_timeout=0.5, request_deadline=1.0
    )
    try:
        connection = socket.create_connection(("127.0.0.1", endpoint.port))
        idle_connections.append(connection)
        cut = False
        for byte in b"GET /metrics HTTP/1.1\r\nX-Slow: " + b"a" * 100:
            try:
                connection.sendall(bytes([byte]))
            except OSError:
                cut = True
                break
            time.sleep(0.2)  # 100 bytes: 20 s, were it never cut
        assert cut, "the dribbling client was never cut off"
    finally:
        endpoint.stop()


def raw_answer(registry: CollectorRegistry, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """The status line, headers and body a metrics port of `registry` answers
    `request` with."""
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0)
    try:
        answer = raw_exchange(endpoint.port, request)
    finally:
        endpoint.stop()
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in lines)}
    return status, headers, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "echo"),
    [
        (b"DELETE /metrics HTTP/1.0\r\n\r\n", "405 Method Not Allowed", b"DELETE"),
        (b"<script>X /metrics HTTP/1.0\r\n\r\n", "405 Method Not Allowed", b"<script>"),
        (b"GET /not-metrics-<b> HTTP/1.0\r\n\r\n", "404 Not Found", b"not-metrics"),
        (b"GET /favicon.ico HTTP/1.0\r\n\r\n", "404 Not Found", b"favicon"),
        (b"garbage-<b>\r\n\r\n", "400 Bad Request", b"garbage"),
        (b"GET /metrics HTTP/2.0\r\n\r\n", "505 HTTP Version Not Supported", b"2.0"),
        (b"GET /" + b"a" * 70_000 + b" HTTP/1.0\r\n\r\n", "414 Request-URI Too Long", b"aaaa"),
    ],
)
def test_an_answer_that_is_not_metrics_is_our_own_plain_line(
    registry: CollectorRegistry, request_bytes: bytes, status: str, echo: bytes
) -> None:
    """No banner naming Python's WSGI server, no HTML page, and nothing of the
    request echoed (the 405 page named the method, the 400 page the request line)."""
    line, headers, body = raw_answer(registry, request_bytes)
    assert line == f"HTTP/1.0 {status}"
    assert "server" not in headers
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert body == f"{status.lower()}\n".encode()
    assert echo not in body
    if status.startswith("405"):
        assert headers["allow"] == "GET"


def test_get_metrics_is_still_served_without_a_banner(registry: CollectorRegistry) -> None:
    line, headers, body = raw_answer(registry, b"GET /metrics HTTP/1.0\r\n\r\n")
    assert line == "HTTP/1.0 200 OK"
    assert "server" not in headers
    assert b"probe_things_total 3.0" in body


def test_a_failed_collection_is_a_plain_500_and_one_log_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Broken(Collector):
        def collect(self) -> Iterator[Metric]:
            raise RuntimeError("collector broke")

    registry = CollectorRegistry()
    registry.register(Broken())
    line, headers, body = raw_answer(registry, b"GET /metrics HTTP/1.0\r\n\r\n")
    assert line == "HTTP/1.0 500 Internal Server Error"
    assert "server" not in headers
    assert body == b"500 internal server error\n"
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "metrics request failed" in captured.out + captured.err


@pytest.mark.parametrize(
    "accept",
    [
        b"application/openmetrics-text; version=2.<b>probe</b>",
        b"application/openmetrics-text; version=2.probe\r\n\tSet-Cookie: probe=1",
        b"text/plain; version=1.0.0\r\n Set-Cookie: probe=1; escaping=underscores",
    ],
)
def test_an_accept_header_is_not_echoed_into_the_answer(
    registry: CollectorRegistry, accept: bytes
) -> None:
    """prometheus_client wrote the Accept header's version into its Content-Type,
    a folded header's line break and all (a second header line of the client's)."""
    request = b"GET /metrics HTTP/1.1\r\nAccept: " + accept + b"\r\n\r\n"
    line, headers, body = raw_answer(registry, request)
    assert line == "HTTP/1.0 200 OK"
    assert "probe" not in repr(headers).replace("probe_things", "")
    assert b"probe_things_total 3.0" in body


@pytest.mark.parametrize("version", ["x", "1.x", "1" * 5000, "2..0"])
def test_a_malformed_accept_version_is_served_without_a_500_or_a_log_line(
    registry: CollectorRegistry, capsys: pytest.CaptureFixture[str], version: str
) -> None:
    """prometheus_client compared the version's words to numbers and failed: a
    500 and a warning line per request, a log any client could flood."""
    accept = f"application/openmetrics-text; version={version}".encode()
    line, headers, body = raw_answer(
        registry, b"GET /metrics HTTP/1.1\r\nAccept: " + accept + b"\r\n\r\n"
    )
    assert line == "HTTP/1.0 200 OK"
    assert headers["content-type"].startswith("application/openmetrics-text; version=1.0.0;")
    assert b"probe_things_total 3.0" in body
    captured = capsys.readouterr()
    assert "metrics request failed" not in captured.out + captured.err


def hold_places(port: int, sources: list[str], each: int, opened: list[socket.socket]) -> None:
    """`each` silent connections to `port` from every address of `sources`."""
    for source in sources:
        for _ in range(each):
            opened.append(socket.create_connection(("127.0.0.1", port), source_address=(source, 0)))


@pytest.mark.parametrize(("addresses", "each", "half_sent"), [(8, 4, b""), (32, 1, b"GET /met")])
def test_many_addresses_holding_every_place_do_not_keep_a_scrape_out(
    registry: CollectorRegistry,
    idle_connections: list[socket.socket],
    addresses: int,
    each: int,
    half_sent: bytes,
) -> None:
    """Eight addresses with four silent connections each (or 32 with one) held
    all 32 places, and a scrape from a ninth address was closed unanswered for
    as long as they kept them (each came back as soon as it was dropped)."""
    endpoint = MetricsEndpoint.start_registry(registry, "127.0.0.1", 0, idle_timeout=60)
    try:
        sources = [f"127.0.0.{2 + n}" for n in range(addresses)]
        hold_places(endpoint.port, sources, each, idle_connections)
        for connection in idle_connections:
            connection.sendall(half_sent)
        wait_until(lambda: serving_threads() >= 32)
        started = time.monotonic()
        answer = raw_exchange(endpoint.port, b"GET /metrics HTTP/1.0\r\n\r\n", "127.0.0.200")
        assert answer.startswith(b"HTTP/1.0 200") and b"probe_things_total 3.0" in answer
        assert time.monotonic() - started < 3
        # Its place was one of theirs: exactly one of theirs was closed for it.
        assert len(closed_ones(idle_connections)) == 1
    finally:
        endpoint.stop()


def closed_ones(connections: list[socket.socket]) -> list[socket.socket]:
    """Those of `connections` the server has closed (none sent a whole request)."""
    readable, _, _ = select.select(connections, [], [], 0.5)
    return [connection for connection in readable if connection.recv(1) == b""]


def test_a_full_port_refuses_an_address_holding_as_many_as_any_other(
    registry: CollectorRegistry, idle_connections: list[socket.socket]
) -> None:
    """A place is given up only to a client holding fewer than its holder."""
    endpoint = MetricsEndpoint.start_registry(
        registry, "127.0.0.1", 0, max_connections=4, per_address=3, idle_timeout=60
    )
    try:
        hold_places(endpoint.port, ["127.0.0.2", "127.0.0.3"], 2, idle_connections)
        wait_until(lambda: serving_threads() >= 4)
        assert raw_exchange(endpoint.port, b"GET /metrics HTTP/1.0\r\n\r\n", "127.0.0.2") == b""
        assert closed_ones(idle_connections) == []
        answer = raw_exchange(endpoint.port, b"GET /metrics HTTP/1.0\r\n\r\n", "127.0.0.4")
        assert answer.startswith(b"HTTP/1.0 200")
        assert len(closed_ones(idle_connections)) == 1
    finally:
        endpoint.stop()


def test_a_request_being_answered_keeps_its_place(
    idle_connections: list[socket.socket],
) -> None:
    """The oldest connection of the client holding most gives up its place,
    unless its request is in hand: then a waiting one does."""
    collecting = threading.Event()
    release = threading.Event()

    class Slow(Collector):
        def collect(self) -> Iterator[Metric]:
            collecting.set()
            release.wait(10)
            yield from ()

    registry = CollectorRegistry()
    registry.register(Slow())
    Counter("probe_things", "things", registry=registry).inc(3)
    endpoint = MetricsEndpoint.start_registry(
        registry, "127.0.0.1", 0, max_connections=2, idle_timeout=60
    )
    try:
        hold_places(endpoint.port, ["127.0.0.2"], 1, idle_connections)
        answered = idle_connections[0]
        answered.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
        assert collecting.wait(10)
        hold_places(endpoint.port, ["127.0.0.2"], 1, idle_connections)
        wait_until(lambda: serving_threads() >= 2)
        newcomer = socket.create_connection(
            ("127.0.0.1", endpoint.port), timeout=10, source_address=("127.0.0.3", 0)
        )
        idle_connections.append(newcomer)
        newcomer.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
        assert closed_ones(idle_connections[1:2]) == idle_connections[1:2]
        release.set()
        for connection in (answered, newcomer):
            answer = read_to_end(connection)
            assert answer.startswith(b"HTTP/1.0 200") and b"probe_things_total 3.0" in answer
    finally:
        release.set()
        endpoint.stop()


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("fe80::1%eth0", "fe80::2%eth0", True),
        ("fe80::1%eth0", "fe80::1%eth1", False),
        ("::ffff:192.0.2.1", "192.0.2.1", True),
        ("::ffff:192.0.2.1", "192.0.2.2", False),
        ("192.0.2.1", "192.0.2.2", False),
    ],
)
def test_an_ipv6_client_is_counted_by_its_64_prefix(one: str, other: str, same: bool) -> None:
    """One IPv6 host is given a /64, 2**64 addresses: counted one by one, a
    single host held every place by itself."""
    assert (client_network(one) == client_network(other)) is same


def test_name_filter_serves_only_the_asked_series(registry: CollectorRegistry) -> None:
    """prometheus_client's `name[]` filter once served nothing at all."""
    Counter("other_things", "others", registry=registry).inc()
    line, _, body = raw_answer(registry, b"GET /metrics?name[]=probe_things_total HTTP/1.0\r\n\r\n")
    assert line == "HTTP/1.0 200 OK"
    assert b"probe_things_total 3.0" in body
    assert b"other_things" not in body
    _, _, both = raw_answer(
        registry,
        b"GET /metrics?name%5B%5D=probe_things_total&name[]=other_things_total HTTP/1.0\r\n\r\n",
    )
    assert b"probe_things_total 3.0" in both and b"other_things_total 1.0" in both
    assert b"_created" not in both


@pytest.mark.parametrize("request_line", [b"GET /metrics\r\n", b"GET /other\r\n"])
def test_an_http_0_9_request_is_refused_with_a_status_line(
    registry: CollectorRegistry, request_line: bytes
) -> None:
    """HTTP/0.9 has no status line: the metrics (or a 404 or 500 page) came
    back bare, an error indistinguishable from metrics text."""
    line, headers, body = raw_answer(registry, request_line)
    assert line == "HTTP/1.0 400 Bad Request"
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert body == b"400 bad request\n"


def test_a_request_not_yet_read_by_its_thread_keeps_its_place(
    registry: CollectorRegistry,
    idle_connections: list[socket.socket],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scrape sends its whole request at once, but its thread may not have
    read it yet (a busy process): it counted as a connection yet to send its
    request, and newcomers from fresh addresses, each taking the oldest
    waiting place, closed it unanswered."""
    scrape_read = threading.Event()
    handle = metrics_http._QuietHandler.handle

    def slow_to_read(handler: metrics_http._QuietHandler) -> None:
        if handler.client_address[0] == "127.0.0.200":
            scrape_read.wait(10)
        handle(handler)

    monkeypatch.setattr(metrics_http._QuietHandler, "handle", slow_to_read)
    endpoint = MetricsEndpoint.start_registry(
        registry, "127.0.0.1", 0, max_connections=2, per_address=1, idle_timeout=60
    )
    try:
        hold_places(endpoint.port, ["127.0.0.2", "127.0.0.3"], 1, idle_connections)
        wait_until(lambda: serving_threads() >= 2)
        scrape = socket.create_connection(
            ("127.0.0.1", endpoint.port), timeout=10, source_address=("127.0.0.200", 0)
        )
        idle_connections.append(scrape)
        scrape.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
        time.sleep(0.2)  # its request is in its socket, unread
        hold_places(endpoint.port, ["127.0.0.4", "127.0.0.5"], 1, idle_connections)
        time.sleep(0.2)
        scrape_read.set()
        answer = read_to_end(scrape)
        assert answer.startswith(b"HTTP/1.0 200") and b"probe_things_total 3.0" in answer
    finally:
        scrape_read.set()
        endpoint.stop()
