"""What `sheepfold serve`'s `server started` line says it listens on: the
addresses it really bound, and TLS only where it serves it. `--listen
[::1]:0` once logged `host: 127.0.0.1` (the unused `--host`), and TLS flags
given with Unix sockets alone, which never serve TLS, were taken and logged
`tls: true` while nothing served TLS."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from server import launch
from tests.cli.helpers import one_line, sheepfold
from tests.tls_files import self_signed

pytestmark = pytest.mark.e2e


def _started(*flags: str) -> dict[str, object]:
    """The `server started` line of `sheepfold serve FLAGS`, which is then stopped."""
    server = launch.start(launch.serve_command("--db", ":memory:", *flags))
    try:
        line = next(line for line in server.log_lines if "server started" in line)
        return dict(json.loads(line))
    finally:
        assert launch.stop(server) == 0


def test_an_ipv6_listen_address_is_the_one_logged() -> None:
    started = _started("--listen", "[::1]:0")
    port = started["port"]
    assert isinstance(port, int) and port > 0
    assert started["host"] == "[::1]", started
    assert started["listen"] == [f"[::1]:{port}"]
    assert started["tls"] is False


def test_tls_is_logged_for_the_tcp_address_beside_a_unix_socket(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    with tempfile.TemporaryDirectory(prefix="sheepfold-") as folder:  # short: a socket path
        socket = f"unix:{folder}/arena.sock"
        started = _started(
            *("--listen", "127.0.0.1:0", "--listen", socket),
            *("--tls-cert", str(cert), "--tls-key", str(key)),
        )
    assert started["host"] == "127.0.0.1"
    assert started["listen"] == [f"127.0.0.1:{started['port']}", socket]
    assert started["tls"] is True


def test_a_unix_socket_alone_logs_no_host() -> None:
    with tempfile.TemporaryDirectory(prefix="sheepfold-") as folder:
        socket = f"unix:{folder}/arena.sock"
        started = _started("--listen", socket)
    assert started["host"] is None and started["port"] == 0
    assert started["listen"] == [socket]
    assert started["tls"] is False


def test_tls_flags_with_unix_sockets_alone_are_refused(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    socket = f"unix:{tmp_path}/arena.sock"
    done = sheepfold(
        *("serve", "--db", ":memory:", "--listen", socket),
        *("--tls-cert", str(cert), "--tls-key", str(key)),
        timeout=30,
    )
    assert done.returncode == 2
    assert one_line(done) == (
        "sheepfold serve: --tls-cert and --tls-key serve TLS on TCP addresses "
        "alone, and every --listen is a Unix socket (never TLS): add a --listen "
        "HOST:PORT, or leave them out"
    )
    assert not Path(tmp_path, "arena.sock").exists()
