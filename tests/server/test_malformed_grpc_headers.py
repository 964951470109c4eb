"""A hostile client against a real `sheepfold serve` on loopback, speaking raw
HTTP/2: gRPC's own request headers and message flag malformed (a
`grpc-timeout` that is no timeout, a `grpc-encoding` nobody knows, the
compressed flag set with no encoding, a gzip body that is not gzip).

gRPC's core refuses each before any Sheepfold code sees the call, `INTERNAL`
with its own message (the server cannot choose another status). These tests
hold what docs/operations.md says of them: each call gets that status, the
server goes on serving, and its log holds no traceback and no error of its
own; the only lines are gRPC core's, one per malformed header, as JSON lines
of the logger "grpc-core", and no more of them than their bound
(cli/core_log.py) however fast a client sends such calls."""

from __future__ import annotations

import gzip
import json
import re
import socket
import time
from collections.abc import Iterator, Sequence

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import ServerProcess, start_server_process, stop_server_process
from tests.integrity.helpers import wait_until
from tests.stream_flood import END_HEADERS, HEADERS, PREFACE, SETTINGS, frame, request_headers

pytestmark = pytest.mark.e2e

DATA, END_STREAM = 0, 1
UNCOMPRESSED, COMPRESSED = 0, 1
INTERNAL = grpc.StatusCode.INTERNAL.value[0]
# What gRPC's core writes for a request header it cannot parse (the `event` of a
# JSON line of the logger "grpc-core" in serve's log).
CORE_HEADER_LINE = re.compile(
    r"E\d{4} [\d:.]+ +\d+ hpack_parser\.cc:\d+\] Error parsing 'grpc-(timeout|encoding)' metadata"
)


def _core_lines(lines: Sequence[str]) -> list[dict[str, object]]:
    entries = [json.loads(line) for line in lines]  # every line JSON, core's too
    return [entry for entry in entries if entry.get("logger") == "grpc-core"]


@pytest.fixture(scope="module")
def served() -> Iterator[ServerProcess]:
    server = start_server_process("--start-timeout", "60")
    try:
        yield server
    finally:
        assert stop_server_process(server) == 0


def _status(
    address: str, headers: Sequence[tuple[bytes, bytes]], body: bytes, flag: int
) -> tuple[int, str]:
    """ListGames sent over a raw HTTP/2 connection with `headers` added and its
    message framed with `flag`; the call's grpc-status and grpc-message."""
    host, port = address.rsplit(":", 1)
    message = bytes([flag]) + len(body).to_bytes(4, "big") + body
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(
            PREFACE
            + frame(SETTINGS, 0, 0, b"")
            + frame(
                HEADERS, END_HEADERS, 1, request_headers(b"/sheepfold.v1.Arena/ListGames", headers)
            )
            + frame(DATA, END_STREAM, 1, message)
        )
        received = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status = re.search(rb"grpc-status[\x01\x02](\d+)", received)
            text = re.search(rb"grpc-message(.)", received, re.S)
            if status and text:
                length = text.group(1)[0]
                start = text.end()
                if len(received) >= start + length:
                    return int(status.group(1)), received[start : start + length].decode()
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    raise AssertionError(f"no grpc-status and grpc-message in {received[-200:]!r}")


MALFORMED = {
    "a grpc-timeout that is no timeout": (
        [(b"grpc-timeout", b"abc")],
        b"",
        UNCOMPRESSED,
        "Error parsing 'grpc-timeout' metadata",
    ),
    "a negative grpc-timeout": (
        [(b"grpc-timeout", b"-5S")],
        b"",
        UNCOMPRESSED,
        "Error parsing 'grpc-timeout' metadata",
    ),
    "an unknown grpc-encoding": (
        [(b"grpc-encoding", b"br")],
        b"",
        COMPRESSED,
        "Error parsing 'grpc-encoding' metadata",
    ),
    "the compressed flag without an encoding": (
        [],
        b"",
        COMPRESSED,
        "Compression bit set but no encoding configured",
    ),
    "a gzip body that is not gzip": (
        [(b"grpc-encoding", b"gzip")],
        b"not gzip at all",
        COMPRESSED,
        "Decompression failed due to zlib error",
    ),
}


def test_malformed_grpc_headers_are_refused_by_grpc_and_log_only_its_lines(
    served: ServerProcess,
) -> None:
    before = len(served.log_lines)
    for name, (headers, body, flag, told) in MALFORMED.items():
        assert _status(served.address, headers, body, flag) == (INTERNAL, told), name
    # A well-formed gzip body of a bad message is the server's to refuse, as any other.
    status, _ = _status(served.address, [(b"grpc-encoding", b"gzip")], gzip.compress(b"\xff"), 1)
    assert status == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    with grpc.insecure_channel(served.address) as channel:
        games = arena_pb2_grpc.ArenaStub(channel).ListGames(
            arena_pb2.ListGamesRequest(), timeout=10
        )
    assert len(games.games) == 4
    time.sleep(0.5)  # the log lines of the last calls
    # Core's lines reach the log through a reader process, the server's log
    # queue and the test's reader thread: on a loaded machine, after 0.5 s.
    wait_until(lambda: len(_core_lines(served.log_lines[before:])) >= 3, what="core's three lines")
    lines = served.log_lines[before:]
    assert not any("Traceback" in line for line in lines), "".join(lines)
    core = _core_lines(lines)
    assert len(core) == 3, "one line of gRPC's core for each header it could not parse"
    assert all(CORE_HEADER_LINE.match(str(entry["event"])) for entry in core), core
    assert all(entry["level"] == "error" for entry in core), "core's severity, E"
    for line in lines:
        entry = json.loads(line)
        if entry.get("logger") != "grpc-core":  # the server's own lines
            assert entry["level"] not in ("error", "critical"), line


FLOOD_SECONDS = 2.0


def _flood(address: str, seconds: float) -> int:
    """Calls with a malformed grpc-timeout sent on one connection as fast as it
    takes them for `seconds`; how many."""
    host, port = address.rsplit(":", 1)
    block = request_headers(b"/sheepfold.v1.Arena/ListGames", [(b"grpc-timeout", b"abc")])
    sent = 0
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(PREFACE + frame(SETTINGS, 0, 0, b""))
        stop = time.monotonic() + seconds
        stream = 1
        while time.monotonic() < stop and stream < 2**31 - 200:
            batch = b"".join(
                frame(HEADERS, END_HEADERS | END_STREAM, stream + 2 * i, block) for i in range(50)
            )
            connection.sendall(batch)
            stream += 100
            sent += 50
            connection.setblocking(False)
            try:
                while connection.recv(1 << 20):
                    pass
            except BlockingIOError:
                pass
            finally:
                connection.setblocking(True)
    return sent


def test_a_flood_of_malformed_headers_writes_core_lines_within_their_bound(
    served: ServerProcess,
) -> None:
    from cli.core_log import BURST_LINES, LINES_A_SECOND

    time.sleep(1.5)  # core's bucket full again after the test before
    before = len(served.log_lines)
    began = time.monotonic()
    sent = _flood(served.address, FLOOD_SECONDS)
    time.sleep(1.5)  # the count of the lines dropped, told within a second
    took = time.monotonic() - began
    assert sent > 5 * BURST_LINES, f"only {sent} calls sent: no flood"

    def dropped_told() -> bool:
        lines = _core_lines(served.log_lines[before:])
        return any(entry["event"] == "gRPC core log lines dropped" for entry in lines)

    # Through a reader process, the server's log queue and the test's reader
    # thread, the count can reach the test later than 1.5 s on a loaded machine.
    wait_until(dropped_told, what="the count of the lines dropped")
    core = _core_lines(served.log_lines[before:])
    written = [entry for entry in core if entry["event"] != "gRPC core log lines dropped"]
    told = [entry for entry in core if entry["event"] == "gRPC core log lines dropped"]
    assert len(written) <= BURST_LINES + LINES_A_SECOND * took + 1, len(written)
    assert len(written) >= BURST_LINES, "the burst passes"
    assert all(CORE_HEADER_LINE.match(str(entry["event"])) for entry in written)
    assert told, "the lines dropped are counted"
    assert len(told) <= took + 1, "at most one count a second"
    assert all(entry["level"] == "warning" for entry in told)
    # each call core has read so far written or counted (it may not have read them all)
    assert len(written) + sum(int(str(entry["dropped"])) for entry in told) <= sent
    # and the server serves on
    with grpc.insecure_channel(served.address) as channel:
        games = arena_pb2_grpc.ArenaStub(channel).ListGames(
            arena_pb2.ListGamesRequest(), timeout=10
        )
    assert len(games.games) == 4
