"""A renewed TLS certificate is served without a restart: `serve` reads its
`--tls-cert` and `--tls-key` again when they change, keeps the previous pair
while the new one cannot be used, and leaves open connections alone."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import log_entries, wait_until
from tests.tls_files import encrypted, self_signed

pytestmark = pytest.mark.e2e


def _answers(address: str, trusted: Path) -> bool:
    """Whether a new connection that trusts only `trusted` gets a health answer."""
    credentials = grpc.ssl_channel_credentials(root_certificates=trusted.read_bytes())
    options = [("grpc.use_local_subchannel_pool", 1)]  # a connection of its own
    with grpc.secure_channel(address, credentials, options=options) as channel:
        try:
            health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error
            return False
        return True


def _install(source: Path, target: Path) -> None:
    """Replace `target` at once, as certbot and Kubernetes do."""
    partial = target.with_suffix(".partial")
    shutil.copyfile(source, partial)
    os.replace(partial, target)


def test_a_renewed_certificate_is_served_from_the_next_connection(tmp_path: Path) -> None:
    old_cert, old_key = self_signed(tmp_path / "old")
    new_cert, new_key = self_signed(tmp_path / "new")
    third_cert, third_key = self_signed(tmp_path / "third")
    live = tmp_path / "live"
    live.mkdir()
    cert, key = live / "cert.pem", live / "key.pem"
    shutil.copyfile(old_cert, cert)
    shutil.copyfile(old_key, key)
    tls = ("--tls-cert", str(cert), "--tls-key", str(key))
    server = start_server_process("--db", ":memory:", *tls)

    def events() -> list[Mapping[str, object]]:
        return [e for e in log_entries(server.log_lines) if "TLS" in str(e["event"])]

    try:
        assert _answers(server.address, old_cert)
        assert not _answers(server.address, new_cert)
        kept = grpc.secure_channel(
            server.address,
            grpc.ssl_channel_credentials(root_certificates=old_cert.read_bytes()),
            options=[("grpc.use_local_subchannel_pool", 1)],
        )
        health = health_pb2_grpc.HealthStub(kept)
        health.Check(health_pb2.HealthCheckRequest(), timeout=5)

        _install(new_key, key)
        _install(new_cert, cert)
        assert _answers(server.address, new_cert)
        assert not _answers(server.address, old_cert)
        health.Check(health_pb2.HealthCheckRequest(), timeout=5)  # its connection goes on
        kept.close()
        wait_until(lambda: any(e["event"] == "TLS certificate reloaded" for e in events()))

        # A certificate whose key has not arrived yet: the pair served so far stays.
        _install(third_cert, cert)
        assert _answers(server.address, new_cert)
        wait_until(lambda: any("is not the key of" in str(e.get("reason")) for e in events()))
        _install(third_key, key)
        assert _answers(server.address, third_cert)

        # A file that is no certificate (a copy cut short) is refused the same way.
        cert.write_text("-----BEGIN CERTIFICATE-----\ncut short")
        assert _answers(server.address, third_cert)
        cert.unlink()
        assert _answers(server.address, third_cert)
        wait_until(lambda: any("No such file" in str(e.get("reason")) for e in events()))
        warnings = [e for e in events() if e["level"] == "warning"]
        assert len(warnings) == 3, warnings  # once per state of the files, not per handshake
        assert all("cannot be served" in str(e["event"]) for e in warnings)
    finally:
        assert stop_server_process(server) == 0


def test_a_renewed_key_encrypted_with_a_pass_phrase_keeps_the_served_pair(tmp_path: Path) -> None:
    """A renewal that left the key encrypted: OpenSSL asked for its pass phrase
    on gRPC's handshake thread (on the server's terminal when it had one,
    every later handshake waiting behind it) and the log said only "TLS
    certificate check failed" with "[Errno 22] Invalid argument"."""
    old_cert, old_key = self_signed(tmp_path / "old")
    new_cert, new_key = self_signed(tmp_path / "new")
    live = tmp_path / "live"
    live.mkdir()
    cert, key = live / "cert.pem", live / "key.pem"
    shutil.copyfile(old_cert, cert)
    shutil.copyfile(old_key, key)
    server = start_server_process(
        "--db", ":memory:", "--tls-cert", str(cert), "--tls-key", str(key)
    )
    try:
        assert _answers(server.address, old_cert)
        _install(encrypted(new_key), key)
        _install(new_cert, cert)
        assert _answers(server.address, old_cert)
        entries = lambda: [e for e in log_entries(server.log_lines) if "TLS" in str(e["event"])]  # noqa: E731
        wait_until(lambda: any("cannot be served" in str(e["event"]) for e in entries()))
        warned = [e for e in entries() if e["level"] != "info"]
        assert len(warned) == 1 and warned[0]["level"] == "warning", warned
        assert "is encrypted with a pass phrase" in str(warned[0]["reason"]), warned
        _install(new_key, key)
        assert _answers(server.address, new_cert)
    finally:
        assert stop_server_process(server) == 0
