"""A gRPC client on a plain socket, speaking HTTP/2 frame by frame: it can come
from any loopback address (127.0.0.2, 127.0.0.3, ...), as a client with many
addresses does, and can grant the server no window at all, as a client that
asks and never reads does. gRPC's own client can do neither."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import defaultdict

from google.protobuf.message import Message

from tests.stream_flood import END_HEADERS, HEADERS, PREFACE, SETTINGS, frame, request_headers

DATA, RST_STREAM, PING, WINDOW_UPDATE = 0, 3, 6, 8
END_STREAM, ACK = 1, 1
INITIAL_WINDOW_SIZE = 4
CANCEL = (8).to_bytes(4, "big")


class RawClient:
    """One connection from `source` (an IP address; "" for any) to `address`
    (HOST:PORT or unix:PATH). With `reads=False` its streams' windows stay at
    zero: the server can write nothing to them. It acknowledges the server's
    settings and pings, as a live client does, so the server keeps it, and
    notes which streams the server answered (sent headers on), sent data on,
    and ended."""

    def __init__(self, address: str, source: str = "", reads: bool = True) -> None:
        if address.startswith("unix:"):
            self._socket = socket.socket(socket.AF_UNIX)
            self._socket.connect(address.removeprefix("unix:"))
        else:
            host, _, port = address.rpartition(":")
            self._socket = socket.create_connection(
                (host, int(port)), source_address=(source, 0) if source else None
            )
        self._lock = threading.Lock()
        self.headed: set[int] = set()
        self.ended: set[int] = set()
        self.data: defaultdict[int, bytes] = defaultdict(bytes)
        self._reads = reads
        settings = b"" if reads else INITIAL_WINDOW_SIZE.to_bytes(2, "big") + (0).to_bytes(4, "big")
        self._send(PREFACE + frame(SETTINGS, 0, 0, settings))
        self._next_stream = 1
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def call(self, method: str, request: Message, times: int = 1) -> list[int]:
        """Send `request` to `method` ("Arena/ListGames") on `times` new streams."""
        body = request.SerializeToString()
        message = b"\x00" + len(body).to_bytes(4, "big") + body
        headers = request_headers(f"/sheepfold.v1.{method}".encode())
        streams, out = [], b""
        for _ in range(times):
            stream, self._next_stream = self._next_stream, self._next_stream + 2
            out += frame(HEADERS, END_HEADERS, stream, headers)
            out += frame(DATA, END_STREAM, stream, message)
            streams.append(stream)
        self._send(out)
        return streams

    def held(self) -> int:
        """Streams the server has taken and not ended: calls let in, their
        answers unread."""
        with self._lock:
            return len(self.headed - self.ended)

    def reset(self, stream: int) -> None:
        self._send(frame(RST_STREAM, 0, stream, CANCEL))

    def close(self) -> None:
        with contextlib.suppress(OSError):  # the server may have closed it
            self._socket.shutdown(socket.SHUT_RDWR)
        self._reader.join(timeout=10)
        self._socket.close()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send(self, data: bytes) -> None:
        with self._lock:
            self._socket.sendall(data)

    def _read(self) -> None:
        received = b""
        try:
            while chunk := self._socket.recv(65536):
                received += chunk
                while len(received) >= 9 and len(received) >= 9 + (
                    size := int.from_bytes(received[:3], "big")
                ):
                    kind, flags = received[3], received[4]
                    stream = int.from_bytes(received[5:9], "big") & 0x7FFFFFFF
                    payload, received = received[9 : 9 + size], received[9 + size :]
                    self._note(kind, flags, stream, payload)
        except OSError:
            pass

    def _note(self, kind: int, flags: int, stream: int, payload: bytes) -> None:
        if kind in (SETTINGS, PING) and not flags & ACK:
            self._send(frame(kind, ACK, 0, payload if kind == PING else b""))
        if kind == DATA and self._reads and payload:  # room for as much again
            more = len(payload).to_bytes(4, "big")
            self._send(frame(WINDOW_UPDATE, 0, 0, more) + frame(WINDOW_UPDATE, 0, stream, more))
        with self._lock:
            if kind == HEADERS:
                self.headed.add(stream)
            elif kind == DATA:
                self.data[stream] += payload
            if (kind in (HEADERS, DATA) and flags & END_STREAM) or kind == RST_STREAM:
                self.ended.add(stream)
