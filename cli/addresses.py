"""Checking a server address on the command line, before anything connects.

gRPC takes a port like 99999 modulo 65536 and dials 34463 without a word; the
argparse type here refuses it with one line instead.
"""

from __future__ import annotations

import argparse

from clients.connect import check_address


def server_address(text: str) -> str:
    """An argparse type: HOST:PORT (port 1..65535), [IPv6]:PORT, or unix:PATH."""
    if "," in text and not text.startswith("unix:"):
        # Only `tournament run --ray` spreads games over several (server_addresses).
        raise argparse.ArgumentTypeError(
            f"{text!r} names several servers; this command plays on one HOST:PORT"
        )
    try:
        return check_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def server_addresses(text: str) -> str:
    """An argparse type: one or more server addresses, comma-separated, each
    checked as `server_address` does (checked whole, only the last port was)."""
    addresses = [address.strip() for address in text.split(",")]
    if not all(addresses):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty address between its commas")
    return ",".join(server_address(address) for address in addresses)
