"""The server's TLS certificate, read again when its files change.

Certificates are renewed on disk (certbot, cert-manager, a Kubernetes Secret
updated in place); a server that read them once would serve the old one until
it expires, and a restart to pick up the new one cuts every match in play.
gRPC asks for the certificate at every new TLS handshake, so the files are
checked then (two `stat` calls) and read again only when they have changed.
Connections already open keep the certificate they started with.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import grpc

from server.listening import ListenError, check_tls_pair, out_of_date, read_tls_pem

FileSignature = tuple[int, int, int, int, int]

# How often the dates of the certificate served are judged again with its files
# unchanged: one served for months expires with no reload to tell of it.
DATE_CHECK_SECONDS = 3600.0


def _signature(path: Path) -> FileSignature:
    """What changes when a file is rewritten or replaced (`stat` follows symlinks:
    a Kubernetes Secret swaps a symlink to a new folder)."""
    found = os.stat(path)
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


class ReloadingCertificate:
    """`--tls-cert` and `--tls-key` as gRPC server credentials that follow the files.

    A change that cannot be used (a half-written file, a certificate whose key
    has not been replaced yet, a file gone) keeps the certificate served so far
    and logs a warning once; the next change is tried again.
    """

    def __init__(
        self, cert: Path, key: Path, log: Any, date_check_seconds: float = DATE_CHECK_SECONDS
    ) -> None:
        self._cert = cert
        self._key = key
        self._log = log
        self._lock = threading.Lock()
        self._tried: tuple[FileSignature, FileSignature] | None = None
        self._last_warning: str | None = None
        self._date_check_seconds = date_check_seconds
        self._next_date_check = 0.0
        self._out_of_date: str | None = None  # warned of for the pair served now

    def credentials(self) -> grpc.ServerCredentials:
        """The credentials for every TLS port; ListenError when the files as they
        are now cannot be served (so that `serve` stops before it listens)."""
        try:
            self._tried = self._signatures()  # before the files are read
        except OSError:
            self._tried = None  # a file missing: reading it names its flag, below
        initial = self._configuration()
        self._warn_out_of_date()
        return grpc.dynamic_ssl_server_credentials(
            initial, self._fetch, require_client_authentication=False
        )

    def _signatures(self) -> tuple[FileSignature, FileSignature]:
        return _signature(self._cert), _signature(self._key)

    def _configuration(self) -> grpc.ServerCertificateConfiguration:
        key = read_tls_pem(self._key, "key")
        cert = read_tls_pem(self._cert, "cert")
        check_tls_pair(self._cert, self._key)
        return grpc.ssl_server_certificate_configuration([(key, cert)])

    def _fetch(self) -> grpc.ServerCertificateConfiguration | None:
        """Called by gRPC's core on its own threads at each new handshake: None
        keeps the certificate served so far. Never raises: a failure here would
        fail the handshake of a client that did nothing wrong."""
        try:
            with self._lock:
                try:
                    now = self._signatures()
                except OSError as error:  # a file gone, perhaps for a moment
                    self._warn(f"{error.filename}: {error.strerror}")
                    return None
                if now == self._tried:
                    if time.monotonic() >= self._next_date_check:
                        self._warn_out_of_date()
                    return None
                self._tried = now  # each state of the files is read once
                try:
                    configuration = self._configuration()
                except ListenError as why:
                    self._warn(str(why))
                    return None
                self._last_warning = None
                self._out_of_date = None
                self._log.info(
                    "TLS certificate reloaded", tls_cert=str(self._cert), tls_key=str(self._key)
                )
                self._warn_out_of_date()
                return configuration
        except Exception as error:  # any: see the docstring
            self._log.error("TLS certificate check failed", error=repr(error))
            return None

    def _warn_out_of_date(self) -> None:
        """A certificate out of its dates is served (the operator may be about to
        renew it), with a warning: every client refuses it, and the server's log
        said nothing of it. Judged at start, at a reload and every
        `date_check_seconds` at a connection, and warned of once for each pair
        served (it once went unsaid when the certificate expired while served)."""
        self._next_date_check = time.monotonic() + self._date_check_seconds
        why = out_of_date(self._cert, self._key)
        if why and why != self._out_of_date:
            self._out_of_date = why
            self._log.warning(
                "TLS certificate out of date: clients that check it refuse it; "
                "serve a renewed one (it is read again at the next connection)",
                reason=why,
                tls_cert=str(self._cert),
            )

    def _warn(self, reason: str) -> None:
        if reason != self._last_warning:
            self._last_warning = reason
            self._log.warning(
                "TLS certificate files changed but cannot be served; "
                "serving the previous certificate until they are fixed",
                reason=reason,
            )
