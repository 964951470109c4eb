"""TLS for the commands that call a server (`create`, `match --server`, `bot`,
`health`, `web`, `tournament run --server`, `tournament sprt --server`): the
flags, and the credentials they stand for, checked before anything connects."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cli.values import file_path, usage_error
from server.files import UnusablePem, read_pem

if TYPE_CHECKING:
    import grpc

    from clients.connect import ServerTls

__all__ = ["add_tls_flags", "client_credentials", "server_tls"]

CERTIFICATE = re.compile(rb"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----\s*", re.S)


def add_tls_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tls",
        action="store_true",
        help="connect with TLS, checking the server's certificate against the system's "
        "certificate authorities (a server started with --tls-cert)",
    )
    parser.add_argument(
        "--tls-ca",
        type=file_path,
        metavar="FILE",
        help="connect with TLS, checking the server's certificate against this PEM file "
        "(its own certificate if self-signed); implies --tls",
    )


def client_credentials(
    args: argparse.Namespace, command: str, address: str | None
) -> grpc.ChannelCredentials | None:
    """The channel credentials the flags ask for to reach `address`; None for
    plaintext. See `server_tls`."""
    from clients.connect import tls_credentials

    return tls_credentials(server_tls(args, command, [address] if address else []))


def server_tls(
    args: argparse.Namespace, command: str, addresses: Sequence[str]
) -> ServerTls | None:
    """What the flags ask for to reach `addresses`; None for plaintext. A CA
    file that cannot be used, or TLS asked for over a Unix socket (the server
    never serves TLS there), ends the command with one line, a usage error
    (exit 2) for every command, as for `tournament`: `match`, `create`, `bot`,
    `health` and `web` once exited 1, the status of a call that failed."""
    import ssl

    from clients.connect import ServerTls

    if args.tls_ca is None and not args.tls:
        return None
    if any(address.startswith("unix") for address in addresses):
        usage_error(
            f"sheepfold {command}: --tls and --tls-ca are for TCP addresses; a Unix "
            "socket is never served with TLS"
        )
    if args.tls_ca is None:
        return ServerTls()
    where = f"sheepfold {command}: --tls-ca {args.tls_ca}"
    try:
        pem = read_pem(args.tls_ca)
    except UnusablePem as why:
        usage_error(f"{where}: {why}")
    # Only the certificate blocks are checked: a bundle's comments may name an
    # authority in any language, and an empty file would load as no authority.
    blocks = CERTIFICATE.findall(pem)
    try:
        if not blocks:
            raise ValueError("no certificate")
        ssl.create_default_context(cadata=b"".join(blocks).decode("ascii"))
    except (ssl.SSLError, ValueError):  # UnicodeDecodeError is a ValueError
        usage_error(f"{where}: holds no PEM certificate")
    return ServerTls(pem)
