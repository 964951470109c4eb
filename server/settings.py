"""A server's settings (ServerConfig) and what they make of gRPC's: its
channel options, and the connections each listening address may hold under
the open file limit."""

from __future__ import annotations

import resource
from dataclasses import dataclass, field
from pathlib import Path

# The least the largest message may be (`serve --max-message-bytes`), 1 MiB: a
# decision is one message. Shared with the clients (sheepfold/message_size.py).
from sheepfold.message_size import MIN_MAX_MESSAGE_BYTES

from server.client_limits import (
    DEFAULT_CUT_OFF_STREAMS,
    DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS,
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_QUEUED_BYTES,
    DEFAULT_QUEUED_BYTES_PER_ADDRESS,
    DEFAULT_UNPLAYED_MATCHES,
    DEFAULT_UNREAD_BYTES,
    DEFAULT_UNREAD_BYTES_PER_ADDRESS,
    DEFAULT_UNREAD_CALLS,
    DEFAULT_UNREAD_CALLS_PER_ADDRESS,
    DEFAULT_WRITE_STALL_SECONDS,
    MatchLimits,
)
from server.clock_limits import ClockConfig
from server.retention_policy import Retention

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_MAX_REQUEST_BYTES",
    "FILES_KEPT_FREE",
    "HEALTH_PORT_CONNECTIONS",
    "MIN_MAX_MESSAGE_BYTES",
    "PENDING_CALLS",
    "PENDING_CALLS_HARD_LIMIT",
    "ServerConfig",
    "bot_socket_options",
    "connection_bound",
    "grpc_options",
    "health_port_options",
]

# Connections the health port holds at once: probes connect, ask and leave.
HEALTH_PORT_CONNECTIONS = 64
# File descriptors kept from client connections for everything else: the
# database, the log, the health and metrics ports, gRPC's own pipes and polls.
FILES_KEPT_FREE = 512

DEFAULT_MAX_REQUEST_BYTES = 16 * 1024


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    admin_token: str | None = None
    # ListMatches and GetReplay need the admin token too: the records of finished
    # matches (their seeds, so their deals) stay with whoever runs the server.
    private_replays: bool = False
    tls_cert: Path | None = None
    tls_key: Path | None = None
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    # What a client sends is a few hundred bytes at most (a join, an answer, a
    # match's options). Each call's received message lives as long as the call's
    # objects, which gRPC's Python layer frees only with the cycle collector: a
    # flood of refused 4 MB joins held 2.8 GB, of 16 KB ones about 150 MB.
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    max_live_matches: int = 10_000
    start_timeout: float = 30.0
    default_clock: ClockConfig = field(default_factory=ClockConfig)
    shutdown_grace: float = 5.0
    limits: MatchLimits = field(default_factory=MatchLimits)
    # Seconds a Play stream may stay open without sending its join.
    join_timeout: float = 30.0
    # The server pings every connection this often; a peer that does not answer
    # within keepalive_timeout is dead, its streams end and its seats are free.
    keepalive_seconds: float = 30.0
    keepalive_timeout: float = 10.0
    # A connection with no call in flight for this long is closed (HTTP/2
    # GOAWAY: a gRPC client connects again at its next call, unaware); 0: never.
    # A seat's Play stream and a Watch are calls in flight, so a connection that
    # plays or watches is never idle. Without it, connections a client opened
    # and never closed (a bot that makes a channel for every attempt and leaks
    # the old one) stayed for as long as the client ran, its process answering
    # their pings, until they held every place (`max_connections`) and no bot
    # could connect.
    connection_idle_seconds: float = 300.0
    # A connection that has not finished its TLS and HTTP/2 handshake by then is
    # closed (gRPC alone waited 60 s: connections opened and left silent held
    # their memory, about 11 KB each, for a minute).
    handshake_timeout: float = 20.0
    # A Play or Watch stream whose write has waited this long for its client
    # (one that never reads, its HTTP/2 window shut) is cancelled.
    write_stall_seconds: float = DEFAULT_WRITE_STALL_SECONDS
    # Addresses to listen on (HOST:PORT or unix:PATH); empty: host:port alone.
    listen: tuple[str, ...] = ()
    # Unix sockets (unix:PATH) for sandboxed bots, each served by a gRPC server of
    # its own whose connections may each open only `bot_streams_per_connection`
    # streams: a bot that opened streams as fast as it could (resetting them, or
    # closing its connection) filled gRPC's queue of calls not yet taken, one
    # per server, and gRPC cancelled other bots' joins.
    bot_sockets: tuple[str, ...] = ()
    bot_streams_per_connection: int = 16
    # Streams one connection may have open at once; a client's further streams
    # mostly wait on its side (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS), and those
    # it races past the bound are refused (REFUSED_STREAM, seen as UNAVAILABLE).
    max_streams_per_connection: int = 1000
    # Connections each listening address holds at once; more are closed as they
    # arrive. Without a bound one client could take every file descriptor the
    # process may open (about 18 KB of memory each), and then nobody could connect.
    max_connections: int = 10_000
    # Answers to unary calls one client address has not read yet (by size, and
    # by count): past either, its calls are refused (see server/unread_answers.py).
    max_unread_bytes_per_address: int = DEFAULT_UNREAD_BYTES_PER_ADDRESS
    max_unread_calls_per_address: int = DEFAULT_UNREAD_CALLS_PER_ADDRESS
    # And from every address together: past either, an address is let in only
    # while it holds less than its fair share (see server/fair_share.py).
    max_unread_bytes: int = DEFAULT_UNREAD_BYTES
    max_unread_calls: int = DEFAULT_UNREAD_CALLS
    # Play and Watch streams one client address holds that were cut off for
    # reading nothing, still open: past it, its new ones are refused (see
    # server/cut_off_streams.py).
    max_cut_off_streams_per_address: int = DEFAULT_CUT_OFF_STREAMS_PER_ADDRESS
    # And from every address together, as for unread answers.
    max_cut_off_streams: int = DEFAULT_CUT_OFF_STREAMS
    # Bytes of Play messages one client address leaves unread in the server's
    # queues: past it, a stream of its sent to is cut off (see server/streams.py).
    max_queued_bytes_per_address: int = DEFAULT_QUEUED_BYTES_PER_ADDRESS
    # And from every address together, as for unread answers.
    max_queued_bytes: int = DEFAULT_QUEUED_BYTES
    # Play streams from one client address that have not sent their join yet.
    max_pending_joins_per_address: int = 100
    # And from every address together (see server/peers.py).
    max_pending_joins: int = 2_000
    # On a server without an admin token: matches one client address created
    # that ended within the hour with no seat having answered a decision; past
    # it its CreateMatch is refused (see server/unplayed.py).
    max_unplayed_matches_per_address: int = DEFAULT_UNPLAYED_MATCHES
    # CreateMatch waits this long for a busy or locked database, then answers
    # UNAVAILABLE; moves and results wait as long as it takes (see storage.py).
    db_write_timeout: float = 5.0
    # Reads (GetMatch, ListMatches, GetReplay of stored matches) give up after this.
    db_read_timeout: float = 5.0
    retention: Retention = field(default_factory=Retention)
    # Prometheus metrics over HTTP on this port (None: metrics off); the address
    # defaults to `host`.
    metrics_port: int | None = None
    metrics_host: str | None = None
    # The health service alone, in plaintext, for probes that cannot speak TLS.
    health_port: int | None = None
    # A health-port connection with no call in flight for this long is closed
    # (see health_port_options).
    health_port_idle_seconds: float = 5.0

    def __post_init__(self) -> None:
        if self.private_replays and not self.admin_token:
            raise ValueError("private replays need an admin token to read them with")


# Calls gRPC holds for the server before it takes them: see grpc_options.
PENDING_CALLS = 20_000
PENDING_CALLS_HARD_LIMIT = 30_000


def grpc_options(
    config: ServerConfig, max_connections: int | None = None, streams: int | None = None
) -> list[tuple[str, int]]:
    """The server's gRPC settings; `streams`: each connection's streams at most
    (default `max_streams_per_connection`)."""
    if max_connections is None:
        max_connections = config.max_connections
    return [
        (
            "grpc.max_receive_message_length",
            min(config.max_request_bytes, config.max_message_bytes),
        ),
        ("grpc.max_send_message_length", config.max_message_bytes),
        # Ping even idle connections so a long wait between decisions is kept
        # alive through NATs, and a frozen or vanished peer is noticed.
        ("grpc.keepalive_time_ms", int(config.keepalive_seconds * 1000)),
        ("grpc.keepalive_timeout_ms", int(config.keepalive_timeout * 1000)),
        # Newer gRPC cores time unanswered pings with this one, not keepalive_timeout:
        # without it a frozen peer holds its seat for a minute.
        ("grpc.http2.ping_timeout_ms", int(config.keepalive_timeout * 1000)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.server_handshake_timeout_ms", int(config.handshake_timeout * 1000)),
        *(
            [("grpc.max_connection_idle_ms", max(1, int(config.connection_idle_seconds * 1000)))]
            if config.connection_idle_seconds
            else []
        ),
        # gRPC sets SO_REUSEPORT by default: a second server on a taken port would
        # start and share it silently. Off, the second one fails to bind at once.
        ("grpc.so_reuseport", 0),
        # Clients may ping every 5 s (the SDK pings every 30 s); more often is abuse.
        ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", 5_000),
        # Without it one connection may open any number of streams, each a handler
        # on the event loop (gRPC's default is unlimited).
        # gRPC counts a stream the client reset against this until the server has
        # taken its call, so it also bounds streams opened and reset in a loop.
        ("grpc.max_concurrent_streams", streams or config.max_streams_per_connection),
        ("grpc.max_allowed_incoming_connections", max_connections),
        # gRPC's queue of calls the server has not taken yet, streams a client
        # reset among them. Past the first number gRPC cancels new calls at
        # random, anyone's, before the server sees them; past the second, all.
        # Its defaults (1,000 and 3,000) were passed by two connections opening
        # and resetting streams in a loop, and other clients' joins were
        # cancelled. Bounded still: the queue's calls hold memory, about 14 KB each.
        ("grpc.server.max_pending_requests", PENDING_CALLS),
        ("grpc.server.max_pending_requests_hard_limit", PENDING_CALLS_HARD_LIMIT),
    ]


def health_port_options(config: ServerConfig) -> list[tuple[str, int]]:
    """The health port's settings: the main port's, for its few connections
    (HEALTH_PORT_CONNECTIONS), each closed once it has had no call in flight
    for `health_port_idle_seconds`. Probes connect, ask and leave, and a load
    balancer's Watch is a call in flight; but connections left open and unused
    (a prober that never closes its channels, or a client holding them on
    purpose) once took every place for as long as they stayed, every probe
    was refused, and Kubernetes restarted the server. A client that keeps
    every place busy with calls still keeps probes out: only a network policy
    that lets no one else reach the port stops that."""
    options = dict(grpc_options(config, HEALTH_PORT_CONNECTIONS))
    options["grpc.max_connection_idle_ms"] = max(1, int(config.health_port_idle_seconds * 1000))
    return list(options.items())


def bot_socket_options(config: ServerConfig, max_connections: int) -> list[tuple[str, int]]:
    """A bot socket's server: few streams per connection, and room in gRPC's
    queue of calls not yet taken for every stream its open connections allow.
    Calls of connections already closed stay queued too: a bot that reconnects
    in a loop still fills the queue, but only its own socket's."""
    streams = config.bot_streams_per_connection
    allowed = max_connections * streams
    pending = dict(grpc_options(config, max_connections, streams))
    pending["grpc.server.max_pending_requests"] = allowed + 1_000
    pending["grpc.server.max_pending_requests_hard_limit"] = allowed + 3_000
    return list(pending.items())


def connection_bound(wanted: int, open_files: int, listeners: int) -> int:
    """Connections each listening address may hold: as many as asked, or fewer
    when the open file limit could not hold that many on every address and
    still leave the server the files it needs itself."""
    if open_files == resource.RLIM_INFINITY:
        return wanted
    room = (open_files - FILES_KEPT_FREE - HEALTH_PORT_CONNECTIONS) // max(1, listeners)
    return max(1, min(wanted, room))
