"""`serve --tls-cert --tls-key` given a file that holds nothing of its kind names
that file, in one line: it said "--tls-cert A and --tls-key B are not a PEM
certificate and its key ([SSL] PEM lib (_ssl.c:3905))" whichever file was
wrong (garbage, empty, the two swapped, the certificate given twice), leaving
the operator to guess which, with OpenSSL's source line for a reason. A
renewal that writes such a file is warned of in the same words."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import grpc
import pytest

from tests.cli.helpers import one_line, sheepfold
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import self_signed

pytestmark = pytest.mark.e2e


def serve(cert: Path, key: Path) -> subprocess.CompletedProcess[str]:
    return sheepfold(
        "serve", "--port", "0", "--db", ":memory:", "--tls-cert", str(cert), "--tls-key", str(key),
        timeout=30,
    )  # fmt: skip


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    return self_signed(tmp_path / "tls")


@pytest.mark.parametrize(
    "contents",
    [b"", b"not a certificate\n", bytes(range(256))],
    ids=["empty", "text", "binary"],
)
def test_a_certificate_file_without_a_certificate_is_named(
    pair: tuple[Path, Path], tmp_path: Path, contents: bytes
) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_bytes(contents)
    done = serve(cert, pair[1])
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --tls-cert {cert} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    )


def test_a_key_file_without_a_key_is_named(pair: tuple[Path, Path], tmp_path: Path) -> None:
    cert, _ = pair
    for key in (tmp_path / "garbage.pem", cert):  # garbage, and the certificate given twice
        if key != cert:
            key.write_bytes(b"\x00\x01 not a key")
        done = serve(cert, key)
        assert done.returncode == 1
        assert one_line(done) == (
            f"sheepfold serve: --tls-key {key} holds no PEM private key "
            "(-----BEGIN PRIVATE KEY-----)"
        )


def test_the_two_files_swapped_are_said_to_be_swapped(pair: tuple[Path, Path]) -> None:
    cert, key = pair
    done = serve(key, cert)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --tls-cert {key} holds a private key and --tls-key {cert} a "
        "certificate: swap them"
    )


def test_a_renewal_that_writes_a_key_without_one_is_warned_of_by_name(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    cert, key = pair
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        replacement = tmp_path / "new-key.pem"
        replacement.write_text("not a key\n")
        replacement.replace(key)
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with grpc.secure_channel(server.address, credentials) as channel:
            # the old pair is still served: a new connection's handshake succeeds
            grpc.channel_ready_future(channel).result(timeout=30)
        expected = f"--tls-key {key} holds no PEM private key (-----BEGIN PRIVATE KEY-----)"
        for _ in range(100):
            warnings = [json.loads(line) for line in server.log_lines if "cannot be served" in line]
            if warnings:
                break
            time.sleep(0.05)
        assert [warning["reason"] for warning in warnings] == [expected]
    finally:
        assert stop_server_process(server) == 0


def test_two_files_without_their_kind_are_both_named(pair: tuple[Path, Path]) -> None:
    """DER files (a Windows export, `-outform DER`) for both flags: the line named
    the certificate alone, and once it was fixed serve stopped again on the key."""
    cert, key = pair
    der_cert, der_key = cert.with_suffix(".der"), key.with_suffix(".der")
    openssl = {"check": True, "capture_output": True}
    subprocess.run(["openssl", "x509", "-in", cert, "-outform", "DER", "-out", der_cert], **openssl)  # type: ignore[call-overload]
    subprocess.run(["openssl", "pkey", "-in", key, "-outform", "DER", "-out", der_key], **openssl)  # type: ignore[call-overload]
    done = serve(der_cert, der_key)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --tls-cert {der_cert} holds no PEM certificate "
        f"(-----BEGIN CERTIFICATE-----) and --tls-key {der_key} no PEM private key "
        "(-----BEGIN PRIVATE KEY-----)"
    )
