"""`sheepfold serve`: run the server until SIGTERM, SIGINT or SIGHUP."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shutil
import sqlite3
import stat
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.db import add_retention_arguments
from cli.environment import environment_default, naming_variable
from cli.log_flags import add_log_arguments
from cli.values import (
    bind_host,
    file_path,
    grpc_seconds,
    message_bytes,
    non_negative_int,
    port,
    positive_float,
    positive_int,
    refuse_metrics_host_alone,
    refuse_unreachable_bound,
    seconds_up_to,
    secret,
    usage_error,
)
from cli.viewer import (
    add_viewer_arguments,
    missing_tournament_dbs,
    refuse_unreachable_viewer_bound,
    viewer_flags_given,
    viewer_settings,
)
from clients.address_check import unbracketed_ipv6
from server import loops
from server.client_limits import MatchLimits
from server.clock_limits import MAX_DECISION_SECONDS, MIN_DECISION_SECONDS
from server.settings import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_REQUEST_BYTES,
    FILES_KEPT_FREE,
    HEALTH_PORT_CONNECTIONS,
    MIN_MAX_MESSAGE_BYTES,
    ServerConfig,
)

if TYPE_CHECKING:
    from server.store import Store

# Fewer open files than this and the server accepts at most a few connections
# (server/app.py connection_bound), too few for a match of separate bots; a few
# dozen and gRPC's core crashes (SIGSEGV, SIGABRT) without a word.
MIN_OPEN_FILES = FILES_KEPT_FREE + HEALTH_PORT_CONNECTIONS + 16


# The address the web viewer binds without --web-host.
WEB_HOST = "127.0.0.1"

# Less free space than this where the database lives is named as the likely
# reason SQLite could not open it (a database needs a few pages for its -wal,
# -shm and schema).


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the game server",
        description="Run the Sheepfold gRPC server (Arena service, health, reflection) "
        "until SIGTERM, SIGHUP or Ctrl-C, then shut down gracefully.",
    )
    parser.add_argument(
        "--host",
        type=bind_host,
        default=os.environ.get("SHEEPFOLD_HOST") or "127.0.0.1",  # empty: unset
        help="address to bind (default: $SHEEPFOLD_HOST or 127.0.0.1)",
    )
    parser.add_argument(
        "--port",
        type=naming_variable(port),
        default=environment_default("SHEEPFOLD_PORT", "50051"),
        help="port (default: $SHEEPFOLD_PORT or 50051; 0 = any free)",
    )
    parser.add_argument(
        "--metrics-port",
        type=naming_variable(port),
        default=environment_default("SHEEPFOLD_METRICS_PORT"),
        help="serve Prometheus metrics over HTTP at /metrics on this port "
        "(default: $SHEEPFOLD_METRICS_PORT, or off)",
    )
    parser.add_argument(
        "--metrics-host",
        type=bind_host,
        default=None,
        help="address for the metrics port (default: the --host address)",
    )
    parser.add_argument(
        "--health-port",
        type=naming_variable(port),
        default=environment_default("SHEEPFOLD_HEALTH_PORT"),
        help="also serve the gRPC health service alone, in plaintext, on this port, for "
        "probes that cannot speak TLS (default: $SHEEPFOLD_HEALTH_PORT, or off)",
    )
    parser.add_argument(
        "--listen",
        action="append",
        default=[],
        metavar="ADDR",
        help="listen on HOST:PORT or unix:PATH, repeatable; replaces --host/--port "
        "(sandboxed bots reach the server through a Unix socket)",
    )
    token = parser.add_mutually_exclusive_group()
    token.add_argument(
        "--admin-token",
        type=secret,
        default=None,  # $SHEEPFOLD_ADMIN_TOKEN is read in run(), where a blank one is named
        help="token CreateMatch must present (default: $SHEEPFOLD_ADMIN_TOKEN; none = open); "
        "every user of the machine can read a flag's value in the process list",
    )
    token.add_argument(
        "--admin-token-file",
        type=Path,
        metavar="FILE",
        help="read the admin token from FILE (a Docker or Kubernetes secret), so that it "
        "is not in the process list; a missing or empty FILE stops serve",
    )
    parser.add_argument(
        "--private-replays",
        action="store_true",
        help="ListMatches and GetReplay need the admin token too, so bots playing here "
        "cannot read finished matches (their seeds and deals); needs an admin token "
        "(--admin-token-file, --admin-token or $SHEEPFOLD_ADMIN_TOKEN)",
    )
    parser.add_argument(
        "--db",
        type=file_path,
        default="sheepfold.db",
        help="SQLite file for matches, actions and results; unfinished matches in it are "
        "restored on start (default %(default)s; ':memory:' keeps nothing)",
    )
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate chain for TLS")
    parser.add_argument("--tls-key", type=Path, help="PEM private key for TLS")
    parser.add_argument(
        "--decision-seconds",
        type=seconds_up_to(MAX_DECISION_SECONDS, least=MIN_DECISION_SECONDS),
        default=10.0,
        help="default deadline per decision when a match sets none (default %(default)s)",
    )
    parser.add_argument(
        "--max-live-matches",
        type=positive_int,
        default=10_000,
        help=(
            "live matches at most; more get RESOURCE_EXHAUSTED, and without an admin token "
            "so does an address holding its fair share once half are taken "
            "(default %(default)s)"
        ),
    )
    parser.add_argument(
        "--max-watchers",
        type=non_negative_int,
        default=100,
        help="spectators per match at most; more get RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-watchers-per-address",
        type=positive_int,
        default=MatchLimits().max_watchers_per_address,
        help="of a match's spectators, those from one client address at most (every Unix "
        "socket client, and everyone behind a proxy, is one address); more get "
        "RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-watch-streams",
        type=non_negative_int,
        default=MatchLimits().max_watch_streams,
        help="spectators on the whole server at most, over every match; more get "
        "RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-watch-streams-per-address",
        type=positive_int,
        default=MatchLimits().max_watch_streams_per_address,
        help="of the server's spectators, those from one client address at most, over "
        "every match, so that one client cannot take every place; more get "
        "RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=message_bytes,
        default=DEFAULT_MAX_MESSAGE_BYTES,
        help=f"largest message received or sent, at least {MIN_MAX_MESSAGE_BYTES} "
        "(a decision is one message) (default %(default)s)",
    )
    parser.add_argument(
        "--max-request-bytes",
        type=positive_int,
        default=DEFAULT_MAX_REQUEST_BYTES,
        help="largest message received from a client, at most --max-message-bytes; "
        "larger ones get RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--start-timeout",
        type=positive_float,
        default=30.0,
        help="seconds a new or restored match waits for every seat to join before its "
        "clocks run; a match with no move that no seat has ever joined (before a restart "
        "either) is aborted then (default %(default)s)",
    )
    parser.add_argument(
        "--keepalive-seconds",
        type=grpc_seconds,
        default=30.0,
        help="ping every connection this often (default %(default)s)",
    )
    parser.add_argument(
        "--keepalive-timeout",
        type=grpc_seconds,
        default=10.0,
        help="a peer that does not answer a ping within this is dropped (default %(default)s)",
    )
    parser.add_argument(
        "--handshake-timeout",
        type=grpc_seconds,
        default=20.0,
        help="seconds a new connection has to finish its TLS and HTTP/2 handshake before "
        "it is closed (default %(default)s)",
    )
    parser.add_argument(
        "--write-stall-timeout",
        type=seconds_up_to(86_400.0, least=1.0),
        default=60.0,
        help="a Play or Watch stream whose client reads nothing for this many seconds while "
        "the server waits to write to it is cut off: its seat or watcher place is freed, "
        "and it ends RESOURCE_EXHAUSTED should its client read again (default %(default)s)",
    )
    parser.add_argument(
        "--max-streams-per-connection",
        type=positive_int,
        default=1000,
        help="streams one client connection may have open at once; more mostly wait on the "
        "client's side, and those a client races past it are refused (UNAVAILABLE) "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--max-connections",
        type=positive_int,
        default=10_000,
        help="connections held at once on each address listened on; more are closed as they "
        "arrive, so one client cannot take every file descriptor (default %(default)s)",
    )
    parser.add_argument(
        "--max-pending-joins",
        type=positive_int,
        default=ServerConfig().max_pending_joins_per_address,
        help="Play streams from one client address still waiting to join; past it the "
        "one waiting longest gets RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-pending-joins-total",
        type=positive_int,
        default=ServerConfig().max_pending_joins,
        help="Play streams from every address together still waiting to join; past it "
        "the one waiting longest gets RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--max-unplayed-matches",
        type=positive_int,
        default=ServerConfig().max_unplayed_matches_per_address,
        help="without an admin token: matches one client address created that ended within "
        "the hour with no seat having answered a decision; past it its CreateMatch gets "
        "RESOURCE_EXHAUSTED (default %(default)s)",
    )
    parser.add_argument(
        "--db-write-timeout",
        type=positive_float,
        default=5.0,
        metavar="SECONDS",
        help="CreateMatch waits this long for a busy or locked database, then answers "
        "UNAVAILABLE; moves always wait until written (default %(default)s)",
    )
    add_retention_arguments(parser)
    add_log_arguments(parser)
    loops.add_loop_argument(parser, "uvloop costs less CPU per decision than asyncio's own")
    parser.add_argument(
        "--web-port",
        type=port,
        help="also serve the web viewer on this HTTP port, in the same process and event loop",
    )
    parser.add_argument(
        "--web-host",
        type=bind_host,
        help=f"address the web viewer binds (default {WEB_HOST})",
    )
    add_viewer_arguments(parser, prefix="web-", when="with --web-port: ")
    parser.set_defaults(handler=run)


def _tcp_addresses(args: argparse.Namespace) -> list[tuple[str, int, str, str]]:
    """Every TCP address serve will listen on (the server's, health, metrics,
    web), each with how its failure is told and the flag that asked for it."""
    listen = "cannot listen"
    found = [] if args.listen else [(args.host, args.port, listen, "--port")]
    for address in args.listen:
        if not address.startswith("unix:"):
            host, _, port = address.rpartition(":")
            found.append((host.strip("[]"), int(port), listen, f"--listen {address}"))
    if args.health_port:
        found.append((args.host, args.health_port, listen, "--health-port"))
    if args.metrics_port:
        metrics = (args.metrics_host or args.host, args.metrics_port)
        found.append((*metrics, "cannot serve metrics", "--metrics-port"))
    if args.web_port:
        found.append(
            (args.web_host or WEB_HOST, args.web_port, "the web viewer cannot listen", "--web-port")
        )
    return found


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


def _env_admin_token() -> str | None:
    """$SHEEPFOLD_ADMIN_TOKEN: empty counts as unset, as every empty `SHEEPFOLD_`
    variable does; only white space is a mistake, and the variable is named."""
    value = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
    if value and not value.strip():
        raise SystemExit(
            "sheepfold serve: SHEEPFOLD_ADMIN_TOKEN holds only white space "
            "(did reading it fail?); unset it to run without a token"
        )
    return value or None


def run(args: argparse.Namespace) -> int:
    web_only = [
        *(["--web-host"] if args.web_host is not None else []),
        *viewer_flags_given(args, "web-"),
    ]
    if web_only and args.web_port is None:
        # Taken and then unused, they would leave the user believing them in force.
        usage_error(
            f"sheepfold serve: {' and '.join(web_only)} "
            f"{'is' if len(web_only) == 1 else 'are'} for the web viewer: "
            "add --web-port PORT, or use `sheepfold web` (the same flags without `web-`)"
        )
    refuse_metrics_host_alone("serve", args, " (or set $SHEEPFOLD_METRICS_PORT)")
    limits = MatchLimits()
    for per_address, total, default in (
        (
            "--max-pending-joins",
            "--max-pending-joins-total",
            ServerConfig().max_pending_joins_per_address,
        ),
        ("--max-watchers-per-address", "--max-watchers", limits.max_watchers_per_address),
        (
            "--max-watch-streams-per-address",
            "--max-watch-streams",
            limits.max_watch_streams_per_address,
        ),
    ):
        refuse_unreachable_bound("serve", args, per_address, total, default)
    refuse_unreachable_viewer_bound("serve", args, "web-")
    if bool(args.tls_cert) != bool(args.tls_key):
        usage_error("sheepfold serve: --tls-cert and --tls-key go together")
    if args.tls_cert and args.listen and all(a.startswith("unix:") for a in args.listen):
        # Taken, they would serve nothing: a Unix socket never uses TLS.
        usage_error(
            "sheepfold serve: --tls-cert and --tls-key serve TLS on TCP addresses "
            "alone, and every --listen is a Unix socket (never TLS): add a --listen "
            "HOST:PORT, or leave them out"
        )
    for address in args.listen:
        # A user's mistake, as --port 99999 is (exit 2): these once exited 1, the
        # status of a server that could not start.
        if address.startswith("unix:") and address != "unix:":
            continue
        host, sep, port = address.rpartition(":")
        if not sep or not host or not (port.isascii() and port.isdigit()):
            usage_error(f"sheepfold serve: --listen {address!r}: use HOST:PORT or unix:PATH")
        if int(port) > 65535:
            usage_error(f"sheepfold serve: --listen {address!r}: ports go from 0 to 65535")
        if unbracketed_ipv6(host):  # gRPC logged a bind error of its own
            usage_error(
                f"sheepfold serve: --listen {address!r}: an IPv6 address goes in brackets "
                "(e.g. --listen [::1]:50051)"
            )
    try:
        loops.loop_factory(args.loop)
    except ValueError as error:  # not installed here
        raise SystemExit(f"sheepfold serve: --loop {args.loop}: {error}") from None
    if args.admin_token_file is not None:
        args.admin_token = _read_token_file(args.admin_token_file)
    elif args.admin_token is None:
        args.admin_token = _env_admin_token()
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
    from server.logs import FLUSH_SECONDS, configure_logging
    from server.malloc_arenas import limit_malloc_arenas

    limit_malloc_arenas()  # before the logging thread and gRPC's threads start
    log = configure_logging(args.log_format, args.log_level, queued=True)
    try:
        return _run_logged(args)
    finally:
        if log is not None:  # the last lines ("server stopped") to a reader that reads
            log.flush(FLUSH_SECONDS)


def _run_logged(args: argparse.Namespace) -> int:
    # The server itself is imported only to serve: `serve --help` needs its settings alone.
    import structlog

    from server.app import serve
    from server.files import folder_hint
    from server.listening import ListenError, check_can_listen, check_socket_folder, host_port
    from server.open_files import raise_open_file_limit
    from server.records import ClockConfig
    from server.retention_policy import Retention
    from server.sqlite_store import SqliteStore, StoreError
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
        raise SystemExit(f"sheepfold serve: {shared}")
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
                f"sheepfold serve: cannot open --db {args.db}: {error}{folder_hint(args.db)}"
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
        loops.run(serve(config, store, companion, early), args.loop)
    except OSError as error:
        raise SystemExit(f"sheepfold serve: {error}") from None
    finally:
        if private_folder is not None:
            shutil.rmtree(private_folder, ignore_errors=True)
    return 0


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
            raise OSError(f"the web viewer cannot listen on {host}:{port}: {reason}") from None
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


# A token file longer than this is not one (a path to a log, or to /dev/zero).
MAX_TOKEN_FILE_BYTES = 4096
# How long a pipe's writer (`<(pass show sheepfold)`) may take to write the token
# and close its end.
TOKEN_WAIT_SECONDS = 10.0


def _read_token_file(path: Path) -> str:
    """The token in `path`: its text without surrounding white space (the newline
    an editor or `echo` adds). One line and exit 1 when there is none to read."""
    where = f"sheepfold serve: --admin-token-file {path}"
    try:
        # Opened without waiting: a named pipe with no writer held open() for
        # ever, deaf to Ctrl-C and SIGTERM (serve catches them from its start).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if os.isatty(fd):  # a read there waited on the keyboard, as deaf
                raise SystemExit(f"{where}: a terminal, not a file holding the token")
            data = _read_within(fd, MAX_TOKEN_FILE_BYTES + 1, TOKEN_WAIT_SECONDS)
            pipe = stat.S_ISFIFO(os.fstat(fd).st_mode)
        finally:
            os.close(fd)
    except OSError as error:
        raise SystemExit(f"{where}: {error.strerror or error}") from None
    if data is None:
        raise SystemExit(
            f"{where}: a pipe whose writer did not write the token and close its end "
            f"within {TOKEN_WAIT_SECONDS:g} seconds"
        )
    if pipe and not data:
        raise SystemExit(f"{where}: a named pipe that nothing wrote a token to")
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise SystemExit(f"{where}: longer than {MAX_TOKEN_FILE_BYTES} bytes, not a token")
    try:
        token = data.decode().strip()
    except UnicodeDecodeError:
        raise SystemExit(f"{where}: not text (UTF-8)") from None
    if not token:
        raise SystemExit(f"{where}: the file is empty; no admin token in it")
    return token


def _read_within(fd: int, limit: int, seconds: float) -> bytes | None:
    """Up to `limit` bytes of the non-blocking `fd`, read until its end; None
    when a pipe's writer neither wrote it all nor closed its end in `seconds`
    (a blocking read of a pipe held open and never written waited for ever).
    A pipe without any writer ends at once, empty."""
    import select
    import time

    data = b""
    deadline = time.monotonic() + seconds
    while len(data) < limit:
        try:
            chunk = os.read(fd, limit - len(data))
        except BlockingIOError:  # a writer is there, and has written nothing yet
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            continue
        if not chunk:
            break
        data += chunk
    return data
