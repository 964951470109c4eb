"""Reaching a server: a deadline on the first connection and a plain reason when it fails.

gRPC's default is to wait for a server for ever (`wait_for_ready`) or to fail
with a long core message. Every client here first waits for the channel, until
its first attempt fails (refused, a name that does not resolve, a failed TLS
handshake) or a few seconds pass without an answer, and then asks once more
without waiting so the error names the cause: "cannot reach the server at
127.0.0.1:1: connection refused". A client coming back to a server that may be
restarting waits those few seconds through failed attempts (`patient`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import weakref
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

__all__ = [
    "CONNECT_SECONDS",
    "KEEPALIVE_SECONDS",
    "KEEPALIVE_TIMEOUT",
    "LOOK_SECONDS",
    "RPC_SECONDS",
    "ServerTls",
    "Unreachable",
    "ensure_answering",
    "ensure_reachable",
    "keepalive_options",
    "open_channel",
    "reason",
    "reason_at",
    "refusal",
    "refusal_text",
    "refused_elsewhere",
    "tls_credentials",
    "went_away",
]

CONNECT_SECONDS = 3.0  # how long a client waits for a server that does not answer
RPC_SECONDS = 30.0  # the deadline of every unary call once connected
# ...but of a look a client can do without (whether another stream holds a seat,
# a finished match's result after its Play stream ended, whether a bot program's
# match is over yet): a server that has gone silent (it accepts the connection
# and answers nothing) fails the look in this time and the client goes on as it
# would have without asking, instead of being held RPC_SECONDS a look.
LOOK_SECONDS = 5.0
# A client pings its server this often, and a server that has not answered a
# ping within KEEPALIVE_TIMEOUT is gone (frozen, or the network between cut):
# the connection is closed and its calls end UNAVAILABLE. A server accepts
# pings every 5 s at most (server/app.py); more often it closes the connection.
KEEPALIVE_SECONDS = 30.0
KEEPALIVE_TIMEOUT = 10.0


# How `reason` begins when the connection's settings, not the server's state, failed.
MISCONFIGURED = ("the TLS handshake failed", "it does not speak gRPC", "it is not a Sheepfold")
# Of those, the ones that say the address is wrong (another program's port),
# where another address of the same run can be right.
# What an address without the game service is, said by every client that meets
# one: gRPC itself says only "Method not found!".
NOT_A_GAME_PORT = (
    "the address is not a Sheepfold game port; a --health-port answers health checks alone"
)
# In what `refused_elsewhere` says: a server is there, reached the wrong way.
FAILED_ELSEWHERE = "takes connections and gRPC failed there too"
WRONG_SERVER = ("it does not speak gRPC", "it is not a Sheepfold")


class Unreachable(ConnectionError):
    """No server answers at the address; the message is the one line a user sees."""

    def __init__(self, address: str, why: str) -> None:
        super().__init__(f"cannot reach the server at {address}: {why}")
        self.address = address
        self.why = why

    @property
    def misconfigured(self) -> bool:
        """Whether the way it was reached is wrong, not the server down."""
        return misconfigured(self.why)

    @property
    def wrong_server(self) -> bool:
        """Whether what answers at the address is no Sheepfold server at all (a
        web server, another gRPC service): that address alone is wrong."""
        return self.why.startswith(WRONG_SERVER)


class BadAddress(Unreachable, ValueError):
    """`address` is no server's address at all (not HOST:PORT, a port past
    65535, a URL): nothing is reached there, and `why` is the one line to show,
    as the command line's `--server` says it. An `Unreachable`, so that code
    that says that in one line (the README's first bot) says this too, where it
    once ended in a traceback; a ValueError, as `play` raised before."""

    def __init__(self, address: str, why: str) -> None:
        ConnectionError.__init__(self, why)
        self.address = address
        self.why = why

    @property
    def misconfigured(self) -> bool:
        return True  # asking again cannot help


def misconfigured(why: str) -> bool:
    """Whether `why` (a `reason`) says the connection's settings are wrong (TLS
    on one side only, an untrusted certificate, not a gRPC or Sheepfold
    server) rather than the server down: asking again cannot help."""
    return why.startswith(MISCONFIGURED) or "if it serves TLS" in why or FAILED_ELSEWHERE in why


# OpenSSL's words for a certificate that is trusted but out of its dates, and
# what to do about it: another --tls-ca cannot help, so it is not suggested.
OUT_OF_DATE = {
    "certificate has expired": (
        "certificate has expired: the server must serve a renewed one "
        "(or this machine's clock is wrong)"
    ),
    "certificate is not yet valid": (
        "certificate is not yet valid: this machine's clock is behind, "
        "or the certificate's start date is ahead"
    ),
}


# How to give the certificate to trust, in the words of whoever reads it: a user
# of the `sheepfold` commands, whose credentials their flags made (ServerTls), or
# of the SDK, whose own bot has no flags: it was once told of --tls-ca FILE.
COMMAND_TRUST_HINT = "with --tls-ca FILE"
SDK_TRUST_HINT = "to play() as credentials=grpc.ssl_channel_credentials(PEM bytes)"
_MADE_BY_FLAGS: weakref.WeakSet[grpc.ChannelCredentials] = weakref.WeakSet()


def trust_hint(credentials: grpc.ChannelCredentials | None) -> str:
    """COMMAND_TRUST_HINT for credentials a ServerTls made, SDK_TRUST_HINT for any other."""
    return COMMAND_TRUST_HINT if credentials in _MADE_BY_FLAGS else SDK_TRUST_HINT


def reason(
    error: grpc.RpcError, waited: float = CONNECT_SECONDS, *, trust: str = COMMAND_TRUST_HINT
) -> str:
    """Why a call could not reach its server, in a few words; `trust` says how
    to give a certificate to trust (`trust_hint`)."""
    code = error.code() if hasattr(error, "code") else None
    details = (error.details() if hasattr(error, "details") else "") or ""
    lowered = details.lower()
    if "connection refused" in lowered:
        return "connection refused"
    if "resolving" in lowered or "name not found" in lowered or "dns" in lowered:
        return "the host name does not resolve"
    if "certificate_verify_failed" in lowered:
        why = details[lowered.index("certificate_verify_failed") :].split(": ")
        out_of_date = OUT_OF_DATE.get(why[1].strip().lower()) if len(why) > 1 else None
        if out_of_date:
            return f"the TLS handshake failed: the server's {out_of_date}"
        cause = f" ({why[1]})" if len(why) > 1 and why[1] else ""
        return (
            f"the TLS handshake failed: the server's certificate is not trusted{cause}: "
            f"give its certificate (or its authority's) {trust}"
        )
    if "hostname verification" in lowered:  # gRPC: "hostname Verification Check failed."
        return (
            "the TLS handshake failed: the server's certificate does not name the address's "
            "host (connect by a host name the certificate holds)"
        )
    if "wrong_version_number" in lowered:
        return "the TLS handshake failed: the server does not speak TLS (a plaintext server?)"
    if "ssl" in lowered or "handshake" in lowered or "tls" in lowered:
        return f"the TLS handshake failed ({details})"
    if "failed parsing http/2" in lowered or "expected settings frame" in lowered:
        return "it does not speak gRPC (it answered in something other than HTTP/2: a web server?)"
    if "socket closed" in lowered:
        return "the server closed the connection (if it serves TLS, connect with TLS)"
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return f"no answer within {waited:g} s"
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return f"it is not a Sheepfold server (no sheepfold.v1.Arena service: {NOT_A_GAME_PORT})"
    last = details.rsplit(": ", 1)[-1] if details else (code.name if code else "unknown error")
    return last[:1].lower() + last[1:]


# gRPC's own words when a connection under an open call is lost: the server's
# process died or closed its socket, the network dropped, pings went unanswered.
# A server's own UNAVAILABLE (shutting down, its database away) says more.
_LOST_WORDS = (
    "stream removed",
    "socket closed",
    "connection reset",
    "broken pipe",
    "goaway",
    "keepalive watchdog",
    "ping timeout",
    "connection timed out",
    "endpoint closing",
    "transport closed",
)


def went_away(address: str, error: grpc.RpcError) -> str | None:
    """What a stream that was reading from the server at `address` says when
    its connection was lost (gRPC's "Stream removed (Socket closed)"): "the
    game server at ADDR went away", or "stopped answering" when pings went
    unanswered; None for any other end, the server's own words then."""
    code = error.code() if hasattr(error, "code") else None
    details = ((error.details() if hasattr(error, "details") else "") or "").lower()
    if code != grpc.StatusCode.UNAVAILABLE or not any(w in details for w in _LOST_WORDS):
        return None
    if "keepalive watchdog" in details or "ping timeout" in details:
        return f"the game server at {address} stopped answering (no answer to pings)"
    return f"the game server at {address} went away"


# What gRPC's client says when a call's deadline passes with no answer.
GRPC_DEADLINE_WORDS = "Deadline Exceeded"
NO_ANSWER = (
    "no answer came from the server before the call's deadline (is it stuck, or overloaded?)"
)


def refusal(error: grpc.RpcError) -> str:
    """A server's refusal of a call in a few words (`CODE: details`), with what
    to do where the code says it: a missing or wrong admin token names where the
    token goes, and UNIMPLEMENTED (a health-only port, another program's gRPC
    server) says the address is no game port, where gRPC says only "Method not
    found!"."""
    code = error.code() if hasattr(error, "code") else None
    details = (error.details() if hasattr(error, "details") else "") or ""
    return refusal_text(code or grpc.StatusCode.UNKNOWN, details)


# gRPC's words for a request past the server's receive limit, refused before the
# server reads it: "SERVER: Received message larger than max (100036 vs. 16384)".
_SERVER_TOO_LARGE = re.compile(r"SERVER: Received message larger than max \((\d+) vs\. (\d+)\)")


def our_details(code: grpc.StatusCode, details: str) -> str:
    """A status's details, with gRPC's own words for a request too large for the
    server said in ours (every command printed them as they came)."""
    found = _SERVER_TOO_LARGE.fullmatch(details.strip())
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and found:
        sent, limit = (int(n) for n in found.groups())
        return (
            f"the request is {sent:,} bytes, more than the {limit:,} the server takes "
            "(serve --max-request-bytes): is a value given far too long?"
        )
    return details


def refusal_text(code: grpc.StatusCode, details: str) -> str:
    """`refusal` of a status code and its details."""
    if code == grpc.StatusCode.DEADLINE_EXCEEDED and details in ("", GRPC_DEADLINE_WORDS):
        # The client's own deadline passed: no answer came, and gRPC's words say
        # nothing of why (a server that says DEADLINE_EXCEEDED says why itself).
        details = NO_ANSWER
    details = our_details(code, details)
    text = f"{code.name}: {details}"
    admin = code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
    if admin and "admin token" in details:
        return f"{text} (give it with --admin-token or $SHEEPFOLD_ADMIN_TOKEN)"
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return f"{text} (no sheepfold.v1.Arena there: {NOT_A_GAME_PORT})"
    return text


@dataclass(frozen=True, slots=True)
class ServerTls:
    """Connect with TLS, checking the server's certificate against `ca_pem` (PEM
    certificates), or against the system's authorities when it is None. Plain
    data, unlike gRPC's credentials, so it travels to a Ray worker."""

    ca_pem: bytes | None = None

    def credentials(self) -> grpc.ChannelCredentials:
        made = grpc.ssl_channel_credentials(root_certificates=self.ca_pem)
        _MADE_BY_FLAGS.add(made)
        return made


def tls_credentials(tls: ServerTls | None) -> grpc.ChannelCredentials | None:
    """The channel credentials of `tls`; None (plaintext) without it."""
    return None if tls is None else tls.credentials()


def open_channel(
    address: str,
    credentials: grpc.ChannelCredentials | None = None,
    options: Sequence[tuple[str, Any]] = (),
) -> grpc.aio.Channel:
    """A channel to `address`: TLS with `credentials`, plaintext without."""
    if credentials is not None:
        return grpc.aio.secure_channel(address, credentials, options=options)
    return grpc.aio.insecure_channel(address, options=options)


def keepalive_options(
    seconds: float = KEEPALIVE_SECONDS, timeout: float = KEEPALIVE_TIMEOUT
) -> list[tuple[str, int]]:
    """A channel's options for pings every `seconds`, each answered within `timeout`."""
    return [
        ("grpc.keepalive_time_ms", round(seconds * 1000)),
        ("grpc.keepalive_timeout_ms", round(timeout * 1000)),
        # Newer gRPC cores time an unanswered ping with this one, not keepalive_timeout:
        # without it a frozen server went unnoticed for over a minute.
        ("grpc.http2.ping_timeout_ms", round(timeout * 1000)),
        ("grpc.keepalive_permit_without_calls", 1),
        # By default a client stops pinging after two pings without sending data,
        # so a stream that only receives (Watch) was never checked again.
        ("grpc.http2.max_pings_without_data", 0),
    ]


async def ensure_reachable(
    channel: grpc.aio.Channel,
    address: str,
    timeout: float = CONNECT_SECONDS,
    *,
    patient: bool = False,
    trust: str = COMMAND_TRUST_HINT,
) -> None:
    """Return once `channel` is connected; raise Unreachable, saying why, when
    it is not. A first connection fails as soon as it does (nothing listens,
    the name does not resolve, the TLS handshake fails), or after `timeout`
    seconds of no answer. `patient` waits the whole `timeout` through failed
    attempts, for a server that is coming back (a restart, a rejoin). `trust`:
    see `reason`."""
    with suppress(TimeoutError):
        if await asyncio.wait_for(_connected(channel, patient), timeout):
            return
    # Not connected: one call that does not wait reports the cause (refused, DNS, TLS).
    try:
        await arena_pb2_grpc.ArenaStub(channel).ListGames(
            arena_pb2.ListGamesRequest(), wait_for_ready=False, timeout=1.0
        )
    except grpc.aio.AioRpcError as error:
        raise Unreachable(address, await reason_at(address, error, timeout, trust=trust)) from None
    # It answered after all (it came up just now): carry on.


async def _connected(channel: grpc.aio.Channel, patient: bool) -> bool:
    """True once `channel` is connected; False, unless `patient`, as soon as an
    attempt fails (TRANSIENT_FAILURE): gRPC tries again only after a backoff of
    a second or more, and a refused first connection once waited out the
    whole timeout before it said so."""
    state = channel.get_state(try_to_connect=True)
    while state != grpc.ChannelConnectivity.READY:
        if not patient and state == grpc.ChannelConnectivity.TRANSIENT_FAILURE:
            return False
        await channel.wait_for_state_change(state)
        state = channel.get_state(try_to_connect=True)
    return True


async def reason_at(
    address: str,
    error: grpc.RpcError,
    waited: float = CONNECT_SECONDS,
    *,
    trust: str = COMMAND_TRUST_HINT,
) -> str:
    """`reason`, with a refusal at a host name's last address said in full
    when another of its addresses takes connections (`refused_elsewhere`)."""
    why = reason(error, waited, trust=trust)
    if why != "connection refused":
        return why
    details = (error.details() if hasattr(error, "details") else "") or ""
    return await refused_elsewhere(address, details) or why


# gRPC's details name only the address it tried last: "failed to connect to all
# addresses; last error: UNKNOWN: ipv6:%5B::1%5D:50051: Failed to connect to
# remote host: Connection refused".
_LAST_REFUSED = re.compile(r"last error: \w+: ipv[46]:(\S+): [^;]*connection refused", re.I)
PROBE_SECONDS = 1.0


async def refused_elsewhere(address: str, details: str) -> str | None:
    """Why a host name's connection failed, when gRPC says only that its last
    address refused: gRPC tries each address the name has (localhost: ::1 and
    127.0.0.1) and reports the last failure alone, so a server listening on
    127.0.0.1 whose handshake failed (TLS on one side only) read as "connection
    refused" whenever ::1 came last. When another address of the name takes a
    TCP connection, that is said, with the address to try for the cause; None
    when none does (or `address` is no host name)."""
    last = _LAST_REFUSED.search(details)
    target = address.removeprefix("dns:").lstrip("/")
    host, colon, port = target.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if last is None or not colon or not port.isdigit() or not host or "/" in host:
        return None
    with suppress(ValueError):
        ipaddress.ip_address(host)
        return None  # an address, not a name: it has no other
    refused = unquote(last.group(1))
    try:
        found = await asyncio.wait_for(
            asyncio.get_running_loop().getaddrinfo(host, int(port), type=socket.SOCK_STREAM),
            PROBE_SECONDS,
        )
    except (OSError, TimeoutError, UnicodeError):
        return None
    for shown in dict.fromkeys(_shown(info[4]) for info in found):
        if shown != refused and await _takes_connections(shown):
            return (
                f"connection refused at {refused}, but {shown} (also {host}) {FAILED_ELSEWHERE}, "
                "reporting only its last try: connect to "
                f"{shown} to see why (TLS on one side only?)"
            )
    return None


def _shown(sockaddr: tuple[Any, ...]) -> str:
    """A resolved socket address as gRPC shows one: 127.0.0.1:50051, [::1]:50051."""
    host, port = sockaddr[0], sockaddr[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _takes_connections(shown: str) -> bool:
    host, _, port = shown.rpartition(":")
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host.strip("[]"), int(port)), PROBE_SECONDS
        )
    except (OSError, TimeoutError):
        return False
    writer.close()
    with suppress(OSError):
        await writer.wait_closed()
    return True


async def ensure_answering(
    channel: grpc.aio.Channel,
    address: str,
    timeout: float = KEEPALIVE_TIMEOUT,
    *,
    game_port: bool = False,
) -> None:
    """Return once the server answers a call; raise Unreachable when it does not
    within `timeout` seconds. A connection can stay up to a server that answers
    nothing (frozen, or the network to it cut without a reset), which
    `ensure_reachable` alone takes for a server that is there. With `game_port`,
    a server without the game service (a --health-port, another program's gRPC
    server) is Unreachable too."""
    gone = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
    if game_port:
        gone.add(grpc.StatusCode.UNIMPLEMENTED)
    try:
        await arena_pb2_grpc.ArenaStub(channel).ListGames(
            arena_pb2.ListGamesRequest(), wait_for_ready=False, timeout=timeout
        )
    except grpc.aio.AioRpcError as error:
        if error.code() in gone:
            raise Unreachable(address, reason(error, timeout)) from None
        # Any other answer is an answer.
