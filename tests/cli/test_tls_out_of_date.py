"""A server certificate that is trusted but out of its dates (expired, or not yet
valid) is said so by the client commands, with what fixes it: they once called
it "not trusted" and told the user to give it with --tls-ca FILE, which they had
done and which cannot help."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import one_line, sheepfold
from tests.conftest import start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

CA_CONFIG = """\
[ca]
default_ca = dated
[dated]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
[any_name]
commonName = supplied
[names]
subjectAltName = DNS:localhost,IP:127.0.0.1
"""


def dated_self_signed(directory: Path, start: str, end: str) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 valid from `start`
    to `end` (YYYYMMDDHHMMSSZ), and its key: `openssl ca` sets dates in the past
    or the future, which `openssl req -x509 -days` cannot."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "index.txt").write_text("")
    (directory / "serial").write_text("01\n")
    (directory / "ca.cnf").write_text(CA_CONFIG)
    cert, key = directory / "cert.pem", directory / "key.pem"
    openssl = ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost"]
    run = {"cwd": directory, "check": True, "capture_output": True}
    subprocess.run([*openssl, "-keyout", str(key), "-out", "request.csr"], **run)  # type: ignore[call-overload]
    subprocess.run(
        [
            "openssl", "ca", "-batch", "-selfsign", "-config", "ca.cnf", "-keyfile", str(key),
            "-in", "request.csr", "-out", str(cert), "-extensions", "names",
            "-startdate", start, "-enddate", end,
        ],
        **run,  # type: ignore[arg-type]
    )  # fmt: skip
    return cert, key


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
