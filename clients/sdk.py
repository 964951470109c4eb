"""The Python bot SDK.

A bot is any object with one method, `decide(decision) -> int`, that returns
the index of its chosen action. `play()` does everything else: it joins the
seat, answers decisions, reports errors and rejoins after a dropped
connection, and returns the final result.

    class FirstActionBot:
        def decide(self, decision: DecisionView) -> int:
            return 0

    result = asyncio.run(play(FirstActionBot(), "127.0.0.1:50051", match_id, token))

This module plays the seat across Play streams: the channel, which ends are
worth another join, the backoff, when to give up, and what GetMatch is asked
between streams. `clients.play_stream` plays each stream, and holds what a bot
sees (`DecisionView`, `Bot`, `action_index`), which is imported from here.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import grpc
import structlog
from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.address_check import check_address
from clients.connect import (
    LOOK_SECONDS,
    ensure_reachable,
    keepalive_options,
    open_channel,
    refusal_text,
    trust_hint,
    went_away,
)
from clients.connect import BadAddress as BadAddress
from clients.connect import Unreachable as Unreachable
from clients.play_stream import NOT_AN_INDEX as NOT_AN_INDEX
from clients.play_stream import Bot as Bot
from clients.play_stream import DecisionView as DecisionView
from clients.play_stream import JoinUnanswered, Progress, StreamEnded, play_stream
from clients.play_stream import action_index as action_index
from clients.play_stream import status_name as status_name
from clients.rejoin import REJOIN_SECONDS as REJOIN_SECONDS
from games.words import count

# Codes after which rejoining makes sense: the server or the network went away.
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
# Also worth another join while the server has not acknowledged this stream's
# join: a server or proxy under a burst of streams may cancel a stream before
# it starts, a server pushes out Play streams beyond its bound on joins pending
# from one address (RESOURCE_EXHAUSTED), as when every bot rejoins a restarted
# server at once, and ends a stream whose join did not arrive in time
# (DEADLINE_EXCEEDED).
RETRYABLE_BEFORE_JOINED = RETRYABLE | {
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
}


# gRPC's words for a message past its receiver's limit ("SERVER: Received
# message larger than max (20044 vs. 16384)"): a join the server refused for its
# size (a match id or token far too long) is refused again however often sent.
TOO_LARGE = "Received message larger than max"
TOO_LARGE_HINT = "the join is larger than the server takes; check the match id and token"
# The server's words for a stream it ended RESOURCE_EXHAUSTED for refusing more
# than 100 of its messages (a bot that answers out of range every time, asked
# again after each refusal), and what is said after them, with the last refusal.
FLOODED = "rejected messages on this stream"
REFUSED_ANSWERS = "the server refused this seat's answers, the last"


def should_rejoin(code: grpc.StatusCode, joined: bool, details: str = "") -> bool:
    """Whether a stream that ended with `code` (and `details`) is worth joining
    again; `joined`: the server acknowledged that stream's join (not an earlier
    stream's)."""
    if too_large(code, details):
        return False
    return code in (RETRYABLE if joined else RETRYABLE_BEFORE_JOINED)


def too_large(code: grpc.StatusCode, details: str) -> bool:
    """Whether the server refused the request for its size."""
    return code == grpc.StatusCode.RESOURCE_EXHAUSTED and TOO_LARGE in details


RECEIVE_OPTION = "grpc.max_receive_message_length"
CHANNEL_OPTIONS = [
    # Each seat gets its own connection: by default every channel of a process
    # shares one HTTP/2 connection, which serialises many bots in one process.
    ("grpc.use_local_subchannel_pool", 1),
    *keepalive_options(),
    # The largest message received, unless `play(max_message_bytes=...)` says
    # otherwise: gRPC's own default, and a server's (`serve --max-message-bytes`).
    (RECEIVE_OPTION, DEFAULT_MAX_MESSAGE_BYTES),
]
# gRPC takes its settings as C ints.
MAX_MESSAGE_BYTES_LIMIT = 2**31 - 1


class SeatError(Exception):
    """The server refused the seat for good (bad token, match over, replaced)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(refusal_text(code, details))
        self.code = code
        self.details = details
        # Which seat of a match played by one program (`sheepfold match`) this
        # was, set by whatever plays several; None when nobody said.
        self.seat: int | None = None


async def play(
    bot: Bot,
    address: str,
    match_id: str,
    token: str,
    seat: int | None = None,
    *,
    credentials: grpc.ChannelCredentials | None = None,
    max_reconnects: int | None = None,
    rejoin_seconds: float = REJOIN_SECONDS,
    events_in_decisions: bool = True,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> arena_pb2.MatchResult:
    """Play one seat to the end of the match and return the result.

    The bot's `on_event` sees every event its seat may see, in order, before
    the decision that follows them (an `async` one is awaited before the bot
    is given the next message; the stream is read meanwhile, so a result that
    comes first ends `play`, as while an `async` `decide` thinks). With
    `events_in_decisions` (the default) the server sends them inside that
    decision rather than one message each, which costs the server and this
    client about half as much per decision; the bot sees no difference but
    when an event arrives.

    Raises `clients.connect.Unreachable` when no server answers at `address`
    at the start: at once when the connection is refused, within a few
    seconds when nothing answers; once connected, a lost connection is
    retried (the server may be restarting), waiting a few seconds for the
    server each time, for `rejoin_seconds` (90 by default) from the first
    failed attempt, or `max_reconnects` failed attempts in a row when given,
    whichever ends first (a rejoin that is back in play starts both again),
    and then raises SeatError (UNAVAILABLE for a server that stayed away)
    saying that it gave up and why. A server restarted by hand, or moved by
    an orchestrator that pulls its image first, may take longer: raise
    `rejoin_seconds` to wait for it (the restored match waits for its seats,
    up to its server's start timeout, once the server is back).

    `max_message_bytes` is the largest message the seat receives: 4 MiB by
    default, as gRPC's and a server's own (`serve --max-message-bytes`), at
    least 1 MiB (a decision is one message). A server allowed larger messages
    may send a decision past 4 MiB: raise it to match, or the stream ends
    RESOURCE_EXHAUSTED and the seat is lost.
    """
    check_bot(bot)
    try:
        check_address(address)  # "localhost" (no port) would be tried on port 443
    except ValueError as error:
        raise BadAddress(address, str(error)) from None
    for name, value in (("match_id", match_id), ("token", token)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a string, not {type(value).__name__} {value!r}")
    if not rejoin_seconds >= 0:  # NaN included
        raise ValueError(f"rejoin_seconds must be 0 or more, not {rejoin_seconds!r}")
    check_message_bytes(max_message_bytes)
    if seat is not None and not -(2**31) <= seat < 2**31:
        # The wire carries a seat as an int32: say so before connecting.
        raise ValueError(f"seat {seat} is out of range: a seat is a 32-bit signed number")
    log = structlog.get_logger("sheepfold.sdk").bind(match_id=match_id)
    progress = Progress()
    rejoins = _Rejoins(max_reconnects, rejoin_seconds)
    while True:
        try:
            async with _channel(address, credentials, max_message_bytes) as channel:
                try:
                    # A Play call waits for its channel as long as it takes: a server
                    # that is gone would be waited for for ever. A rejoin waits the
                    # few seconds through refusals, for a server that is restarting.
                    await ensure_reachable(
                        channel,
                        address,
                        patient=rejoins.attempts > 0,
                        trust=trust_hint(credentials),
                    )
                except Unreachable as error:
                    if rejoins.attempts == 0:
                        raise
                    raise _ServerGone(str(error)) from None
                result = await play_stream(
                    bot, channel, match_id, token, seat, log, progress, events_in_decisions
                )
            return result
        except grpc.aio.AioRpcError as error:
            code = error.code()
            rejoins.lost(progress.played)
            if code == grpc.StatusCode.FAILED_PRECONDITION:
                # Joined (or rejoined, e.g. after a server restart) once the match
                # was over: the result is still there to fetch.
                finished = await _finished_result(address, match_id, credentials, max_message_bytes)
                if finished is not None:
                    return finished
            details = error.details() or ""
            # grpc.aio may report a stream that a newer join replaced (ABORTED)
            # as INTERNAL, when a write failed as it ended (grpc/grpc#36066):
            # rejoining would take the seat back from the newer stream.
            if (
                code == grpc.StatusCode.INTERNAL
                and progress.seat is not None
                and await seat_taken(
                    address, match_id, progress.seat, credentials, max_message_bytes
                )
            ):
                raise SeatError(grpc.StatusCode.ABORTED, replaced(progress.seat)) from error
            if not should_rejoin(code, progress.joined, details):
                if too_large(code, details):
                    details += f": {TOO_LARGE_HINT}"
                elif FLOODED in details and progress.refused:
                    details += f"; {REFUSED_ANSWERS}: {progress.refused}"
                raise SeatError(code, details) from error
            if rejoins.over():
                lost = went_away(address, error) or details  # not gRPC's "Stream removed"
                raise SeatError(code, rejoins.gave_up(lost)) from error
            log.info(
                "connection lost, rejoining",
                code=code.name,
                details=error.details(),
                attempt=rejoins.attempts + 1,
            )
            await rejoins.wait()
        except JoinUnanswered as unanswered:
            rejoins.lost(False)
            why = f"the server at {address} {unanswered}"
            if rejoins.over():
                raise SeatError(grpc.StatusCode.UNAVAILABLE, rejoins.gave_up(why)) from None
            log.info("join unanswered, joining again", why=why, attempt=rejoins.attempts + 1)
            await rejoins.wait()
        except _ServerGone as gone:
            rejoins.lost(False)
            if rejoins.over():
                raise SeatError(grpc.StatusCode.UNAVAILABLE, rejoins.gave_up(str(gone))) from None
            log.info("server not back yet, rejoining", why=str(gone), attempt=rejoins.attempts + 1)
            await rejoins.wait()
        except StreamEnded:
            rejoins.lost(progress.played)
            if rejoins.over():
                raise SeatError(
                    grpc.StatusCode.UNAVAILABLE,
                    rejoins.gave_up("the stream ended without a result"),
                ) from None
            await rejoins.wait()


class _Rejoins:
    """The attempts to join again in a row, since the seat was last in play,
    and when they began; whether to give up, and the line that says so."""

    def __init__(self, max_attempts: int | None, seconds: float) -> None:
        self.max_attempts = max_attempts
        self.seconds = seconds
        self.attempts = 0
        self.since: float | None = None

    def lost(self, played: bool) -> None:
        """The stream ended; `played`: it was back in play, a new outage begins."""
        if played:
            self.attempts, self.since = 0, None
        if self.since is None:
            self.since = time.monotonic()

    def over(self) -> bool:
        if self.max_attempts is not None and self.attempts >= self.max_attempts:
            return True
        return self.since is not None and time.monotonic() - self.since >= self.seconds

    def gave_up(self, why: str) -> str:
        said = f"{why}; gave up after {count(self.attempts, 'attempt')} to join again"
        if self.max_attempts is not None and self.attempts >= self.max_attempts:
            return said
        return (
            f"{said} over {self.seconds:g} s (rejoin_seconds, `sheepfold bot --rejoin-seconds`): "
            "raise it to wait longer for a server that restarts"
        )

    async def wait(self) -> None:
        self.attempts += 1
        await asyncio.sleep(self.delay())

    def delay(self) -> float:
        """Seconds before the next attempt: 0.2, 0.4, 0.8, ... 2 at most, each
        drawn from 0.75 to 1.25 times that. Many bots of one restarted server
        would otherwise knock at the same instants, their joins refused in
        bursts (RESOURCE_EXHAUSTED) and tried again in step."""
        return min(0.1 * 2**self.attempts, 2.0) * random.uniform(0.75, 1.25)


def check_bot(bot: object) -> None:
    """A TypeError, before anything is joined, for what cannot play a seat: a
    bot's class rather than a bot (its `decide` then fails at the first
    decision for want of `self`, the seat already taken), or an object with
    no `decide` method."""
    if isinstance(bot, type):
        raise TypeError(
            f"play() takes a bot, not its class: play({bot.__name__}(), ...) rather than "
            f"play({bot.__name__}, ...)"
        )
    if not callable(getattr(bot, "decide", None)):
        raise TypeError(
            "play() takes a bot, an object with a decide(decision) method that returns "
            f"the index of its chosen action; {type(bot).__qualname__!r} objects have none"
        )


def check_message_bytes(max_message_bytes: int) -> None:
    """A ValueError for a receive limit below what a decision may take (as
    `serve --max-message-bytes` refuses it) or past what gRPC takes."""
    if isinstance(max_message_bytes, bool) or not isinstance(max_message_bytes, int):
        raise TypeError(f"max_message_bytes must be an int, not {max_message_bytes!r}")
    if not MIN_MAX_MESSAGE_BYTES <= max_message_bytes <= MAX_MESSAGE_BYTES_LIMIT:
        raise ValueError(
            f"max_message_bytes must be from {MIN_MAX_MESSAGE_BYTES} (1 MiB: a decision is "
            f"one message) to {MAX_MESSAGE_BYTES_LIMIT}, not {max_message_bytes!r}"
        )


def channel_options(max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> list[tuple[str, Any]]:
    """CHANNEL_OPTIONS with the largest message received set to `max_message_bytes`."""
    kept = [option for option in CHANNEL_OPTIONS if option[0] != RECEIVE_OPTION]
    return [*kept, (RECEIVE_OPTION, max_message_bytes)]


def _channel(
    address: str,
    credentials: grpc.ChannelCredentials | None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> grpc.aio.Channel:
    return open_channel(address, credentials, channel_options(max_message_bytes))


class _ServerGone(Exception):
    """The server did not answer a rejoin within a few seconds."""


def replaced(seat: int) -> str:
    """What the server says when it ends a stream that a newer join replaced."""
    return f"replaced by a newer join for seat {seat}"


# How long `seat_taken` waits before it looks at a connected seat again. Each
# look, as `_finished_result`'s, waits LOOK_SECONDS for GetMatch: a server that
# has gone silent fails it, and the rejoin that follows (or the stream's own
# error) then says what became of the seat, as it would have without the look.
SEAT_RECHECK_SECONDS = 0.5


async def seat_taken(
    address: str,
    match_id: str,
    seat: int,
    credentials: grpc.ChannelCredentials | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> bool:
    """Whether another stream holds `seat` now, as GetMatch (no token needed)
    shows it: connected twice, SEAT_RECHECK_SECONDS apart. A replaced stream's
    seat is connected to the newer stream from the moment it joined; a stream
    the server ended for any other reason leaves the seat unconnected before
    its status is sent, and one the server has yet to notice is gone leaves it
    connected a little longer, hence the second look. False when GetMatch
    fails or is refused: the caller rejoins, as it would without asking."""
    async with _channel(address, credentials, max_message_bytes) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for look in range(2):
            if look:
                await asyncio.sleep(SEAT_RECHECK_SECONDS)
            try:
                info = await stub.GetMatch(
                    arena_pb2.GetMatchRequest(match_id=match_id), timeout=LOOK_SECONDS
                )
            except grpc.aio.AioRpcError:
                return False
            seats = [s for s in info.seats if s.seat == seat]
            if not seats or not seats[0].connected:
                return False
    return True


async def _finished_result(
    address: str,
    match_id: str,
    credentials: grpc.ChannelCredentials | None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> arena_pb2.MatchResult | None:
    async with _channel(address, credentials, max_message_bytes) as channel:
        try:
            info = await arena_pb2_grpc.ArenaStub(channel).GetMatch(
                arena_pb2.GetMatchRequest(match_id=match_id), timeout=LOOK_SECONDS
            )
        except grpc.aio.AioRpcError:
            # No result to fetch (the match was purged, the server is going away
            # or has gone silent): the Play stream's own FAILED_PRECONDITION is
            # what the caller reports.
            return None
    return info.result if info.status == arena_pb2.MATCH_STATUS_FINISHED else None


def play_blocking(bot: Bot, address: str, match_id: str, token: str, **kwargs: Any) -> Any:
    """`play` for code that is not async."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(play(bot, address, match_id, token, **kwargs))
    # Checked before `play(...)` is called: its coroutine would never be awaited.
    raise RuntimeError(
        "play_blocking cannot run inside a running event loop (an async function, a Jupyter"
        " notebook): write `result = await play(bot, address, match_id, token)` there"
    )
