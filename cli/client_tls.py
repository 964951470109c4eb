"""TLS for the commands that call a server (`create`, `match --server`, `bot`,
`health`): the flags, and the credentials they stand for, checked before
anything connects."""

from __future__ import annotations

import argparse
import os
import ssl

import grpc

from server.files import UnusablePem, read_pem

__all__ = ["add_tls_flags", "client_credentials"]


def add_tls_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tls",
        action="store_true",
        help="connect with TLS, checking the server's certificate against the system's "
        "certificate authorities (a server started with --tls-cert)",
    )
    parser.add_argument(
        "--tls-ca",
        metavar="FILE",
        default=os.environ.get("SHEEPFOLD_TLS_CA") or None,
        help="connect with TLS, checking the server's certificate against this PEM file "
        "(its own certificate if self-signed); implies --tls (default: $SHEEPFOLD_TLS_CA)",
    )


def client_credentials(args: argparse.Namespace, command: str) -> grpc.ChannelCredentials | None:
    """The channel credentials the flags ask for; None for plaintext. A CA file
    that cannot be used ends the command with one line (SystemExit)."""
    if args.tls_ca is None:
        return grpc.ssl_channel_credentials() if args.tls else None
    where = f"sheepfold {command}: --tls-ca {args.tls_ca}"
    try:
        pem = read_pem(args.tls_ca)
    except UnusablePem as why:
        raise SystemExit(f"{where}: {why}") from None
    try:
        ssl.create_default_context(cadata=pem.decode("ascii"))
    except (ssl.SSLError, UnicodeDecodeError, ValueError):
        raise SystemExit(f"{where}: holds no PEM certificate") from None
    return grpc.ssl_channel_credentials(root_certificates=pem)
