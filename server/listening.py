"""Checks before the server listens, so a bad address fails in one plain line:
gRPC itself says little more than "Failed to bind"."""

from __future__ import annotations

import contextlib
import os
import socket
import ssl
import stat
from collections.abc import Callable
from pathlib import Path

from server.files import UnusablePem, read_pem

__all__ = [
    "ListenError",
    "add_port",
    "bind_failure",
    "check_can_listen",
    "check_socket_folder",
    "check_tls_pair",
    "host_port",
    "out_of_date",
    "read_tls_pem",
]


class ListenError(OSError):
    """The server cannot listen where it was told to (port taken, bad address)."""


def host_port(host: str, port: int | str) -> str:
    """HOST:PORT as gRPC reads it: an IPv6 address in brackets ("::1:50051" is
    no address to gRPC, which then says only that it could not bind)."""
    host = host.removeprefix("[").removesuffix("]")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# How a taken --health-port is told, by serve's checks and the server's own: it
# once said "cannot listen", as the main port does, leaving which to the reader.
HEALTH_REFUSAL = "cannot serve health checks"


def check_can_listen(host: str, port: int, what: str = "cannot listen") -> None:
    """Fail with a plain reason before gRPC does (it only says "Failed to bind");
    `what` begins the message ("cannot serve metrics", say). An IPv6 address
    is named in brackets, "[::1]:50051": it was once run together with its
    port, "::1:50051", which names no address."""
    host = host.removeprefix("[").removesuffix("]")
    named = host_port(host, port)
    if not 0 <= port <= 65535:
        raise ListenError(f"{what} on {named}: ports go from 0 to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise ListenError(f"{what} on {named}: {error.strerror}") from None
    except UnicodeError as error:  # a label over 63 characters, say
        raise ListenError(f"{what} on {named}: not a host name ({error})") from None
    # Port 0 (any free port) is probed too: nothing can be taken, but the
    # address may be one this machine does not have.
    family, kind, proto, _, sockaddr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does
        try:
            probe.bind(sockaddr)
        except OSError as error:
            why = (error.strerror or str(error)).lower()
            raise ListenError(f"{what} on {named}: {why}") from None


def read_tls_pem(path: Path, which: str) -> bytes:
    try:
        return read_pem(path)
    except UnusablePem as why:
        raise ListenError(f"--tls-{which} {path}: {why}") from None


class _AsksForPassPhrase(Exception):
    """The key is encrypted: OpenSSL asked for its pass phrase."""


def _no_pass_phrase() -> bytes:
    """Asked for an encrypted key's pass phrase: refuse. Without a callback
    OpenSSL prompts on the terminal ("Enter PEM pass phrase:"), which held
    `serve`, or a TLS reload on one of gRPC's threads, reading it."""
    raise _AsksForPassPhrase


def check_tls_pair(cert: Path, key: Path) -> None:
    """Refuse a key that does not belong to its certificate, files that hold
    neither, or a key encrypted with a pass phrase, in one line: gRPC would
    print its own lines and then report that it could not bind the port."""
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key, _no_pass_phrase)
    except _AsksForPassPhrase:
        raise ListenError(
            f"--tls-key {key} is encrypted with a pass phrase, which the server cannot "
            f"be given: serve an unencrypted copy (openssl pkey -in {key} -out NEW.pem), "
            "readable by the server's user only"
        ) from None
    except ssl.SSLError as error:
        if "KEY_VALUES_MISMATCH" in str(error):
            raise ListenError(f"--tls-key {key} is not the key of --tls-cert {cert}") from None
        which = _not_pem(cert, key)
        if which:
            raise ListenError(which) from None
        reason = error.reason or str(error)
        raise ListenError(
            f"--tls-cert {cert} and --tls-key {key} are not a PEM certificate and its "
            f"key ({reason})"
        ) from None


# OpenSSL's words for a certificate out of its dates, which every client that
# checks the certificate refuses.
OUT_OF_DATE = ("certificate has expired", "certificate is not yet valid")


def out_of_date(cert: Path, key: Path) -> str | None:
    """Why the pair (already checked by check_tls_pair) is out of its dates now,
    in OUT_OF_DATE's words, or None. Told by a TLS handshake in memory with a
    client that trusts the certificate itself, so that OpenSSL judges the dates
    as a client will."""
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    try:
        server.load_cert_chain(cert, key, _no_pass_phrase)
        client.load_verify_locations(cafile=cert)
    except (OSError, ssl.SSLError, _AsksForPassPhrase):
        return None  # changed since it was checked: the next reload says why
    client.check_hostname = False
    client.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # the leaf is trusted as it is
    to_server, to_client = ssl.MemoryBIO(), ssl.MemoryBIO()
    ends = (
        client.wrap_bio(to_client, to_server),
        server.wrap_bio(to_server, to_client, server_side=True),
    )
    for _ in range(10):
        for end in ends:
            try:
                end.do_handshake()
            except ssl.SSLWantReadError:
                pass
            except ssl.SSLCertVerificationError as error:
                return error.verify_message if error.verify_message in OUT_OF_DATE else None
            except ssl.SSLError:
                return None
    return None


def _not_pem(cert: Path, key: Path) -> str | None:
    """Which of the two files holds nothing of its kind, said so, or None. OpenSSL
    says only "[SSL] PEM lib (_ssl.c:3905)", the same for either file."""
    try:
        cert_text, key_text = read_pem(cert), read_pem(key)
    except UnusablePem:
        return None  # changed since it was read: the general line says enough
    certificate, private_key = b"-----BEGIN CERTIFICATE-----", b"PRIVATE KEY-----"
    has_cert, has_key = certificate in cert_text, private_key in key_text
    if not has_cert and not has_key and private_key in cert_text and certificate in key_text:
        return f"--tls-cert {cert} holds a private key and --tls-key {key} a certificate: swap them"
    no_cert = f"--tls-cert {cert} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    if not has_cert and not has_key:  # both named, lest serve stop again on the second
        return f"{no_cert} and --tls-key {key} no PEM private key (-----BEGIN PRIVATE KEY-----)"
    if not has_cert:
        return no_cert
    if not has_key:
        return f"--tls-key {key} holds no PEM private key (-----BEGIN PRIVATE KEY-----)"
    return None


def bind_failure(error: OSError) -> str:
    """Why a bind failed, in a few words: asyncio's message repeats the address
    as a Python tuple ("error while attempting to bind on address ('127.0.0.1',
    8080): address already in use")."""
    if isinstance(error, socket.gaierror):  # its errno is getaddrinfo's, not errno's
        return error.strerror or str(error)
    if error.errno:
        return os.strerror(error.errno).lower()
    return str(error)


def check_socket_folder(address: str) -> None:
    """Fail with a plain reason when a `unix:` address's folder is missing or
    closed to us: gRPC would log a line of its own and say only that it could
    not bind. Also when a server already listens on that socket: gRPC would
    remove its socket file and take the address over, leaving that server
    unreachable (and the address gone once this one stops)."""
    path = address.removeprefix("unix://" if address.startswith("unix://") else "unix:")
    folder = Path(path).parent
    if not folder.is_dir():
        why = f"{folder} is not a folder" if folder.exists() else f"no folder {folder}"
        raise ListenError(f"cannot listen on {address}: {why}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ListenError(f"cannot listen on {address}: no permission to write in {folder}")
    if os.path.lexists(path):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise ListenError(f"cannot listen on {address}: {path} exists and is not a socket")
        if _socket_answers(path):
            raise ListenError(f"cannot listen on {address}: address already in use")
    elif (failure := _bind_failure(path)) is not None:
        raise ListenError(
            f"cannot listen on {address}: no socket file can be made there ({failure})"
        )


def _socket_answers(path: str) -> bool:
    """Whether a process accepts connections on the Unix socket at `path` (a
    socket file left by a process that has gone refuses them, and may go)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def add_port(add: Callable[[], int], address: str) -> int:
    try:
        return add()
    except RuntimeError:
        raise ListenError(f"cannot listen on {address}: gRPC could not bind it") from None


def _bind_failure(path: str) -> str | None:
    """Why no socket file can be made at `path`, found by binding one (and
    removing it): a folder such as /proc, which the checks above pass but
    where no file can be made, had gRPC log a line of its own and serve say
    only "gRPC could not bind it". None when the bind succeeds."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(path)
        except OSError as error:
            return bind_failure(error)
    with contextlib.suppress(OSError):
        os.unlink(path)
    return None
