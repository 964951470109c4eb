"""A server certificate that is trusted but out of its dates (expired, or not yet
valid) is said so by the client commands, with what fixes it: they once called
it "not trusted" and told the user to give it with --tls-ca FILE, which they had
done and which cannot help."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import one_line, sheepfold
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import dated_self_signed

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module", params=["expired", "not yet valid"])
def dated_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, ServerProcess, Path]]:
    dates = {
        "expired": ("20200101000000Z", "20200201000000Z"),
        "not yet valid": ("20900101000000Z", "20900201000000Z"),
    }[request.param]
    cert, key = dated_self_signed(tmp_path_factory.mktemp("dated"), *dates)
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    yield request.param, server, cert
    assert stop_server_process(server) == 0


EXPECTED = {
    "expired": "the server's certificate has expired: the server must serve a renewed one "
    "(or this machine's clock is wrong)",
    "not yet valid": "the server's certificate is not yet valid: this machine's clock is "
    "behind, or the certificate's start date is ahead",
}


def test_health_says_the_certificate_is_out_of_date(
    dated_server: tuple[str, ServerProcess, Path],
) -> None:
    which, server, cert = dated_server
    done = sheepfold("health", "--addr", server.address, "--tls-ca", str(cert))
    assert done.returncode == 1
    line = one_line(done)
    assert line == (
        f"sheepfold health: {server.address}: UNAVAILABLE: the TLS handshake failed: "
        f"{EXPECTED[which]}"
    )


def test_create_says_the_certificate_is_out_of_date(
    dated_server: tuple[str, ServerProcess, Path],
) -> None:
    which, server, cert = dated_server
    done = sheepfold(
        "create", "--server", server.address, "--tls-ca", str(cert),
        "--game", "sheep-showdown", "--players", "2",
    )  # fmt: skip
    assert done.returncode == 1
    line = one_line(done)
    assert line == (
        f"sheepfold create: cannot reach the server at {server.address}: "
        f"the TLS handshake failed: {EXPECTED[which]}"
    )
    assert "--tls-ca FILE" not in line
