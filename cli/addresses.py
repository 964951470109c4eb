"""Checking a server address on the command line, before anything connects.

gRPC takes a port like 99999 modulo 65536 and dials 34463 without a word; the
argparse type here refuses it with one line instead.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import posixpath

from clients.address_check import MAX_PORT, check_address, port_out_of_range
from clients.whole_numbers import ascii_whole_number


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
    checked as `server_address` does (checked whole, only the last port was),
    and no server twice: the games are dealt to the servers in turn, so one
    listed twice would silently play twice its share."""
    if "," not in text:
        # One server, checked as given, as every other command checks its
        # --server: spaces are only room after a list's commas.
        return server_address(text)
    addresses = [address.strip() for address in text.split(",")]
    if not all(addresses):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty address between its commas")
    checked = [server_address(address) for address in addresses]
    seen: dict[str, str] = {}
    for address in checked:
        key = same_server(address)
        if key in seen:
            first = seen[key]
            twice = f"{address} twice" if first == address else f"{first} twice (as {address})"
            raise argparse.ArgumentTypeError(
                f"{text!r} names the server {twice}: it would play twice its share "
                "of the games; list each server once"
            )
        seen[key] = address
    return ",".join(checked)


def same_server(address: str) -> str:
    """What two spellings of one server have in common, from the text alone:
    the host's letter case, an IP literal's form (::1, [0:0::1]), a port's
    leading zeros and unix:PATH against unix://PATH do not matter. Host names
    are not resolved (localhost and 127.0.0.1 stay apart): each Ray worker
    resolves them on its own node, where they may name another machine."""
    scheme, _, rest = address.partition(":")
    if scheme == "unix":
        path = rest[2:] if rest.startswith("//") else rest
        return "unix:" + posixpath.normpath(path)
    if scheme in ("dns", "ipv4", "ipv6", "unix-abstract"):
        return address
    host, _, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]").lower()
    with contextlib.suppress(ValueError):  # a host name stays as it is
        host = str(ipaddress.ip_address(host))
    return f"{host}:{int(port)}"


def ray_address(text: str) -> str:
    """An argparse type for `--ray ADDRESS`: the address, refused when empty or
    blank. `--ray` alone starts a Ray instance on this machine, and `--ray ""`
    (a `--ray "$HEAD"` whose variable is unset) once did the same without a word,
    where a cluster was meant; the address's form is checked before Ray joins it
    (tournament.executors.ray_address)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a Ray address (HOST:PORT or auto); leave ADDRESS out "
            "to start Ray on this machine"
        )
    # Its port's range is checked here, as every other address's is: Ray's own
    # check, after the config is read, said "is not HOST:PORT" of 127.0.0.1:99999.
    host, sep, port_text = text.removeprefix("ray://").rpartition(":")
    port = ascii_whole_number(port_text)
    if sep and host and port is not None and not 1 <= port <= MAX_PORT:
        raise argparse.ArgumentTypeError(port_out_of_range(text, port_text))
    return text
