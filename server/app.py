"""Building, starting and stopping the Sheepfold gRPC server."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import resource
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import grpc
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2_grpc

from server.arena_calls import ARENA_SERVICE
from server.cut_off_streams import (
    CutOffStreams,
)
from server.decoding import DecodeErrorsAreInvalidArgument
from server.encoding import PreEncodedResponses
from server.fairness import FairQueue
from server.file_watch import DatabaseFileWatch
from server.health import LIVENESS_SERVICE, Health, Status
from server.listening import (
    HEALTH_REFUSAL,
    ListenError,
    add_port,
    check_can_listen,
    check_socket_folder,
    host_port,
)
from server.loop_watch import LoopWatch
from server.loops import running_loop_name
from server.match_reads import LIST_MATCHES_METHOD
from server.metrics import NO_METRICS, ServerMetrics
from server.metrics_http import MetricsEndpoint
from server.play_call import PLAY_METHOD
from server.reflection import add_reflection, bounded_reflection
from server.registry import MatchRegistry
from server.request_wait import RequestWait
from server.retention import keep_pruning
from server.service import ArenaService
from server.settings import (
    DEFAULT_MAX_REQUEST_BYTES,
    FILES_KEPT_FREE,
    HEALTH_PORT_CONNECTIONS,
    ServerConfig,
    bot_socket_options,
    connection_bound,
    grpc_options,
    health_port_options,
)
from server.socket_watch import SocketWatch
from server.stalls import StalledWrites
from server.stop_signals import EarlyStops, StopSignals
from server.storage import StoreWorker
from server.store import MemoryStore, Store
from server.streams import QueuedBytes
from server.tls_reload import ReloadingCertificate
from server.unexpected import UnexpectedErrorsAreInternal
from server.unread_answers import UnreadAnswers
from server.watch_call import WATCH_METHOD

# ServerConfig and the gRPC settings it makes are server.settings', named here
# too: a server's users import them with it.
__all__ = [
    "DEFAULT_MAX_REQUEST_BYTES",
    "FILES_KEPT_FREE",
    "HEALTH_PORT_CONNECTIONS",
    "ServerConfig",
    "SheepfoldServer",
    "connection_bound",
    "grpc_options",
    "serve",
]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
# How long past the shutdown grace a stop waits for gRPC's own stop to return.
STOP_SLACK_SECONDS = 2.0


# Play answers an undecodable message after the join with a PlayError itself.
async def _start_whole(server: grpc.aio.Server) -> None:
    """Start a gRPC server, to the end even when cancelled meanwhile: one whose
    start was cut half way cannot be stopped (gRPC raises "invalid state")."""
    starting = asyncio.ensure_future(server.start())
    try:
        await asyncio.shield(starting)
    except asyncio.CancelledError:
        await starting
        raise


def _interceptors(
    config: ServerConfig, request_wait: RequestWait
) -> list[grpc.aio.ServerInterceptor]:
    """Every port's: an address that does not read its answers is refused more
    calls, and one holding too many streams cut off for that more streams;
    undecodable requests are INVALID_ARGUMENT, Play and ListMatches answer
    with pre-encoded bytes, and a fault no handler foresaw is INTERNAL. First, and
    so around them all: a unary request is waited for only so long, and only
    so many at once (server/request_wait.py): `request_wait`, the server's one
    for all its ports, so that its bounds are the server's, not each port's."""
    return [
        request_wait,
        UnreadAnswers(
            config.max_unread_bytes_per_address,
            config.max_unread_calls_per_address,
            config.max_unread_bytes,
            config.max_unread_calls,
        ),
        CutOffStreams(
            {PLAY_METHOD, WATCH_METHOD},
            config.max_cut_off_streams_per_address,
            config.max_cut_off_streams,
            QueuedBytes(config.max_queued_bytes_per_address, config.max_queued_bytes),
        ),
        DecodeErrorsAreInvalidArgument({PLAY_METHOD}),
        PreEncodedResponses({PLAY_METHOD, LIST_MATCHES_METHOD}),
        UnexpectedErrorsAreInternal({PLAY_METHOD}),
    ]


class SheepfoldServer:
    """A running server: the Arena service, health and reflection on one port."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.store = store or MemoryStore()
        self.metrics = ServerMetrics() if config.metrics_port is not None else NO_METRICS
        self.storage = StoreWorker(
            self.store,
            write_timeout=config.db_write_timeout,
            read_timeout=config.db_read_timeout,
            on_health=self._database_health,
            on_written=self.metrics.db_written,
        )
        self.metrics.watch_store(lambda: self.storage.unwritten)
        self.registry = MatchRegistry(
            self.storage,
            max_live_matches=config.max_live_matches,
            start_timeout=config.start_timeout,
            limits=dataclasses.replace(config.limits, decision_bytes=config.max_message_bytes),
            metrics=self.metrics,
        )
        self.health = Health()
        self.reflection = bounded_reflection(
            ARENA_SERVICE, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
        )
        self.stalls = StalledWrites(config.write_stall_seconds)
        # Every spectator's replay takes its steps in turns, one at a time, handed
        # round the clients (server/spectators.py, server/fairness.py).
        self.replay_turns = FairQueue(1)
        self.port = 0
        self.listening: list[str] = []
        self.metrics_port: int | None = None
        self.log = structlog.get_logger("sheepfold.server")
        self.arena: ArenaService | None = None  # the Arena service, once started
        self._server: grpc.aio.Server | None = None
        self._bot_servers: list[grpc.aio.Server] = []
        # Every port's (the main one, each bot socket's, the health port's).
        self._request_wait = RequestWait(config.join_timeout)
        self._metrics_http: MetricsEndpoint | None = None
        self._loop_watch = LoopWatch(self.metrics.loop_lagged)
        self.metrics.watch_loop(self._loop_watch.cpu_seconds)
        self._health_server: grpc.aio.Server | None = None
        self.health_port: int | None = None
        self.max_connections = config.max_connections
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pruning: asyncio.Task[None] | None = None
        self._file_watch = DatabaseFileWatch(self.store, self._refuse_new_matches)
        self._socket_watch = SocketWatch(self._socket_lost)
        self._lost_sockets: list[str] = []
        self._health_updates: set[asyncio.Future[None]] = set()

    def _database_health(self, healthy: bool) -> None:
        """Called by the writer thread when writes start or stop failing."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._set_serving, healthy)

    def _refuse_new_matches(self, reason: str) -> None:
        """For good (its database file lost): NOT_SERVING, CreateMatch refused."""
        self.registry.refusing = reason
        self._set_serving(False)
        self._needs_restart()

    def _socket_lost(self, path: str) -> None:
        """For good (a Unix socket it listens on deleted or replaced): NOT_SERVING,
        so a supervisor's probe restarts it; the other addresses go on serving."""
        self._lost_sockets.append(path)
        self._set_serving(False)
        self._needs_restart()

    def _needs_restart(self) -> None:
        """The liveness service NOT_SERVING too: only a restart mends a lost file
        or socket, and a liveness probe (the Kubernetes manifest's) otherwise
        kept a server that would never serve again running for ever."""
        if self._server is not None and self.registry.accepting:
            self._update_health(LIVENESS_SERVICE, health_pb2.HealthCheckResponse.NOT_SERVING)

    def _set_serving(self, serving: bool) -> None:
        if self._server is None or not self.registry.accepting:
            return
        if serving and (self.registry.refusing is not None or self._lost_sockets):
            return
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for service in ("", ARENA_SERVICE):
            self._update_health(service, status)

    def _update_health(self, service: str, status: Status) -> None:
        task = asyncio.ensure_future(self.health.set(service, status))
        self._health_updates.add(task)
        task.add_done_callback(self._health_updates.discard)

    async def start(self) -> int:
        self._loop = asyncio.get_running_loop()
        self.max_connections = self._connection_bound()
        self.arena = ArenaService(
            self.registry,
            admin_token=self.config.admin_token,
            private_replays=self.config.private_replays,
            default_clock=self.config.default_clock,
            join_timeout=self.config.join_timeout,
            max_pending_joins=self.config.max_pending_joins_per_address,
            max_pending_joins_total=self.config.max_pending_joins,
            max_unplayed_matches=self.config.max_unplayed_matches_per_address,
            stalls=self.stalls,
            replay_turns=self.replay_turns,
        )
        server = self._grpc_server(grpc_options(self.config, self.max_connections))
        self.port = self._add_ports(server)
        bot_servers = []
        for address in self.config.bot_sockets:
            bot_server = self._grpc_server(
                bot_socket_options(self.config, self.max_connections), address
            )
            self._add_unix_port(bot_server, address)
            bot_servers.append(bot_server)
        # Restored before the port serves, so a bot that rejoins finds its match.
        restored = self.registry.restore()
        if self.config.metrics_port is not None:
            self._metrics_http = MetricsEndpoint.start(
                self.metrics,
                self.config.metrics_host or self.config.host,
                self.config.metrics_port,
            )
            self.metrics_port = self._metrics_http.port
            self._loop_watch.start()
        # Held before it starts: a start cut short from here on (Ctrl-C as
        # `sheepfold demo` starts, a health port taken) is stopped below. Left to
        # gRPC's finaliser, it was stopped after the loop had closed, printing a
        # traceback ("Event loop is closed", "invalid state").
        self._server = server
        try:
            await self._serve(server, bot_servers, restored)
        except BaseException:
            await self.stop("the server did not finish starting")
            raise
        return self.port

    async def _serve(
        self, server: grpc.aio.Server, bot_servers: list[grpc.aio.Server], restored: int
    ) -> None:
        await _start_whole(server)
        for bot_server in bot_servers:
            self._bot_servers.append(bot_server)
            await _start_whole(bot_server)
        if self.config.health_port is not None:
            await self._start_health_port(self.config.health_port)
        serving = (
            health_pb2.HealthCheckResponse.SERVING
            if self.storage.healthy
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for service in ("", ARENA_SERVICE):
            await self.health.set(service, serving)
        await self.health.set(LIVENESS_SERVICE, health_pb2.HealthCheckResponse.SERVING)
        if not self.config.retention.keeps_all:
            self._pruning = asyncio.create_task(
                keep_pruning(self.storage, self.config.retention), name="prune-finished"
            )
        self._file_watch.start()
        self._socket_watch.start(
            a.removeprefix("unix:") for a in self.listening if a.startswith("unix:")
        )
        self._warn_if_open()
        tcp = [a for a in self.listening if not a.startswith("unix:")]
        self.log.info(
            "server started",
            # The first TCP address's host, as bound (an IPv6 one in brackets);
            # none with Unix sockets alone.
            host=tcp[0].rpartition(":")[0] if tcp else None,
            port=self.port,
            listen=self.listening,
            # Served on the TCP addresses: a Unix socket never uses TLS.
            tls=bool(self.config.tls_cert) and bool(tcp),
            store=type(self.store).__name__,
            loop=running_loop_name(),
            restored_matches=restored,
            metrics_port=self.metrics_port,
            health_port=self.health_port,
            max_connections=self.max_connections,
        )

    def _grpc_server(self, options: list[tuple[str, int]], socket: str = "") -> grpc.aio.Server:
        """A gRPC server of the Arena service, health and reflection; for the
        bot socket `socket`, if given."""
        assert self.arena is not None
        request_wait = self._request_wait.on_socket(socket) if socket else self._request_wait
        server = grpc.aio.server(
            options=options, interceptors=_interceptors(self.config, request_wait)
        )
        arena_pb2_grpc.add_ArenaServicer_to_server(self.arena, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        add_reflection(server, self.reflection)
        return server

    def _connection_bound(self) -> int:
        wanted = self.config.max_connections
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        listeners = (len(self.config.listen) or 1) + len(self.config.bot_sockets)
        bound = connection_bound(wanted, open_files, listeners)
        if bound < wanted:
            self.log.warning(
                "the open file limit allows fewer connections than asked; "
                "raise it (ulimit -n) to accept more",
                max_connections=wanted,
                accepting=bound,
                open_file_limit=open_files,
            )
        return bound

    def _add_ports(self, server: grpc.aio.Server) -> int:
        """Listen on every address; returns the first TCP port (0 with Unix sockets only).

        Unix sockets never use TLS: who may connect is decided by the socket
        file's permissions, and sandboxed bots reach the server only this way.
        """
        credentials = None
        if self.config.tls_cert and self.config.tls_key:
            certificate = ReloadingCertificate(self.config.tls_cert, self.config.tls_key, self.log)
            credentials = certificate.credentials()
        first_port = 0
        for address in self.config.listen or (host_port(self.config.host, self.config.port),):
            if address.startswith("unix:"):
                self._add_unix_port(server, address)
                continue
            host, _, port_text = address.rpartition(":")
            check_can_listen(host.strip("[]"), int(port_text))
            if credentials is not None:
                add = functools.partial(server.add_secure_port, address, credentials)
            else:
                add = functools.partial(server.add_insecure_port, address)
            port = add_port(add, address)
            self.listening.append(f"{host}:{port}")
            first_port = first_port or port
        return first_port

    def _add_unix_port(self, server: grpc.aio.Server, address: str) -> None:
        check_socket_folder(address)
        if not add_port(lambda: server.add_insecure_port(address), address):
            raise ListenError(f"cannot listen on {address}")
        self.listening.append(address)

    async def _start_health_port(self, port: int) -> None:
        # The main port's connection settings: a taken port fails, unfinished
        # handshakes are closed, pings and message sizes are bounded alike;
        # and an idle connection is closed (`health_port_options`).
        # The main port's interceptors too: bytes that are not a request are
        # INVALID_ARGUMENT there as here, never gRPC's UNKNOWN naming the exception.
        health = grpc.aio.server(
            options=health_port_options(self.config),
            interceptors=_interceptors(self.config, self._request_wait),
        )
        health_pb2_grpc.add_HealthServicer_to_server(self.health, health)
        check_can_listen(self.config.host, port, HEALTH_REFUSAL)
        address = host_port(self.config.host, port)
        self.health_port = add_port(lambda: health.add_insecure_port(address), address)
        await health.start()
        self._health_server = health

    def local_address(self) -> str:
        """Where a plaintext client on this machine reaches the server: its first
        TCP listener (a wildcard host as loopback) unless it serves TLS, else its
        first Unix socket (never TLS). ListenError when it has neither."""
        tcp = [a for a in self.listening if not a.startswith("unix:")]
        if tcp and not self.config.tls_cert:
            host, _, port = tcp[0].rpartition(":")
            host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "[::]": "[::1]"}.get(host, host)
            return f"{host}:{port}"
        unix = [a for a in self.listening if a.startswith("unix:")]
        if unix:
            return unix[0]
        raise ListenError("the server has no plaintext address to reach it on")

    def _warn_if_open(self) -> None:
        """An exposed server without an admin token or TLS is a choice: say so loudly.
        Unix sockets and loopback addresses are not exposed."""
        hosts = {a.rpartition(":")[0] for a in self.listening if not a.startswith("unix:")}
        exposed = sorted(hosts - LOOPBACK_HOSTS)
        if not exposed:
            return
        if self.config.admin_token is None:
            self.log.warning(
                "NO ADMIN TOKEN: anyone who reaches this port can create matches; "
                "set --admin-token or SHEEPFOLD_ADMIN_TOKEN",
                hosts=exposed,
            )
        if not self.config.tls_cert:
            self.log.warning(
                "NO TLS: seat tokens and moves cross the network in clear text; "
                "set --tls-cert and --tls-key, or terminate TLS in front of the server",
                hosts=exposed,
            )

    async def stop(self, reason: str = "server stopping") -> bool:
        """Stop accepting matches, keep unfinished ones in the store, close.
        False when some of what it held was lost (each loss logged as an error):
        writes the database never took, or a lost database file no copy of
        which could be written."""
        if self._server is None:
            return True
        self.registry.accepting = False
        await self.health.enter_graceful_shutdown(reason)
        if self._pruning is not None:
            self._pruning.cancel()
        self._file_watch.stop()
        self._socket_watch.stop()
        await self.registry.shutdown(reason)
        if self.arena is not None:
            self.arena.end_pending_joins()
        self._request_wait.close(reason)
        self.reflection.streams.close(reason)
        servers = [self._server, *self._bot_servers]
        await self._stop_grpc(servers)
        self._bot_servers = []
        for address in self.listening:
            path = address.removeprefix("unix:")
            if address.startswith("unix:") and self._socket_watch.still_ours(path):
                Path(path).unlink(missing_ok=True)
        if self._health_server is not None:
            await self._health_server.stop(None)
            self._health_server = None
        # Moves still queued are written; a database locked past the grace is given up.
        unwritten = await self.storage.close(timeout=self.config.shutdown_grace)
        kept = self._file_watch.closed() and unwritten == 0
        if self._metrics_http is not None:
            self._metrics_http.stop()
            self._metrics_http = None
        self._loop_watch.stop()
        self.stalls.stop()
        self._server = None
        self.log.info("server stopped", reason=reason, **({} if kept else {"data_lost": True}))
        if unwritten:
            # The last line, for whoever reads why the exit status is 1.
            self.log.error(
                "server stopped with database writes dropped: their matches continue from "
                "their last written move when the server starts again on this database",
                writes_dropped=unwritten,
            )
        return kept

    async def _stop_grpc(self, servers: list[grpc.aio.Server]) -> None:
        """Stop the gRPC servers: calls still running are cancelled after the grace.
        gRPC's own stop can then still wait for ever (seen after a client's
        connection was closed for pinging too often, with no handler left
        running), so it gets the grace and STOP_SLACK_SECONDS more, and the
        server closes its store and exits without it rather than hang on SIGTERM."""
        grace = self.config.shutdown_grace
        stopping = asyncio.gather(*(s.stop(grace) for s in servers))
        try:
            await asyncio.wait_for(stopping, grace + STOP_SLACK_SECONDS)
        except TimeoutError:
            self.log.warning(
                "gRPC did not stop within the grace; closing without it",
                grace_seconds=grace,
                waited_seconds=grace + STOP_SLACK_SECONDS,
            )

    async def wait(self) -> None:
        if self._server is not None:
            await self._server.wait_for_termination()


async def serve(
    config: ServerConfig,
    store: Store | None = None,
    companion: Callable[[str], AbstractAsyncContextManager[object]] | None = None,
    early: EarlyStops | None = None,
) -> bool:
    """Run until SIGTERM, SIGINT, SIGHUP or SIGQUIT, then shut down gracefully, ignoring
    any later one of them (server/stop_signals.py: for a process that exits
    after it, as `sheepfold serve`). `companion(address)`,
    when given, runs beside the server on the same loop (the web viewer of
    `serve --web-port`), reaching it at `local_address()`, and is closed before
    the server stops. `early`: the stop signals taken since just before the
    loop started. Returns `stop()`'s answer: False when data was lost."""
    # First of all: a SIGTERM just after "server started" is logged must stop it
    # gracefully too, not with the default action, and so must a signal while
    # the server object is made (it takes a while), or before (`early`).
    signals = StopSignals(asyncio.get_running_loop(), early)
    server = SheepfoldServer(config, store)
    await server.start()
    try:
        async with companion(server.local_address()) if companion else contextlib.nullcontext():
            await signals.stopping.wait()
    finally:
        signals.ignore_from_now()
        received = signals.received
        why = "signal received" if received is not None else "could not go on"
        server.log.info(
            f"{why}, shutting down",
            live_matches=server.registry.live_count(),
            **({"signal": received.name} if received is not None else {}),
        )
        kept = await server.stop("server shutting down")
    return kept
