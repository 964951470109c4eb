"""`serve` warns when the certificate it serves is out of its dates (expired, or
not yet valid), at start and when a renewal brings one: it started and reloaded
such a certificate without a word, and the operator learned of it only from
clients that every one refused it."""

from __future__ import annotations

import calendar
import json
import shutil
import time
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from server.tls_reload import ReloadingCertificate
from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import dated_self_signed, self_signed

pytestmark = pytest.mark.e2e

WARNING = (
    "TLS certificate out of date: clients that check it refuse it; "
    "serve a renewed one (it is read again at the next connection)"
)


def warnings(server: ServerProcess) -> list[dict[str, object]]:
    found = [json.loads(line) for line in list(server.log_lines) if WARNING in line]
    return [{k: v for k, v in entry.items() if k in ("reason", "tls_cert")} for entry in found]


@pytest.mark.parametrize(
    ("dates", "reason"),
    [
        (("20200101000000Z", "20200201000000Z"), "certificate has expired"),
        (("20900101000000Z", "20900201000000Z"), "certificate is not yet valid"),
    ],
    ids=["expired", "not yet valid"],
)
def test_a_certificate_out_of_date_at_start_is_warned_of(
    tmp_path: Path, dates: tuple[str, str], reason: str
) -> None:
    cert, key = dated_self_signed(tmp_path, *dates)
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert warnings(server) == [{"reason": reason, "tls_cert": str(cert)}]
    finally:
        assert stop_server_process(server) == 0


def test_a_certificate_in_date_is_not_warned_of_and_a_renewal_out_of_date_is(
    tmp_path: Path,
) -> None:
    cert, key = self_signed(tmp_path / "served")
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert warnings(server) == []
        old_cert, old_key = dated_self_signed(
            tmp_path / "renewal", "20200101000000Z", "20200201000000Z"
        )
        # Replaced whole, key first, as the docs ask.
        shutil.copy(old_key, tmp_path / "new-key.pem")
        (tmp_path / "new-key.pem").replace(key)
        shutil.copy(old_cert, tmp_path / "new-cert.pem")
        (tmp_path / "new-cert.pem").replace(cert)
        credentials = grpc.ssl_channel_credentials(root_certificates=old_cert.read_bytes())
        with (
            grpc.secure_channel(server.address, credentials) as channel,
            pytest.raises(grpc.RpcError) as refused,  # a new connection reloads the pair
        ):
            arena_pb2_grpc.ArenaStub(channel).ListGames(arena_pb2.ListGamesRequest(), timeout=30)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE  # the client refuses it
        for _ in range(100):
            if warnings(server):
                break
            time.sleep(0.05)
        assert warnings(server) == [{"reason": "certificate has expired", "tls_cert": str(cert)}]
    finally:
        assert stop_server_process(server) == 0


class CollectedLog:
    """The lines a ReloadingCertificate logs, as (level, event, fields)."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, dict[str, object]]] = []

    def info(self, event: str, **fields: object) -> None:
        self.lines.append(("info", event, fields))

    def warning(self, event: str, **fields: object) -> None:
        self.lines.append(("warning", event, fields))

    def error(self, event: str, **fields: object) -> None:
        self.lines.append(("error", event, fields))

    def out_of_date(self) -> list[object]:
        return [fields["reason"] for _, event, fields in self.lines if event == WARNING]


def test_a_certificate_that_expires_while_served_is_warned_of_once(tmp_path: Path) -> None:
    """The usual way a certificate goes out of date is time passing while it is
    served (a renewal that failed): with the check made only at start and at a
    reload, such a server never said a word of it."""
    ends = time.gmtime(time.time() + 3)
    cert, key = dated_self_signed(tmp_path, "20200101000000Z", time.strftime("%Y%m%d%H%M%SZ", ends))
    log = CollectedLog()
    certificate = ReloadingCertificate(cert, key, log, date_check_seconds=0.0)
    certificate.credentials()
    assert log.out_of_date() == []
    time.sleep(max(0.0, calendar.timegm(ends) + 1.5 - time.time()))
    # What gRPC's core calls at each new connection, the files unchanged.
    for _ in range(5):
        assert certificate._fetch() is None  # the pair served so far stays
    assert log.out_of_date() == ["certificate has expired"]  # once, not at every connection
