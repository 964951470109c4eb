"""Checking a server address's form, before anything connects: apart from
clients.connect so that the command line's flag checks need no gRPC."""

from __future__ import annotations

import ipaddress
import sys

from clients.whole_numbers import ascii_whole_number

MAX_PORT = 65535
# A socket address holds its path in sun_path, 108 bytes on Linux and 104 on
# macOS with its closing NUL; gRPC refuses a longer one only when it dials or
# binds, in its own log line ("Path name should not have more than 107 characters").
MAX_UNIX_PATH_BYTES = (104 if sys.platform == "darwin" else 108) - 1


def unix_path_problem(text: str) -> str | None:
    """Why the unix: or unix-abstract: target `text` cannot be a socket's
    address (its path too long, or a folder's), or None. unix://PATH is unix:PATH."""
    scheme, _, rest = text.partition(":")
    if scheme not in ("unix", "unix-abstract"):
        return None
    if scheme == "unix" and rest.startswith("//") and rest[2:3] not in ("", "/"):
        # unix://NAME is a host ("authority") named NAME, which gRPC refuses.
        name = rest[2:]
        return (
            f"unix:// takes an absolute path (unix:///run/{name}); "
            f"a relative one is unix:PATH (unix:{name})"
        )
    path = rest[2:] if scheme == "unix" and rest.startswith("//") else rest
    if scheme == "unix" and path.endswith("/"):
        return "a socket's path names a file, not a folder ending in '/'"
    size = len(path.encode("utf-8", "surrogateescape"))
    if size <= MAX_UNIX_PATH_BYTES:
        return None
    return (
        f"a Unix socket's path holds at most {MAX_UNIX_PATH_BYTES} bytes, "
        f"and this one has {size}: choose a shorter one"
    )


EXAMPLES = {"dns": "localhost:50051", "ipv4": "127.0.0.1:50051", "ipv6": "[::1]:50051"}


def network_target_problem(text: str) -> str | None:
    """Why the dns:, ipv4: or ipv6: target `text` cannot be dialled, or None.

    gRPC checks these only when it dials, and then printed its own multi-line
    log ("invalid ipv4 port: '99999'", a source location trace) before the
    command's "cannot reach the server". Each address is split as gRPC splits
    it: HOST, HOST:PORT, [IPv6] or [IPv6]:PORT (no port is 443); an ipv4: or
    ipv6: target may list several, comma-separated."""
    scheme, _, rest = text.partition(":")
    if scheme == "dns" and rest.startswith("//"):
        rest = rest[2:].partition("/")[2]  # dns://AUTHORITY/HOST:PORT
    for address in [rest] if scheme == "dns" else rest.split(","):
        host, port_text = _host_and_port(address)
        example = f"e.g. {scheme}:{EXAMPLES[scheme]}"
        if host is None:
            return f"{address!r} is not HOST:PORT ({example})"
        if port_text is not None:
            port = ascii_whole_number(port_text)
            if port is None:
                return f"{port_text!r} is not a port number"
            if not 1 <= port <= MAX_PORT:
                return _not_a_port(port_text)
        if scheme in ("ipv4", "ipv6"):
            try:
                parsed = ipaddress.ip_address(host.partition("%")[0])
            except ValueError:
                parsed = None
            if parsed is None or f"ipv{parsed.version}" != scheme:
                return f"{host!r} is not an {scheme[:2].upper()}{scheme[2:]} address ({example})"
    return None


def _host_and_port(address: str) -> tuple[str | None, str | None]:
    """`address`'s host and port text (None when it has none) as gRPC reads
    them; a host of None when it reads as neither."""
    if address.startswith("["):
        host, bracket, after = address[1:].partition("]")
        if not bracket or ":" not in host or (after and not after.startswith(":")):
            return None, None
        return host, after[1:] if after else None
    if address.count(":") != 1:
        # Two colons or more: an IPv6 address out of brackets, with no port.
        return (address or None), None
    host, _, port_text = address.partition(":")
    return (host or None), port_text


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
        problem = unix_path_problem(text)
        if problem is not None:
            raise ValueError(f"{text!r}: {problem}")
        if not text.startswith("unix") and _unprintable(text):
            raise ValueError(f"{text!r} has a space in its address")
        if not text.startswith("unix"):
            problem = network_target_problem(text)
            if problem is not None:
                raise ValueError(f"{text!r}: {problem}")
        return text
    scheme, slashes, rest = text.partition("://")
    if slashes and scheme.isalpha():
        # http://HOST:PORT read as an IPv6 host said "an IPv6 address goes in brackets".
        example = rest or "127.0.0.1:50051"
        raise ValueError(f"{text!r}: write HOST:PORT without {scheme}:// (e.g. {example})")
    host, sep, port_text = text.rpartition(":")
    if not sep or not host or not port_text or port_text.endswith("]"):
        raise ValueError(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:50051)")
    # int() takes " 50", "5_0" and other scripts' digits; gRPC does not, and
    # named the host: "the host name does not resolve".
    port = ascii_whole_number(port_text)
    if port is None:
        raise ValueError(f"{text!r}: {port_text!r} is not a port number")
    if _unprintable(host):
        # gRPC looked such a host up and said "the host name does not resolve"
        # (a space pasted before the address, a newline from a file).
        raise ValueError(f"{text!r}: {host!r} is not a host name or address (it holds a space)")
    if unbracketed_ipv6(host):
        raise ValueError(f"{text!r}: an IPv6 address goes in brackets (e.g. [::1]:50051)")
    if not 1 <= port <= MAX_PORT:
        raise ValueError(port_out_of_range(text, port_text))
    return text


def port_out_of_range(text: str, port_text: str) -> str:
    """What is said of the address `text` whose port, `port_text` (ASCII digits),
    is past 1..65535: the same for every command taking a server's address."""
    return f"{text!r}: {_not_a_port(port_text)}"


def _not_a_port(port_text: str) -> str:
    """What is said of a port, `port_text` (ASCII digits), past 1..65535."""
    shown = port_text.lstrip("0") or "0"  # the port as a number, however long
    return f"{shown} is not a port: use 1 to {MAX_PORT}"


def _unprintable(text: str) -> bool:
    """Whether `text` holds a space or a control character, which no host name has."""
    return any(char.isspace() or not char.isprintable() for char in text)
