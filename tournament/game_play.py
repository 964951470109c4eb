"""Playing one scheduled game through a server: create the match, start one bot
per seat, replace a bot that crashes by a random stand-in, wait for the end,
and build the game's record. The runner calls it for each game; a Ray worker
calls `play_game` for the games handed to it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.connect import (
    KEEPALIVE_TIMEOUT,
    RPC_SECONDS,
    ServerTls,
    Unreachable,
    ensure_answering,
    ensure_reachable,
    open_channel,
    tls_credentials,
)
from clients.launch import Launcher
from clients.matchplay import EXIT_GRACE_SECONDS, LEFT_EARLY, limit_kept_out
from server.rulings import NOBODY_JOINED
from tournament.config import TournamentConfig
from tournament.outcome import game_record
from tournament.room import ServerFull
from tournament.schedule import ScheduledGame
from tournament.seats import CommandSeat, InProcessSeat, bot_seed
from tournament.server_check import CUT_SHORT, still_gone
from tournament.stalling import MoveClock
from tournament.store import GameRecord

__all__ = ["GamePlayer", "PlayedGame", "play_game"]

POLL_SECONDS = 0.2
# After a call failed UNAVAILABLE or timed out: how long the server has to answer
# one more before the game's server counts as gone (see play_game; a run without
# Ray ends then, see batch_play: a frozen server keeps its connection up, and its
# every call times out).
ANSWER_SECONDS = KEEPALIVE_TIMEOUT
NEVER_JOINED = (
    "never joined: the server aborted the match unplayed when no seat had joined "
    "within its start timeout"
)
# Moves after which a server that counts thinking time has counted some.
OLD_SERVER_MOVES = 10
# The result, the game's full record (None if it could not be fetched), and
# why each crashed bot crashed.
PlayedGame = tuple[GameRecord, arena_pb2.Replay | None, dict[str, str]]


class NobodyJoined(Exception):
    """The server aborted the match unplayed: no seat joined within its start timeout."""


@dataclass(frozen=True, slots=True)
class GamePlayer:
    """What playing a game needs besides the game itself."""

    config: TournamentConfig
    address: str
    admin_token: str
    launcher: Launcher
    log: Any
    tls: ServerTls | None = None  # how to reach a TLS server; None: plaintext
    # Warnings given once per run (a set shared by the games: the player is frozen).
    warned: set[str] = field(default_factory=set, compare=False)
    # Told of each match created for a game (the game's key, its match id):
    # the runner records the game in play for the viewer; None: nobody is told.
    on_match: Callable[[ScheduledGame, str], Awaitable[None]] | None = field(
        default=None, compare=False
    )

    async def play(self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame) -> PlayedGame:
        """The game's result, its full record, and why each crashed bot crashed."""
        config = self.config
        request = arena_pb2.CreateMatchRequest(
            game=config.game,
            players=config.players,
            options=config.options_dict,
            seed=scheduled.match_seed,
            clock=arena_pb2.ClockSettings(
                decision_seconds=config.decision_seconds,
                time_bank_seconds=config.time_bank_seconds,
                max_strikes=config.max_strikes,
            ),
            admin_token=self.admin_token,
        )
        started = time.monotonic()
        created = await self._create(stub, request, scheduled)
        log = self.log.bind(match_id=created.match_id, game=config.game, key=scheduled.key)
        seats: dict[int, Any] = {}
        tasks: dict[int, asyncio.Task[None]] = {}
        stand_ins: list[asyncio.Task[None]] = []
        crashed: dict[int, str] = {}
        slow: dict[int, str] = {}
        info: arena_pb2.MatchInfo | None = None
        try:
            for seat, bot_name in enumerate(scheduled.seats):
                seats[seat] = self._seat(scheduled, seat, bot_name, created.match_id, created)
                tasks[seat] = _seat_task(seats[seat].run())
            try:
                info = await self._supervise(
                    stub, created, scheduled, seats, tasks, stand_ins, crashed, slow, log
                )
            except NobodyJoined:
                pass  # the bots are stopped first, then the game is played without them
            else:
                await _settle(tasks.values(), EXIT_GRACE_SECONDS)
        finally:
            await _stop_seats(seats.values(), [*tasks.values(), *stand_ins])
        for seat, hit in _limits_hit(seats, info).items():
            if seat not in crashed:
                crashed[seat] = hit
                log.warning(
                    "bot program hit a sandbox limit and lost its seat",
                    seat=seat,
                    bot=scheduled.seats[seat],
                    error=hit,
                )
        if info is None:
            created, info = await self._without_the_bots(stub, request, scheduled, slow, log)
            log = log.bind(match_id=created.match_id)
        match_id = created.match_id
        result = info.result
        replay = await self._replay(stub, match_id, log)
        record = game_record(
            scheduled,
            match_id,
            scores=list(result.scores),
            server_ranks=list(result.ranks),
            strikes=[seat.strikes for seat in result.seats],
            disqualified=[seat.disqualified for seat in result.seats],
            crashed=crashed,
            end_reason=result.end_reason,
            details_json=result.details_json,
            duration_seconds=time.monotonic() - started,
            finished_at=time.time(),
            forfeit_on_timeout=config.forfeit_on_timeout,
            slow=slow,
        )
        reasons = {scheduled.seats[seat]: reason for seat, reason in crashed.items()}
        return record, replay, reasons

    async def _create(
        self,
        stub: arena_pb2_grpc.ArenaStub,
        request: arena_pb2.CreateMatchRequest,
        scheduled: ScheduledGame,
    ) -> arena_pb2.CreateMatchResponse:
        """The new match, `on_match` told of it; ServerFull when the server
        hosts its limit of matches."""
        try:
            created = await stub.CreateMatch(request, wait_for_ready=True, timeout=RPC_SECONDS)
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise ServerFull(self.address, error.details() or "no room") from None
            raise
        if self.on_match is not None:
            await self.on_match(scheduled, created.match_id)
        return created

    async def _without_the_bots(
        self,
        stub: arena_pb2_grpc.ArenaStub,
        request: arena_pb2.CreateMatchRequest,
        scheduled: ScheduledGame,
        slow: dict[int, str],
        log: Any,
    ) -> tuple[arena_pb2.CreateMatchResponse, arena_pb2.MatchInfo]:
        """The server aborted the match unplayed: no bot joined within its start
        timeout. Each bot held it up and loses, as a seat left to its clock would
        have; random stand-ins play the same deal in a new match, so that the
        game has scores and a record."""
        for seat in range(len(scheduled.seats)):
            slow[seat] = NEVER_JOINED
        log.warning(
            "no bot joined before the server gave up on the match; random stand-ins "
            "play the game again, and the bots lose it",
            bots=list(scheduled.seats),
        )
        created = await self._create(stub, request, scheduled)
        log = log.bind(match_id=created.match_id)
        stand_ins = [
            self._stand_in(scheduled, seat, created) for seat in range(len(scheduled.seats))
        ]
        try:
            info = await self._supervise(stub, created, scheduled, {}, {}, stand_ins, {}, slow, log)
        finally:
            await _stop_seats((), stand_ins)
        return created, info

    async def _replay(
        self, stub: arena_pb2_grpc.ArenaStub, match_id: str, log: Any
    ) -> arena_pb2.Replay | None:
        """The game's full record, kept with its result so it can be replayed later.
        A server that went away as the game ended (a restart) is waited for as
        a failed game's is (tournament.server_check), then asked again: the
        game was once stored with its result alone, and so it still was when
        a server stopped by SIGTERM cancelled the call (CANCELLED)."""
        request = arena_pb2.GetReplayRequest(match_id=match_id, admin_token=self.admin_token)
        try:
            try:
                return await stub.GetReplay(request, timeout=RPC_SECONDS)
            except grpc.aio.AioRpcError as error:
                if error.code() not in CUT_SHORT:
                    raise
                if await still_gone(self.address, self.tls) is not None:
                    raise
                return await stub.GetReplay(request, timeout=RPC_SECONDS, wait_for_ready=True)
        except grpc.aio.AioRpcError as error:
            # The result still counts; only `sheepfold replay` will not find this game.
            log.warning(
                "cannot fetch the game's record", error=f"{error.code().name}: {error.details()}"
            )
            return None

    def _seat(
        self,
        scheduled: ScheduledGame,
        seat: int,
        bot_name: str,
        match_id: str,
        created: arena_pb2.CreateMatchResponse,
    ) -> InProcessSeat | CommandSeat:
        bot = self.config.bot(bot_name)
        seed = bot_seed(scheduled.match_seed, seat, bot_name)
        token = created.seat_tokens[seat]
        if bot.command is not None:
            return CommandSeat(
                bot,
                self.config.base_dir,
                {
                    "SHEEPFOLD_MATCH": match_id,
                    "SHEEPFOLD_TOKEN": token,
                    "SHEEPFOLD_SEAT": str(seat),
                    "SHEEPFOLD_SEED": str(seed),
                    "SHEEPFOLD_GAME": self.config.game,
                },
                self.launcher,
                self.address,
            )
        return InProcessSeat(bot.spec, seed, self.address, match_id, token, self.tls, name=bot_name)

    async def _supervise(
        self,
        stub: arena_pb2_grpc.ArenaStub,
        created: arena_pb2.CreateMatchResponse,
        scheduled: ScheduledGame,
        seats: dict[int, Any],
        tasks: dict[int, asyncio.Task[None]],
        stand_ins: list[asyncio.Task[None]],
        crashed: dict[int, str],
        slow: dict[int, str],
        log: Any,
    ) -> arena_pb2.MatchInfo:
        """Wait for the match to finish, replacing crashed bots by random stand-ins.

        A match still running after `match_timeout_seconds` is held up: the seat
        that was to move for most of that time (`slow`) loses, and a stand-in
        finishes its seat within another such period, so the match ends with
        real scores and a record. With nobody to blame it plays on, given
        more time, as long as moves come (_overtime); once a stretch of that
        time passes without a move, or a stand-in's game outlasts another
        period, it is a TimeoutError: the game is not counted.
        """
        match_id = created.match_id
        timeout = self.config.match_timeout_seconds
        deadline = time.monotonic() + timeout
        allowed = timeout  # the time given so far: more while nobody is to blame and moves come
        moves_then = 0  # the moves made when the time given last ran out
        examined: set[int] = set()
        started = False  # the server started the match (said once, with who was missing)
        clock = MoveClock()
        while True:
            running = [task for task in tasks.values() if not task.done()]
            if running:
                await asyncio.wait(running, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            newly_done = [
                seat for seat, task in tasks.items() if task.done() and seat not in examined
            ]
            info = await stub.GetMatch(
                arena_pb2.GetMatchRequest(match_id=match_id), timeout=RPC_SECONDS
            )
            clock.polled(
                time.monotonic(),
                _not_there(info),
                {seat.seat: seat.thinking_seconds for seat in info.seats},
            )
            self._check_server_counts(info)
            if not started and tasks:
                started = _started(info, scheduled, log)
            if _nobody_joined(info) and tasks:
                # Before the bots that just ended are looked at: one refused a late
                # join to the aborted match, and never joined either.
                raise NobodyJoined(match_id)
            finished = info.status == arena_pb2.MATCH_STATUS_FINISHED
            for seat in newly_done:
                examined.add(seat)
                task = tasks[seat]
                error = task.exception() if not task.cancelled() else None
                if finished:
                    continue
                reason = str(error) if error is not None else _left_early(seats[seat])
                crashed[seat] = reason
                log.warning(
                    "bot crashed; a random stand-in plays its seat",
                    seat=seat,
                    bot=scheduled.seats[seat],
                    error=reason,
                    failure_kind=type(error).__name__ if error else "exit",
                )
                stand_ins.append(self._stand_in(scheduled, seat, created))
            if finished:
                return info
            if info.status == arena_pb2.MATCH_STATUS_ABORTED:
                why = f": {info.result.end_reason}" if info.result.end_reason else ""
                raise TimeoutError(f"match {match_id} was aborted by the server{why}")
            if time.monotonic() > deadline:
                staller = None if slow else clock.staller(allowed)
                if staller is None and not slow and info.moves > moves_then:
                    # Nobody to blame, and the match moves on: every seat answers
                    # within its clock, so the server's clocks bound what is left.
                    # Voided here, the game was a loser's way out: a bot matching a
                    # slow opponent's pace held no share that blamed it.
                    extra = self._overtime(timeout)
                    allowed, moves_then = allowed + extra, info.moves
                    deadline = time.monotonic() + extra
                    log.info(
                        "match outlasted its time, nobody to blame: it plays on",
                        moves=info.moves,
                        seconds=allowed,
                    )
                    continue
                if staller is None:
                    raise TimeoutError(self._unfinished(match_id, allowed, timeout))
                slow[staller] = (
                    f"held the match up: seat {staller} kept it waiting (to join or to "
                    f"answer) for {clock.seconds[staller]:.0f} s of the {allowed:g} s a "
                    "match may take"
                )
                log.warning(
                    "bot held its match up; it loses, and a random stand-in plays its seat",
                    seat=staller,
                    bot=scheduled.seats[staller],
                    reason=slow[staller],
                )
                if staller not in crashed:  # a crashed bot's stand-in plays already
                    examined.add(staller)
                    await seats[staller].kill()
                    tasks[staller].cancel()
                    stand_ins.append(self._stand_in(scheduled, staller, created))
                deadline = time.monotonic() + timeout
            if all(task.done() for task in tasks.values()):
                await asyncio.sleep(POLL_SECONDS)  # only stand-ins left: poll gently

    def _overtime(self, timeout: float) -> float:
        """More time for a match held up with nobody to blame: long enough that a
        match whose server plays on makes a move in it (a decision lasts its
        deadline and the seat's time bank at most), twice over, so that a seat
        taking all of it while a busy server forces its move late cannot pass
        for a match that stopped moving, and be voided."""
        config = self.config
        return max(timeout, 2 * (config.decision_seconds + config.time_bank_seconds))

    @staticmethod
    def _unfinished(match_id: str, allowed: float, timeout: float) -> str:
        if allowed == timeout:
            return f"match {match_id} did not finish within {timeout:g} s"
        return (
            f"match {match_id} did not finish within {allowed:g} s and made no move "
            "in the last of that time"
        )

    def _check_server_counts(self, info: arena_pb2.MatchInfo) -> None:
        """A server older than SeatInfo.thinking_seconds reports none: the runner can
        then blame nobody for a match held up past its time. Said once."""
        if "old server" in self.warned or info.moves < OLD_SERVER_MOVES:
            return
        if any(seat.thinking_seconds for seat in info.seats):
            return
        self.warned.add("old server")
        self.log.warning(
            "this server does not count its seats' thinking time (it is older than this "
            "runner): a match held up past match_timeout_seconds will not be counted "
            "instead of being lost by the seat that held it up; upgrade the server",
            server=self.address,
        )

    def _stand_in(
        self, scheduled: ScheduledGame, seat: int, created: arena_pb2.CreateMatchResponse
    ) -> asyncio.Task[None]:
        """A random bot finishing `seat` for a bot that cannot."""
        stand_in = InProcessSeat(
            "random",
            bot_seed(scheduled.match_seed, seat, "stand-in"),
            self.address,
            created.match_id,
            created.seat_tokens[seat],
            self.tls,
        )
        return _seat_task(stand_in.run())


async def play_game(
    config: TournamentConfig,
    address: str,
    admin_token: str,
    scheduled: ScheduledGame,
    launcher: Launcher,
    tls: ServerTls | None = None,
    on_match: Callable[[ScheduledGame, str], Awaitable[None]] | None = None,
) -> PlayedGame:
    """Play one scheduled game on the server at `address`, as the runner does
    (what a Ray worker runs for each game; it stores nothing): the result, the
    game's full record and why each crashed bot crashed. `launcher` starts the
    command bots (sandboxed ones through its server's Unix socket). Raises
    `Unreachable` when no server answers at `address`, before the game or
    after a call failed on it; `ServerFull` when it has no room for a match. `tls`: how to reach a
    server that serves TLS; `on_match`: told of each match created (GamePlayer)."""
    log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
    player = GamePlayer(config, address, admin_token, launcher, log, tls, on_match=on_match)
    async with open_channel(address, tls_credentials(tls)) as channel:
        await ensure_reachable(channel, address)  # Unreachable in seconds, not per call
        try:
            return await player.play(arena_pb2_grpc.ArenaStub(channel), scheduled)
        except grpc.aio.AioRpcError as error:
            code = error.code()
            if code in CUT_SHORT or code == grpc.StatusCode.DEADLINE_EXCEEDED:
                # The server died, froze or stopped mid-game: Unreachable, not
                # this game's error.
                await ensure_reachable(channel, address, patient=True)
                await ensure_answering(channel, address, ANSWER_SECONDS)
            if code in CUT_SHORT:
                # It answers, and cut the call short itself: shutting down (SIGTERM)
                # or without its database, it takes no more games either (the
                # worker then waits for its health; see tournament.server_check).
                raise Unreachable(address, _cut_short_by(error)) from None
            raise


def _cut_short_by(error: grpc.aio.AioRpcError) -> str:
    """Why a server that still answers cut a call of the game short, in a few words."""
    if error.code() == grpc.StatusCode.CANCELLED:
        details = error.details() or "CANCELLED"
        return f"it cancelled a call of the game, as a server stopping does ({details})"
    return f"it takes no new matches ({error.details() or 'UNAVAILABLE'})"


def _started(info: arena_pb2.MatchInfo, scheduled: ScheduledGame, log: Any) -> bool:
    """Whether the server has started the match (or ended it); when it started
    without a bot (its start timeout passed first), says which, by name: the
    server's own line ("match starting without every seat") knows seats alone."""
    if info.status not in (arena_pb2.MATCH_STATUS_RUNNING, arena_pb2.MATCH_STATUS_FINISHED):
        return False
    missing = [seat.seat for seat in info.seats if not seat.joined]
    if missing:
        log.warning(
            "match started without every bot: the server's start timeout passed before "
            "these joined, and it plays their seats by the clock until they do",
            bots=[scheduled.seats[seat] for seat in missing],
            seats=missing,
        )
    return True


def _nobody_joined(info: arena_pb2.MatchInfo) -> bool:
    """The server aborted the match unplayed: no seat joined within its start timeout."""
    return info.status == arena_pb2.MATCH_STATUS_ABORTED and info.result.end_reason == NOBODY_JOINED


def _not_there(info: arena_pb2.MatchInfo) -> list[int]:
    """The seats a match still waits for before it starts (as the server waits:
    for a seat that has never joined and is not disqualified). A match restored
    by a server restart also waits a while for the seats that played it before
    to join again; those read as joined, so that wait, the restart's doing, is
    counted against no bot."""
    if info.status != arena_pb2.MATCH_STATUS_WAITING:
        return []
    return [seat.seat for seat in info.seats if not (seat.joined or seat.disqualified)]


def _left_early(seat: CommandSeat | InProcessSeat) -> str:
    """Why a seat whose bot ended without an error, the match not over, failed:
    for a program, with the last lines of its stderr, which say why as they do
    for a program that exits non-zero (they were left out, and a bot that
    printed its problem and exited 0 read only "left before the match was over")."""
    tail = seat.process.stderr_tail if isinstance(seat, CommandSeat) else ""
    return LEFT_EARLY + (f": {tail}" if tail else "")


def _seat_task(run: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    """A seat's task, whose failure is marked retrieved however the game ends
    (a second Ctrl-C may leave no one to await it: asyncio would then print
    "Task exception was never retrieved" and a traceback)."""
    task = asyncio.create_task(run)
    task.add_done_callback(_retrieve)
    return task


def _retrieve(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()


def _limits_hit(seats: Mapping[int, Any], info: arena_pb2.MatchInfo | None) -> dict[int, str]:
    """Per command seat whose program a sandbox limit kept out of its seat, the
    limit (clients.matchplay.limit_kept_out)."""
    hits: dict[int, str] = {}
    for seat, runner in seats.items():
        if isinstance(runner, CommandSeat):
            hit = limit_kept_out(runner.process, info, seat)
            if hit is not None:
                hits[seat] = hit
    return hits


async def _stop_seats(seats: Iterable[Any], tasks: list[asyncio.Task[None]]) -> None:
    """Kill every seat's bot, then cancel and await the seat tasks: all of it even
    when this is cancelled (a second Ctrl-C) on the way, which is raised after."""
    interrupted: asyncio.CancelledError | None = None
    for runner in seats:
        try:
            await runner.kill()
        except asyncio.CancelledError as error:
            interrupted = error
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if interrupted is not None:
        raise interrupted


async def _settle(tasks: Iterable[asyncio.Task[None]], timeout: float) -> None:
    """Give seat tasks a moment to exit on their own after the match is over."""
    running = [task for task in tasks if not task.done()]
    if running:
        await asyncio.wait(running, timeout=timeout)
    for task in running:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: a late failure after the end does not count
