"""Checking ports and server addresses on the command line, before anything runs.

gRPC takes a port like 99999 modulo 65536 and listens on 34463 without a word;
argparse types here refuse it with one line instead.
"""

from __future__ import annotations

import argparse

from clients.connect import MAX_PORT, check_address


def port(text: str) -> int:
    """An argparse type: a TCP port, 0..65535 (0 = any free port)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"{value} is not a port: use 0 to {MAX_PORT}")
    return value


def server_address(text: str) -> str:
    """An argparse type: HOST:PORT (port 1..65535), [IPv6]:PORT, or unix:PATH."""
    try:
        return check_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
