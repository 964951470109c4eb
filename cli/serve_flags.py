"""`sheepfold serve`'s flags: their definitions, the checks of what they were
given (a user's mistake is one line and exit 2) and the admin token they name;
cli/serve.py runs the server with them."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import socket
import stat
from pathlib import Path

from cli.db import add_retention_arguments
from cli.environment import FromEnvironment, environment_default, naming_variable
from cli.log_flags import add_log_arguments
from cli.values import (
    bind_host,
    file_path,
    file_path_given,
    grpc_seconds,
    message_bytes,
    non_negative_int,
    port,
    positive_float,
    positive_int,
    refuse_metrics_host_alone,
    refuse_unknown_host,
    refuse_unreachable_bound,
    seconds_up_to,
    secret,
    usage_error,
)
from cli.viewer import (
    add_viewer_arguments,
    refuse_unreachable_viewer_bound,
    viewer_flags_given,
)
from clients.address_check import unbracketed_ipv6, unix_path_problem
from clients.whole_numbers import ascii_whole_number
from server import loops
from server.client_limits import MatchLimits
from server.clock_limits import MAX_DECISION_SECONDS, MIN_DECISION_SECONDS
from server.settings import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_REQUEST_BYTES,
    MIN_MAX_MESSAGE_BYTES,
    ServerConfig,
)

# The address the web viewer binds without --web-host.
WEB_HOST = "127.0.0.1"

# The variable each port flag falls back to (the image sets them:
# docs/operations.md); `serve` names it beside the flag when two ports clash.
PORT_VARIABLES = {
    "--port": "SHEEPFOLD_PORT",
    "--health-port": "SHEEPFOLD_HEALTH_PORT",
    "--metrics-port": "SHEEPFOLD_METRICS_PORT",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        type=naming_variable(bind_host),
        default=environment_default("SHEEPFOLD_HOST", "127.0.0.1"),  # empty: unset
        help="address to bind (default: $SHEEPFOLD_HOST or 127.0.0.1)",
    )
    parser.add_argument(
        "--port",
        type=naming_variable(port),
        default=environment_default(PORT_VARIABLES["--port"], "50051"),
        help="port (default: $SHEEPFOLD_PORT or 50051; 0 = any free)",
    )
    parser.add_argument(
        "--metrics-port",
        type=naming_variable(port),
        default=environment_default(PORT_VARIABLES["--metrics-port"]),
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
        default=environment_default(PORT_VARIABLES["--health-port"]),
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
        type=file_path_given,
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
    parser.add_argument("--tls-cert", type=file_path_given, help="PEM certificate chain for TLS")
    parser.add_argument("--tls-key", type=file_path_given, help="PEM private key for TLS")
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
        help="spectators per match at most; more get RESOURCE_EXHAUSTED; 0: none, every "
        "Watch PERMISSION_DENIED (default %(default)s)",
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
        "--connection-idle-timeout",
        type=seconds_up_to((2**31 - 1) // 1000, zero=True),
        default=300.0,
        help="a connection with no call in flight for this many seconds is closed (a gRPC "
        "client connects again at its next call; a seat's Play stream and a Watch keep "
        "theirs), so connections clients opened and never closed cannot take every place "
        "of --max-connections; 0: never (default %(default)s)",
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


def check_flags(args: argparse.Namespace) -> None:
    """Refuse, with one line and exit 2, flags that do not go together or a
    malformed --listen, before anything is opened."""
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
    # gRPC takes no request larger than any message: the larger was once cut to
    # the smaller without a word.
    refuse_unreachable_bound(
        "serve", args, "--max-request-bytes", "--max-message-bytes", DEFAULT_MAX_REQUEST_BYTES
    )
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
        if address.startswith("unix:") and address[5:].strip("/"):  # not unix:, unix:/, unix://
            problem = unix_path_problem(address)  # gRPC logged a bind error of its own
            if problem is not None:
                usage_error(f"sheepfold serve: --listen {address!r}: {problem}")
            if "," in address:
                # Bound all the same, but gRPC's clients read unix:A,B as a list
                # and dial A: each said "no such file or directory" of it.
                usage_error(
                    f"sheepfold serve: --listen {address!r}: a comma in a socket's path "
                    "makes it a list to gRPC's clients, which would dial "
                    f"{address.partition(',')[0]} alone: choose a path without one"
                )
            continue
        if "," in address:  # was told "an IPv6 address goes in brackets"
            each = " ".join(
                f"--listen {_bracketed(part.strip())}"
                for part in address.split(",")
                if part.strip()
            )
            usage_error(f"sheepfold serve: --listen {address!r}: one address each: {each}")
        host, sep, port = address.rpartition(":")
        number = ascii_whole_number(port)
        if not sep or not host or number is None:
            usage_error(f"sheepfold serve: --listen {address!r}: use HOST:PORT or unix:PATH")
        if number > 65535:
            usage_error(f"sheepfold serve: --listen {address!r}: ports go from 0 to 65535")
        if unbracketed_ipv6(host):  # gRPC logged a bind error of its own
            usage_error(
                f"sheepfold serve: --listen {address!r}: an IPv6 address goes in brackets "
                "(e.g. --listen [::1]:50051)"
            )
    for named, host, by_grpc in _hosts_bound(args):
        refuse_unknown_host("serve", named, host)
        if by_grpc:
            _refuse_non_ascii_host(named, host)
            _refuse_shorthand_ipv4(named, host)


def _bracketed(address: str) -> str:
    """HOST:PORT with an IPv6 host out of its brackets put in them (::1:5 is
    [::1]:5), as a --listen suggested to the user must be; others as given."""
    host, _, port = address.rpartition(":")
    try:
        ipaddress.IPv6Address(host)  # a zone (fe80::1%eth0) included
    except ValueError:
        return address
    return f"[{host}]:{port}"


def _refuse_non_ascii_host(named: str, host: str) -> None:
    """A host gRPC binds written in other characters than ASCII (127.0.0.1 in
    fullwidth digits, as an input method types them): the system's resolver
    reads it through IDNA, so it passed every check, but gRPC's does not
    ("Misformatted domain name"), and serve ended with gRPC's own log line and
    "gRPC could not bind it", or for a fullwidth 1 "cannot assign requested
    address" (exit 1). Refused with the ASCII form the resolver read."""
    if host.isascii():
        return
    try:
        written = host.encode("idna").decode("ascii")
    except UnicodeError:
        usage_error(f"sheepfold serve: {named}: gRPC reads host names in ASCII alone")
    with contextlib.suppress(OSError):  # a fullwidth 1 is 0.0.0.1
        written = socket.inet_ntoa(socket.inet_aton(written))
    usage_error(f"sheepfold serve: {named}: gRPC reads host names in ASCII alone: write {written}")


def _refuse_shorthand_ipv4(named: str, host: str) -> None:
    """A host gRPC binds given as a shorthand IPv4 address (`0`, `127.1`,
    `2130706433`, an octal part): the system's resolver reads it, so it passed
    every check, but gRPC's does not, and serve ended with gRPC's own log line
    and "gRPC could not bind it". Refused with the address in full."""
    if not host or host.strip("0123456789abcdefABCDEFxX."):
        return  # inet_aton also reads "127.0.0.1 and more", which is no shorthand
    try:
        packed = socket.inet_aton(host)
    except OSError:
        return
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        usage_error(
            f"sheepfold serve: {named}: gRPC does not read a shorthand IPv4 address: "
            f"write it in full, {socket.inet_ntoa(packed)}"
        )


def _hosts_bound(args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """Each host serve will listen on that a flag (or $SHEEPFOLD_HOST) named,
    with the flag and value as a refusal names them, and whether gRPC binds it
    (the metrics and web ports are served by others): --host serves unless
    --listen replaces it, and the health and metrics ports too."""
    given = f"${args.host.variable}" if isinstance(args.host, FromEnvironment) else "--host"
    metrics_on_host = args.metrics_port is not None and args.metrics_host is None
    grpc_on_host = not args.listen or args.health_port is not None
    hosts = (
        [(f"{given} {args.host!r}", str(args.host), grpc_on_host)]
        if grpc_on_host or metrics_on_host
        else []
    )
    for address in args.listen:
        if not address.startswith("unix:"):
            hosts.append((f"--listen {address!r}", address.rpartition(":")[0].strip("[]"), True))
    if args.metrics_port is not None and args.metrics_host is not None:
        hosts.append((f"--metrics-host {args.metrics_host!r}", args.metrics_host, False))
    if args.web_port is not None and args.web_host is not None:
        hosts.append((f"--web-host {args.web_host!r}", args.web_host, False))
    return hosts


def admin_token(args: argparse.Namespace) -> str | None:
    """The admin token the flags name: read from --admin-token-file, given as
    --admin-token, or taken from $SHEEPFOLD_ADMIN_TOKEN; None: the server is open."""
    if args.admin_token_file is not None:
        return _read_token_file(args.admin_token_file)
    if args.admin_token is None:
        return _env_admin_token()
    return str(args.admin_token)


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
