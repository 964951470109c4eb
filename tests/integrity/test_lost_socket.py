"""A Unix socket the server listens on deleted or replaced while it runs: no
client can connect through it any more, and the server cannot listen on it
again. It says so in one error line and turns NOT_SERVING (a supervisor's
probe then restarts it), and at its stop leaves alone a file that took the
name (gRPC itself, at its stop, deletes any socket there).

Before, nothing said so: the server went on as if its clients could reach it,
and at its stop deleted whatever file then had the name."""

from __future__ import annotations

from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import health_status, log_entries, wait_until

pytestmark = pytest.mark.e2e

LOST = "listening socket deleted or replaced"


@pytest.mark.parametrize("replace", [False, True], ids=["deleted", "replaced"])
def test_a_lost_unix_socket_is_told(tmp_path: Path, replace: bool) -> None:
    path = tmp_path / "arena.sock"
    server = start_server_process("--listen", "127.0.0.1:0", "--listen", f"unix:{path}")
    try:
        assert health_status(f"unix:{path}") == health_pb2.HealthCheckResponse.SERVING
        path.unlink()
        if replace:
            path.write_text("another program's file\n")
        wait_until(
            lambda: any(e["event"] == LOST for e in log_entries(server.log_lines)),
            10,
            "the server noticing",
        )
        (lost,) = [e for e in log_entries(server.log_lines) if e["event"] == LOST]
        assert lost["path"] == str(path) and lost["level"] == "error", lost
        assert ("replaced" if replace else "deleted") in str(lost["problem"]), lost
        assert health_status(server.address) == health_pb2.HealthCheckResponse.NOT_SERVING
        # Only a restart mends it: a liveness probe restarts the server (once
        # `liveness` stayed SERVING, and the manifests' probe never did).
        not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
        assert health_status(server.address, "liveness") == not_serving
    finally:
        assert stop_server_process(server) == 0
    assert path.exists() == replace, "what took the name is left alone"
