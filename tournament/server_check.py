"""Is a server that failed a game really gone, or did it only hiccup?

One UNAVAILABLE (a connection reset, a server its supervisor restarts a second
later) or CANCELLED (a server stopping cancels the calls in flight) says
little: a healthy server would be dropped for the rest of a run for it, or a
game left unplayed. So before a server is given up, it is asked for its health
(`grpc.health.v1`, the whole server: SERVING only while it takes matches)
PAUSE_SECONDS apart for WAIT_SECONDS (CHECKS times at most), each answer due
within CHECK_SECONDS. A server that answers SERVING to any of them is back; one
that never does is gone, and so at once is one reached the wrong way (TLS on
one side only). The window covers a restart with room to spare: five checks
over five seconds once gave up on a server its supervisor restarted, whose
stop (up to 7 s) and start (gRPC's import and the restore of its matches: 4 s
on a busy machine) took longer, and ended the run; a longer window only
delays the end of a run whose server is gone for good.
A game that failed on a server that came back is played again, up to
MAX_HICCUPS times: a server that fails every game while it says it is
healthy cannot keep a run going for ever.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.connect import (
    CONNECT_SECONDS,
    ServerTls,
    Unreachable,
    ensure_answering,
    ensure_reachable,
    misconfigured,
    open_channel,
    reason_at,
    tls_credentials,
)
from clients.interrupts import run_interruptible
from tournament.bot_launch import refuse_sandboxed_on_tcp
from tournament.config import TournamentConfig
from tournament.run_error import RunError

__all__ = [
    "CHECKS",
    "CHECK_SECONDS",
    "CUT_SHORT",
    "MAX_HICCUPS",
    "PAUSE_SECONDS",
    "WAIT_SECONDS",
    "answering",
    "reach_before_storing",
    "still_gone",
]

WAIT_SECONDS = 15.0  # how long a server that went away is waited for
CHECKS = 15  # health checks at most in that time
CHECK_SECONDS = 2.0  # each health check's deadline
PAUSE_SECONDS = 1.0  # between two checks
MAX_HICCUPS = 3  # a game that failed so this often is not played this run

# How a call ends that its server cut short: UNAVAILABLE (gone, restarting, or
# stopping and refusing new calls) or CANCELLED (a server that stops cancels
# the calls still in flight). Never the runner's own doing: a call this
# process cancels (Ctrl-C, a game given up) raises asyncio.CancelledError,
# not an AioRpcError.
CUT_SHORT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED})

# What a server that answers at all but is not SERVING says to its health check.
_NOT_SERVING = "its health check says {status}"


def reach_before_storing(
    config: TournamentConfig, address: str, database: str, tls: ServerTls | None, *, stored: bool
) -> None:
    """RunError, in one line, when `config`'s sandboxed bots could not use
    `address` (not a Unix socket): a mistake in the command line, named before
    the server is asked. Then, RunError when no server answers at `address` and the run's
    tournament is not `stored` in its `database` yet: a run on a mistyped
    --server once created the file (or, in a database of other tournaments,
    the tournament's rows) before finding nobody there, so a corrected config
    (another player count, say) was then refused as a resume of a tournament
    that had never played a game. (A stored tournament is left to the run: a
    finished one still reports without its server.)
    A server must answer a call within CONNECT_SECONDS, not only take the
    connection."""
    refuse_sandboxed_on_tcp(config, address)
    if database == ":memory:" or stored:
        return

    async def reach() -> None:
        try:
            await answering(address, tls)
        except Unreachable as error:
            raise RunError(str(error)) from None

    run_interruptible(reach())


async def answering(address: str, tls: ServerTls | None) -> None:
    """Return once a game server at `address` answers a call; Unreachable,
    saying why, when none does within CONNECT_SECONDS (a Ray run asks this
    from its nodes: tournament.executors.server_reach)."""
    async with open_channel(address, tls_credentials(tls)) as channel:
        await ensure_reachable(channel, address)
        # A connection up is not a game server answering: one whose
        # transport finished the handshake but whose calls go unanswered
        # (its loop stuck) passed, and so did a --health-port, and the
        # run stored its tournament before its games failed.
        await ensure_answering(channel, address, CONNECT_SECONDS, game_port=True)


async def still_gone(
    address: str,
    tls: ServerTls | None = None,
    *,
    waiting: Callable[[str], None] | None = None,
) -> str | None:
    """None once the server at `address` reports SERVING; after WAIT_SECONDS
    (or CHECKS checks) without it, why it did not (the last check's answer, in
    a few words). `waiting` is handed the first check's answer when the checks
    go on after it, so that a caller can say the wait before it is over."""
    why = "not checked"
    until = time.monotonic() + WAIT_SECONDS
    for check in range(CHECKS):
        if check:
            if time.monotonic() >= until:
                break
            await _pause(PAUSE_SECONDS)
        why = await _check(address, tls)
        if not why:
            return None
        if misconfigured(why):  # TLS on one side only, say: no later check differs
            return why
        if not check and waiting is not None:
            waiting(why)
    return why


async def _pause(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def _check(address: str, tls: ServerTls | None) -> str:
    """Empty when the server reports SERVING, else why not. A fresh channel
    each time, with a connection of its own: one this process shares with
    channels that failed (gRPC's subchannel pool) waits out their reconnect
    backoff, failing at once meanwhile, even to a server back up."""
    options = [("grpc.use_local_subchannel_pool", 1)]
    async with open_channel(address, tls_credentials(tls), options) as channel:
        try:
            answer = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""),
                timeout=CHECK_SECONDS,
                wait_for_ready=False,
            )
        except grpc.aio.AioRpcError as error:
            if error.code() in CUT_SHORT or error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                return await reason_at(address, error, CHECK_SECONDS)
            return ""  # any other answer (no health service at all) is a server there
    if answer.status == health_pb2.HealthCheckResponse.SERVING:
        return ""
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
    return _NOT_SERVING.format(status=status)
