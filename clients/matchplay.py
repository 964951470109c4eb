"""Create a match on a server and play every seat with SDK bots or programs, over gRPC."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots.random_bot import RandomBot
from clients.connect import LOOK_SECONDS, RPC_SECONDS, ensure_reachable, open_channel
from clients.launch import BotCommand, BotFailure, BotProcess, Launcher, SandboxPolicy
from clients.sdk import Bot, SeatError, play


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    match_id: str
    seed: int
    result: arena_pb2.MatchResult
    # As the server stored them: defaults filled in, a bool as "true"/"false".
    options: dict[str, str] = field(default_factory=dict)


async def create_match(
    address: str,
    game: str,
    players: int,
    *,
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    clock: arena_pb2.ClockSettings | None = None,
    admin_token: str = "",
    credentials: grpc.ChannelCredentials | None = None,
) -> arena_pb2.CreateMatchResponse:
    request = arena_pb2.CreateMatchRequest(
        game=game,
        players=players,
        options=dict(options or {}),
        clock=clock or arena_pb2.ClockSettings(),
        admin_token=admin_token,
    )
    if seed is not None:
        request.seed = seed
    async with open_channel(address, credentials) as channel:
        await ensure_reachable(channel, address)
        return await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            request, wait_for_ready=True, timeout=RPC_SECONDS
        )


async def match_to_join(
    address: str, match_id: str, credentials: grpc.ChannelCredentials | None = None
) -> arena_pb2.MatchInfo:
    """The match a seat is about to be played in, as the server sees it, before a
    program is started for it: raises `Unreachable` when no server answers at
    `address`, and the server's error (NOT_FOUND for an unknown match)."""
    async with open_channel(address, credentials) as channel:
        await ensure_reachable(channel, address)
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=RPC_SECONDS
        )


async def play_match(
    address: str,
    game: str,
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    clock: arena_pb2.ClockSettings | None = None,
    admin_token: str = "",
    credentials: grpc.ChannelCredentials | None = None,
) -> MatchOutcome:
    """One match, one SDK client per seat."""
    outcome, _ = await play_match_with_commands(
        address,
        game,
        bots,
        None,
        seed=seed,
        options=options,
        clock=clock,
        admin_token=admin_token,
        credentials=credentials,
    )
    return outcome


@dataclass(frozen=True, slots=True)
class CommandBot:
    """A seat played by a program (see clients.launch), sandboxed unless `sandbox` is None."""

    argv: tuple[str, ...]
    folder: str
    sandbox: SandboxPolicy | None = None


async def play_match_with_commands(
    address: str,
    game: str,
    bots: Sequence[Bot | CommandBot],
    launcher: Launcher | None,
    *,
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    clock: arena_pb2.ClockSettings | None = None,
    admin_token: str = "",
    credentials: grpc.ChannelCredentials | None = None,
) -> tuple[MatchOutcome, dict[int, str]]:
    """One match where some seats are programs; returns the outcome and, per seat
    whose program failed or left early, why (a random stand-in finished its seat).
    `credentials` (TLS) are this command's own: a program connects by itself.
    `launcher` starts the programs; None when every seat is an SDK bot."""
    if launcher is None and any(isinstance(bot, CommandBot) for bot in bots):
        raise ValueError("a seat played by a program needs a launcher")
    created = await create_match(
        address,
        game,
        len(bots),
        seed=seed,
        options=options,
        clock=clock,
        admin_token=admin_token,
        credentials=credentials,
    )
    crashed: dict[int, str] = {}

    async def seat_task(seat: int, bot: Bot | CommandBot, token: str) -> None:
        if not isinstance(bot, CommandBot):
            try:
                await play(bot, address, created.match_id, token, seat, credentials=credentials)
            except SeatError as error:
                error.seat = seat  # which of the match's seats it was
                raise
            return
        command = BotCommand(
            argv=bot.argv,
            folder=bot.folder,
            server=address,
            env={
                "SHEEPFOLD_MATCH": created.match_id,
                "SHEEPFOLD_TOKEN": token,
                "SHEEPFOLD_SEAT": str(seat),
                "SHEEPFOLD_SEED": str(seat),
                "SHEEPFOLD_GAME": game,
            },
            sandbox=bot.sandbox,
        )
        assert launcher is not None  # checked above
        try:
            await run_until_match_over(
                launcher.process(command),
                address,
                created.match_id,
                seat=seat,
                credentials=credentials,
            )
        except BotFailure as error:
            crashed[seat] = str(error)
        info = await _match_info(address, created.match_id, credentials)
        if info.status != arena_pb2.MATCH_STATUS_FINISHED:
            crashed.setdefault(seat, LEFT_EARLY)
            await play(
                RandomBot(seat), address, created.match_id, token, seat, credentials=credentials
            )

    seats = [
        asyncio.create_task(seat_task(seat, bot, token))
        for seat, (bot, token) in enumerate(zip(bots, created.seat_tokens, strict=True))
    ]
    try:
        await asyncio.gather(*seats)
    except BaseException:
        # One seat failed (its bot raised): stop the others rather than leave them running.
        for task in seats:
            task.cancel()
        await asyncio.gather(*seats, return_exceptions=True)
        raise
    info = await _match_info(address, created.match_id, credentials)
    outcome = MatchOutcome(created.match_id, created.seed, info.result, dict(info.options))
    return outcome, crashed


# How often a command seat's match is looked at, and how long a bot program may
# take to exit once its match is over before it is killed (the tournament's too).
POLL_SECONDS = 0.5
EXIT_GRACE_SECONDS = 1.0
# A program whose seat has not joined by then is named once: the match would
# otherwise sit silent until the server's join timeout and the seat's strikes.
JOIN_NOTICE_SECONDS = 5.0
_OVER = (arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_ABORTED)
LEFT_EARLY = "left before the match was over"


async def run_until_match_over(
    process: BotProcess,
    address: str,
    match_id: str,
    seat: int | None = None,
    credentials: grpc.ChannelCredentials | None = None,
) -> None:
    """Run a bot program to its end, as `BotProcess.run` does, but once its match
    is over give it EXIT_GRACE_SECONDS to exit and then kill it: a program that
    ignores SIGTERM and sleeps would otherwise keep the command waiting forever.
    Raises `BotFailure` if the program failed before the match was over, or
    exited 0 while the server says it is not (it left its seat: `sheepfold bot`
    once reported that as success, exit 0, with the match waiting on its seat).
    With `seat`, a warning says so if that seat has not joined
    JOIN_NOTICE_SECONDS in."""
    running = asyncio.ensure_future(process.run())
    # Its failure is read below, or not at all when this is cancelled (Ctrl-C)
    # while the program is killed: never "Task exception was never retrieved".
    running.add_done_callback(_retrieved)
    loop = asyncio.get_running_loop()
    notice_at = None if seat is None else loop.time() + JOIN_NOTICE_SECONDS
    try:
        while True:
            await asyncio.wait({running}, timeout=POLL_SECONDS)
            if running.done():
                running.result()
                await _not_left_early(address, match_id, credentials, process.stderr_tail)
                return
            info = await _info_if_any(address, match_id, credentials)
            if info is None:  # the server cannot say: the program's own end is what counts
                continue
            if info.status in _OVER:
                await asyncio.wait({running}, timeout=EXIT_GRACE_SECONDS)
                if running.done():
                    return running.result()
                # Lingering after its match is no failure, unless the seat was
                # disqualified and a sandbox limit is why (a fork bomb).
                await process.kill()
                _limit_kept_it_out(process, info, seat)
                return
            if notice_at is not None and seat is not None and loop.time() >= notice_at:
                notice_at = None
                if seat < len(info.seats) and not info.seats[seat].joined:
                    _warn_not_joined(match_id, seat)
    finally:
        if not running.done():
            await process.kill()
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)


def _limit_kept_it_out(process: BotProcess, info: arena_pb2.MatchInfo, seat: int | None) -> None:
    """BotFailure naming the sandbox limit a killed program ran into, when its
    seat was disqualified or never joined (limit_kept_out)."""
    hit = limit_kept_out(process, info, seat)
    if hit is not None:
        raise BotFailure(hit)


def limit_kept_out(
    process: BotProcess, info: arena_pb2.MatchInfo | None, seat: int | None
) -> str | None:
    """The sandbox limit a killed program ran into, when it kept the program
    out of its seat (disqualified, or never joined; `info` None: nobody
    joined); None otherwise. A fork bomb whose forks were refused lived on,
    missed its deadlines and was said to be "disqualified" alone, where one
    that exited on the refusal was "process limit (N)". `sheepfold match` and
    the tournament both ask it."""
    if seat is None:
        return None
    if info is not None and seat < len(info.seats):
        placed = info.seats[seat]
        if placed.joined and not placed.disqualified:
            return None
    elif info is not None:
        return None
    return process.limit_hit()


async def _not_left_early(
    address: str,
    match_id: str,
    credentials: grpc.ChannelCredentials | None,
    stderr_tail: str = "",
) -> None:
    """BotFailure when a program that exited 0 left its match before the end:
    the server says it is neither finished nor aborted (a server that cannot
    say lets the program's own end count). `stderr_tail`, the last lines the
    program wrote there, says why, as it does for any other exit."""
    info = await _info_if_any(address, match_id, credentials)
    if info is not None and info.status not in _OVER:
        raise BotFailure(LEFT_EARLY, stderr_tail)


def _warn_not_joined(match_id: str, seat: int) -> None:
    structlog.get_logger("sheepfold.match").warning(
        "bot program has not joined its seat",
        match_id=match_id,
        seat=seat,
        after_seconds=JOIN_NOTICE_SECONDS,
        note="it is still running; a seat that does not join is played at random, "
        "struck for each decision it misses and then disqualified (a match that no "
        "seat joins is aborted at the server's start timeout)",
    )


def _retrieved(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()


async def _info_if_any(
    address: str, match_id: str, credentials: grpc.ChannelCredentials | None
) -> arena_pb2.MatchInfo | None:
    """The match as the server sees it; None when the server cannot say, or has
    not said within LOOK_SECONDS (a server gone silent must not hold the command
    after its program has exited)."""
    try:
        return await _match_info(address, match_id, credentials, LOOK_SECONDS)
    except grpc.aio.AioRpcError:
        return None


async def _match_info(
    address: str,
    match_id: str,
    credentials: grpc.ChannelCredentials | None = None,
    timeout: float = RPC_SECONDS,
) -> arena_pb2.MatchInfo:
    async with open_channel(address, credentials) as channel:
        return await arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=timeout
        )
