"""`sheepfold web`: the viewer in front of a running game server."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from cli.addresses import server_address
from cli.client_tls import add_tls_flags, client_credentials
from cli.log_flags import add_log_arguments
from cli.values import bind_host, port, refuse_unknown_host
from cli.viewer import (
    add_viewer_arguments,
    missing_tournament_dbs,
    refuse_unreachable_viewer_bound,
    viewer_settings,
)

if TYPE_CHECKING:
    from web.app import WebConfig

# How long the start waits for the game server's answer to its admin token check.
TOKEN_CHECK_SECONDS = 5.0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "web",
        help="the web viewer: live matches, replays, tournament standings",
        description="Serve the web viewer for a Sheepfold server: the matches list, every "
        "match drawn live or replayed move by move, and tournament standings read from "
        "tournament databases. It talks to the server through the public gRPC API.",
    )
    parser.add_argument(
        "--server",
        type=server_address,
        default="127.0.0.1:50051",
        metavar="ADDR",
        help="the game server, HOST:PORT or unix:PATH (default %(default)s)",
    )
    add_tls_flags(parser)
    parser.add_argument(
        "--admin-token",
        default=None,  # then $SHEEPFOLD_ADMIN_TOKEN (`run`), named as such if refused
        help="for a server started with --private-replays: its admin token, so the viewer "
        "can list and replay its matches for everyone who opens it "
        "(default: $SHEEPFOLD_ADMIN_TOKEN); checked once at start when the server "
        "answers then, a token it refuses stops the viewer, and a server that does not "
        "answer yet is not checked",
    )
    parser.add_argument(
        "--host", type=bind_host, default="127.0.0.1", help="address to bind (default %(default)s)"
    )
    parser.add_argument("--port", type=port, default=8080, help="HTTP port (default %(default)s)")
    add_viewer_arguments(parser, prefix="", when="")
    add_log_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # The viewer (aiohttp and its client) is imported only to run it: it is a
    # third of every other command's start-up, `--help` included.
    from web.app import WebConfig

    refuse_unreachable_viewer_bound("web", args, "")
    refuse_unknown_host("web", f"--host {args.host!r}", args.host)
    missing = missing_tournament_dbs(args.tournament_db)
    if missing:
        print(f"sheepfold web: {missing}", file=sys.stderr)
        return 1
    token_from_variable = args.admin_token is None
    if token_from_variable:
        args.admin_token = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
    config = WebConfig(
        server=args.server,
        credentials=client_credentials(args, "web", args.server),
        admin_token=args.admin_token or "",
        **viewer_settings(args, ""),
    )
    from server.logs import FLUSH_SECONDS, configure_logging

    # As `serve` logs, its viewer's lines among them: JSON lines on stderr (or
    # the console's), written by a thread of their own, aiohttp's records too.
    log = configure_logging(args.log_format, args.log_level, queued=True)
    try:
        return _run_logged(config, args.host, args.port, token_from_variable)
    finally:
        if log is not None:
            log.flush(FLUSH_SECONDS)


def _run_logged(config: WebConfig, host: str, port: int, token_from_variable: bool) -> int:
    """`token_from_variable`: the admin token came from $SHEEPFOLD_ADMIN_TOKEN,
    not --admin-token. The line that says the server refuses it names where it
    came from: one left in the variable for another server was once called the
    --admin-token, a flag the user had not given."""
    import asyncio

    from server.listening import ListenError, bind_failure, check_can_listen, host_port

    try:
        check_can_listen(host, port)
        refused = asyncio.run(_serve(config, host, port))
    except ListenError as error:
        print(f"sheepfold web: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # taken between the check and the bind
        print(
            f"sheepfold web: cannot listen on {host_port(host, port)}: {bind_failure(error)}",
            file=sys.stderr,
        )
        return 1
    if refused:
        token, remedy = (
            (
                "the admin token in $SHEEPFOLD_ADMIN_TOKEN",
                " (--admin-token wins over the variable), or unset the variable",
            )
            if token_from_variable
            else ("the --admin-token", "")
        )
        print(
            f"sheepfold web: the game server {config.server} refuses {token} "
            f"({refused}): give it that server's admin token{remedy}",
            file=sys.stderr,
        )
        return 1
    return 0


async def _token_refused(config: WebConfig) -> str | None:
    """The server's refusal of the admin token, checked once (a viewer with a wrong
    one answered 403 on every page); None when no token is given, the server takes
    it, or the server does not answer yet."""
    if not config.admin_token:
        return None
    from web.gateway import Gateway

    gateway = Gateway(
        config.server,
        timeout=TOKEN_CHECK_SECONDS,
        admin_token=config.admin_token,
        credentials=config.credentials,
    )
    try:
        return await gateway.token_refused()
    finally:
        await gateway.close()


async def _not_answering(config: WebConfig) -> str | None:
    """Why the game server does not answer the viewer's first question (one
    ListGames), or None when it does: a viewer started in front of nothing, or of
    another program, served a 502 page on every request and said nothing."""
    import grpc
    from sheepfold.v1 import arena_pb2, arena_pb2_grpc

    from clients.connect import open_channel, reason

    channel = open_channel(config.server, config.credentials)
    try:
        await arena_pb2_grpc.ArenaStub(channel).ListGames(
            arena_pb2.ListGamesRequest(), timeout=TOKEN_CHECK_SECONDS
        )
    except grpc.aio.AioRpcError as error:
        return reason(error, TOKEN_CHECK_SECONDS)
    finally:
        await channel.close()
    return None


async def _serve(config: WebConfig, host: str, port: int) -> str | None:
    """Serve until stopped; or, at once, the server's refusal of the admin token."""
    away = await _not_answering(config)
    if away is None:
        refused = await _token_refused(config)
        if refused:
            return refused
    import asyncio

    from server.listening import host_port
    from server.stop_signals import StopSignals
    from web.app import start_web

    running = await start_web(config, host, port)
    print(
        f"sheepfold web: http://{host_port(host, running.port)}/ (game server {config.server})",
        file=sys.stderr,
        flush=True,
    )
    if away is not None:
        # Not a stop: the game server may come up (or be restarted with TLS, say)
        # after its viewer, whose pages say so until then; the admin token is
        # checked only when it answers.
        print(f"sheepfold web: {_away_line(config.server, away)}", file=sys.stderr, flush=True)
    # SIGHUP (the terminal closed) stops the viewer as SIGTERM and Ctrl-C do, as
    # it stops `serve`; once stopping, later ones are ignored until the exit.
    signals = StopSignals(asyncio.get_running_loop())
    try:
        await signals.stopping.wait()
    finally:
        signals.ignore_from_now()
        await running.stop()
    return None


def _away_line(server: str, why: str) -> str:
    """What the viewer says at start of a game server it cannot use yet."""
    from clients.connect import misconfigured

    if misconfigured(why):
        return (
            f"warning: cannot use the game server at {server}: {why}; "
            "every page says so until that is put right"
        )
    return (
        f"warning: the game server {server} does not answer yet ({why}): every page "
        "says so until it does (is `sheepfold serve` running there?)"
    )
