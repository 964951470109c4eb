"""`sheepfold serve`: run the server until SIGTERM, SIGINT, SIGHUP or SIGQUIT
(its flags and their checks are in cli/serve_flags.py)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from cli.serve_flags import (
    PORT_VARIABLES,
    TOKEN_WAIT_SECONDS,
    WEB_HOST,
    add_arguments,
    admin_token,
    check_flags,
)
from cli.values import usage_error
from cli.viewer import missing_tournament_dbs, viewer_settings
from clients.whole_numbers import ascii_whole_number
from server import loops
from server.client_limits import MatchLimits
from server.settings import FILES_KEPT_FREE, HEALTH_PORT_CONNECTIONS, ServerConfig

if TYPE_CHECKING:
    from server.store import Store

__all__ = ["TOKEN_WAIT_SECONDS", "add_parser", "run"]

# Fewer open files than this and the server accepts at most a few connections
# (server/app.py connection_bound), too few for a match of separate bots; a few
# dozen and gRPC's core crashes (SIGSEGV, SIGABRT) without a word.
MIN_OPEN_FILES = FILES_KEPT_FREE + HEALTH_PORT_CONNECTIONS + 16


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the game server",
        description="Run the Sheepfold gRPC server (Arena service, health, reflection) "
        "until SIGTERM, SIGHUP, SIGQUIT or Ctrl-C, then shut down gracefully.",
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def _held_hint(error: BaseException) -> str:
    """Who likely holds a database the server could not open for its lock, and
    what to do: a file already served only waits for the lock (the writer
    retries), so this is a new file or one whose tables must be upgraded."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return ""
    return (
        "; another process is holding it (a `sheepfold db vacuum`, a sqlite3 shell or a "
        "backup of the file, say) and the server must write it to start (to create or "
        "upgrade its tables): let that process finish or stop it, then try again"
    )


def _tcp_addresses(args: argparse.Namespace) -> list[tuple[str, int, str, str]]:
    """Every TCP address serve will listen on (the server's, health, metrics,
    web), each with how its failure is told and the flag that asked for it."""
    from server.listening import HEALTH_REFUSAL

    listen = "cannot listen"
    found = [] if args.listen else [(args.host, args.port, listen, _told("--port", args.port))]
    for address in args.listen:
        if not address.startswith("unix:"):
            host, _, port = address.rpartition(":")
            number = ascii_whole_number(port)  # checked: 0 to 65535, perhaps 0-padded
            found.append((host.strip("[]"), number or 0, listen, f"--listen {address}"))
    if args.health_port:
        health = _told("--health-port", args.health_port)
        found.append((args.host, args.health_port, HEALTH_REFUSAL, health))
    if args.metrics_port:
        metrics = (args.metrics_host or args.host, args.metrics_port)
        found.append((*metrics, "cannot serve metrics", _told("--metrics-port", args.metrics_port)))
    if args.web_port:
        found.append(
            (args.web_host or WEB_HOST, args.web_port, "the web viewer cannot listen", "--web-port")
        )
    return found


def _told(flag: str, port: int) -> str:
    """How a refusal names the port `flag` holds: with its variable too when the
    environment holds that port, so an operator who set ports with `docker run
    -e` (and typed no flag) sees which variables clash."""
    variable = PORT_VARIABLES[flag]
    try:
        from_environment = int(os.environ.get(variable, "").strip()) == port
    except ValueError:
        from_environment = False
    return f"{flag} (${variable})" if from_environment else flag


WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})


def _shared_port(addresses: list[tuple[str, int, str, str]]) -> str | None:
    """Which two flags ask for one port on one address (a wildcard address
    holds the port on every address), said in one line; None: none do."""
    for index, (host, number, _, flag) in enumerate(addresses):
        for other_host, other_port, _, other_flag in addresses[:index]:
            overlap = host == other_host or bool({host, other_host} & WILDCARD_HOSTS)
            if number and number == other_port and overlap:
                return f"{other_flag} and {flag} both ask for port {number}: give each its own"
    return None


def run(args: argparse.Namespace) -> int:
    check_flags(args)
    try:
        loops.loop_factory(args.loop)
    except ValueError as error:  # not installed here
        raise SystemExit(f"sheepfold serve: --loop {args.loop}: {error}") from None
    args.admin_token = admin_token(args)
    if args.private_replays and not args.admin_token:
        raise SystemExit(
            "sheepfold serve: --private-replays needs an admin token to read them with "
            "(--admin-token-file, --admin-token or $SHEEPFOLD_ADMIN_TOKEN)"
        )
    from server.memory_limits import memory_limit_too_low

    # Before the first thread starts: under such a limit gRPC's threads failed to
    # start, and the server stopped with a traceback or gRPC's abort (exit 134).
    if too_low := memory_limit_too_low():
        raise SystemExit(f"sheepfold serve: {too_low}")
    from cli.core_log import bound_core_log
    from server.logs import FLUSH_SECONDS, configure_logging
    from server.malloc_arenas import limit_malloc_arenas

    limit_malloc_arenas()  # before the logging thread and gRPC's threads start
    # Before any thread and before gRPC: core's lines through a bound of their own.
    fmt = args.log_format
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    core_log = bound_core_log(fmt)
    try:
        log = configure_logging(fmt, args.log_level, queued=True)
        if core_log is not None:
            core_log.watch()
        try:
            return _run_logged(args)
        finally:
            if log is not None:  # the last lines ("server stopped") to a reader that reads
                log.flush(FLUSH_SECONDS)
    finally:
        if core_log is not None:
            core_log.close()


def _run_logged(args: argparse.Namespace) -> int:
    # The server itself is imported only to serve: `serve --help` needs its settings alone.
    import structlog

    from server.app import serve
    from server.files import folder_hint
    from server.listening import ListenError, check_can_listen, check_socket_folder, host_port
    from server.open_files import raise_open_file_limit
    from server.records import ClockConfig
    from server.retention_policy import Retention
    from server.sqlite_store import SqliteStore, StoreError, UnreadableMatches
    from server.stop_signals import take_early_stops
    from server.store import MemoryStore

    open_files = raise_open_file_limit()
    if open_files < MIN_OPEN_FILES:
        raise SystemExit(
            f"sheepfold serve: the open file limit is {open_files}, too low to serve: the "
            f"server keeps {FILES_KEPT_FREE + HEALTH_PORT_CONNECTIONS} files for itself and "
            f"each connection takes one more; raise it to {MIN_OPEN_FILES} or more "
            f"(ulimit -n, or the container's nofile limit)"
        )
    # Before the database: a server that cannot listen leaves no file behind.
    addresses = _tcp_addresses(args)
    if shared := _shared_port(addresses):
        usage_error(f"sheepfold serve: {shared}")
    try:
        for host, port, what, _ in addresses:
            check_can_listen(host, port, what)
        for address in args.listen:
            if address.startswith("unix:"):
                check_socket_folder(address)
    except ListenError as error:
        raise SystemExit(f"sheepfold serve: {error}") from None
    early = take_early_stops()
    if early.received is not None:
        # Stopped before anything was opened: nothing to suspend, no file to make.
        structlog.get_logger("sheepfold.server").info(
            "signal received before the server started; not started",
            signal=early.received.name,
        )
        return 0
    store: Store
    if args.db == ":memory:":
        store = MemoryStore()
    else:
        try:
            store = SqliteStore(args.db, serving=True)
        except (StoreError, sqlite3.Error) as error:
            raise SystemExit(
                f"sheepfold serve: cannot open --db {args.db}: {error}"
                f"{_held_hint(error) or folder_hint(args.db)}"
            ) from None
    config = ServerConfig(
        host=args.host,
        port=args.port,
        admin_token=args.admin_token or None,
        private_replays=args.private_replays,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        max_live_matches=args.max_live_matches,
        max_message_bytes=args.max_message_bytes,
        max_request_bytes=args.max_request_bytes,
        start_timeout=args.start_timeout,
        keepalive_seconds=args.keepalive_seconds,
        keepalive_timeout=args.keepalive_timeout,
        handshake_timeout=args.handshake_timeout,
        connection_idle_seconds=args.connection_idle_timeout,
        write_stall_seconds=args.write_stall_timeout,
        max_streams_per_connection=args.max_streams_per_connection,
        max_connections=args.max_connections,
        max_pending_joins_per_address=args.max_pending_joins,
        max_pending_joins=args.max_pending_joins_total,
        max_unplayed_matches_per_address=args.max_unplayed_matches,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        health_port=args.health_port,
        limits=MatchLimits(
            max_watchers=args.max_watchers,
            max_watchers_per_address=args.max_watchers_per_address,
            max_watch_streams=args.max_watch_streams,
            max_watch_streams_per_address=args.max_watch_streams_per_address,
        ),
        default_clock=ClockConfig(decision_seconds=args.decision_seconds),
        listen=tuple(args.listen),
        db_write_timeout=args.db_write_timeout,
        retention=Retention(days=args.keep_finished_days, count=args.keep_finished),
    )
    companion = None
    private_folder: str | None = None
    if args.web_port is not None:
        missing = missing_tournament_dbs(args.tournament_db)
        if missing:
            raise SystemExit(f"sheepfold serve: {missing}")
        if args.tls_cert and not any(a.startswith("unix:") for a in args.listen):
            # The viewer is a plaintext gRPC client, and a TLS server's only
            # plaintext door is a Unix socket: it gets one of its own, in a
            # folder only this user may enter.
            private_folder = tempfile.mkdtemp(prefix="sheepfold-viewer-")
            tcp = tuple(args.listen) or (host_port(args.host, args.port),)
            config = dataclasses.replace(config, listen=(*tcp, f"unix:{private_folder}/arena.sock"))
        companion = _web_companion(
            args.web_host or WEB_HOST,
            args.web_port,
            {
                **viewer_settings(args, "web_"),
                "admin_token": (args.admin_token or "") if args.private_replays else "",
            },
        )
    try:
        kept = loops.run(serve(config, store, companion, early), args.loop)
    except OSError as error:
        raise SystemExit(f"sheepfold serve: {error}") from None
    except UnreadableMatches as error:
        raise SystemExit(
            f"sheepfold serve: cannot restore the matches of --db {args.db}: {error}"
        ) from None
    finally:
        if private_folder is not None:
            shutil.rmtree(private_folder, ignore_errors=True)
    # What was lost is in the log as errors; the exit status tells a supervisor.
    return 0 if kept else 1


def _web_companion(
    host: str, port: int, settings: dict[str, Any]
) -> Callable[[str], AbstractAsyncContextManager[object]]:
    """The web viewer beside the server; it reaches the server at the local
    address it is given, through the public API like any client (with the
    admin token when the server's replays are private: the viewer is the
    operator's own window on them)."""
    from server.listening import bind_failure, host_port
    from web.app import WebConfig, start_web

    @asynccontextmanager
    async def running(server_address: str) -> AsyncIterator[object]:
        config = WebConfig(server_address, **settings)
        try:
            web = await start_web(config, host, port)
        except OSError as error:
            reason = bind_failure(error)
            where = host_port(host, port)
            raise OSError(f"the web viewer cannot listen on {where}: {reason}") from None
        _tell(f"sheepfold serve: web viewer on http://{host_port(host, web.port)}/")
        try:
            yield web
        finally:
            await web.stop()

    return running


def _tell(line: str) -> None:
    """A line for whoever started `serve`, on stdout; a stdout that cannot take
    it (a full disk, a closed pipe) loses the line, not the server, which once
    stopped right after it started ("No space left on device")."""
    try:
        print(line, flush=True)
    except OSError:
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (for the rest of the run)
