"""Raw sockets against a running server: has it kept a connection or closed it?
And a loopback address where nothing listens."""

from __future__ import annotations

import socket
from collections.abc import Iterable


def still_open(connection: socket.socket) -> bool:
    """Whether the server still holds `connection`. Reads (and drops) what it sent
    so far without waiting: a connection the server closed reads end of file or
    an error at once."""
    connection.setblocking(False)
    try:
        while connection.recv(65536):
            pass
    except BlockingIOError:
        return True
    except OSError:
        pass
    return False


def count_open(connections: Iterable[socket.socket]) -> int:
    return sum(still_open(connection) for connection in connections)


def closed_loopback_address() -> str:
    """`127.0.0.1:PORT` where nothing listens (a port just released by this process)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"
