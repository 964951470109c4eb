"""Checking a server address on the command line, before anything connects.

gRPC takes a port like 99999 modulo 65536 and dials 34463 without a word; the
argparse type here refuses it with one line instead.
"""

from __future__ import annotations

import argparse

from clients.connect import check_address


def server_address(text: str) -> str:
    """An argparse type: HOST:PORT (port 1..65535), [IPv6]:PORT, or unix:PATH."""
    try:
        return check_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
