"""Checking a server address's form, before anything connects: apart from
clients.connect so that the command line's flag checks need no gRPC."""

from __future__ import annotations

MAX_PORT = 65535


def unbracketed_ipv6(host: str) -> bool:
    """Whether `host`, the part of HOST:PORT before the port, is an IPv6 address
    out of its brackets or half in them: gRPC read "::1:50051" as host
    "::1:50051" (on port 443) and looked "[::1" up as a host name."""
    return host.startswith("[") != host.endswith("]") or (":" in host and not host.startswith("["))


def check_address(text: str) -> str:
    """`text` if it is HOST:PORT with a port 1..65535 (or a gRPC unix: target), else ValueError.

    gRPC takes port 99999 modulo 65536 without a word; this refuses it.
    """
    if text.startswith(("unix:", "unix-abstract:", "dns:", "ipv4:", "ipv6:")):
        if not text.partition(":")[2].strip("/"):
            raise ValueError(f"{text!r} names no address after its scheme (e.g. unix:/run/x.sock)")
        return text
    host, sep, port_text = text.rpartition(":")
    if not sep or not host or not port_text or port_text.endswith("]"):
        raise ValueError(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:50051)")
    # int() takes " 50", "5_0" and other scripts' digits; gRPC does not, and
    # named the host: "the host name does not resolve".
    if not (port_text.isascii() and port_text.isdigit()):
        raise ValueError(f"{text!r}: {port_text!r} is not a port number")
    if unbracketed_ipv6(host):
        raise ValueError(f"{text!r}: an IPv6 address goes in brackets (e.g. [::1]:50051)")
    port = int(port_text)
    if not 1 <= port <= MAX_PORT:
        raise ValueError(f"{text!r}: {port} is not a port: use 1 to {MAX_PORT}")
    return text
