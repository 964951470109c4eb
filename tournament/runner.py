"""Running a tournament through a server: asyncio, up to `concurrency` matches at once.

For each scheduled game the runner creates a match, starts one bot per seat
(in-process SDK bot or command), and waits for the server to finish the match.
A bot that crashes is replaced for the rest of that game by a random stand-in
(so the match ends quickly) and loses; a bot that misses deadlines is handled
by the server's clock (random move, strike, disqualification) and loses too.
Each finished game is written to SQLite at once; games already stored are
skipped, so running again resumes. A run holds its tournament's claim
(tournament.claims) throughout: no other run of it, and no `forget`, meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import asdict, dataclass
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
    refusal,
    tls_credentials,
)
from clients.interrupts import run_interruptible
from clients.launch import Launcher, SandboxUnavailable
from games.words import count
from tournament.bot_launch import launcher_for, sandboxed_bots, socket_of
from tournament.botcheck import check_bots
from tournament.claims import claimed, refuse_if_claimed
from tournament.config import TournamentConfig, add_python_path, resolve_path
from tournament.crashes import AlwaysCrashed, always_crashed
from tournament.database_check import check_database
from tournament.deals import dealt, new_secret
from tournament.executors.settings import ExecutorSettings, GameExecutor
from tournament.game_play import GamePlayer, PlayedGame
from tournament.live import LiveFigures, live_figures
from tournament.progress import Ending, Progress, SilentProgress, note_on
from tournament.resume import (
    bot_settings,
    check_groups_kept,
    check_resumable,
    options_to_store,
    resume_warnings,
)
from tournament.room import ServerFull, room_wait, waiting_line
from tournament.run_error import RunError
from tournament.schedule import ScheduledGame, ladder_schedule
from tournament.server_check import CUT_SHORT, MAX_HICCUPS, reach_before_storing, still_gone
from tournament.store import GameRecord, Store
from tournament.store_lock import SILENT_WAIT, LockWait
from tournament.turns import DealTurns

__all__ = [
    "RunError",
    "RunSummary",
    "ladder_stages",
    "open_tournament",
    "play_batches",
    "run_tournament",
    "run_tournament_async",
    "schedule_for",
]

RUN_COMMAND = "tournament run"  # who holds the claim, as a refused command names it
# After a call timed out: how long the server has to answer one more before the
# run ends (a frozen server keeps its connection up, and its every call times out).
ANSWER_SECONDS = KEEPALIVE_TIMEOUT

# Codes after which no further game can succeed: stop the whole run.
FATAL_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNIMPLEMENTED,
}


@dataclass(frozen=True, slots=True)
class RunSummary:
    tournament: str
    database: str
    scheduled: int
    already_done: int
    played: int
    done: int  # scheduled games stored when the run ended, read from the database
    errors: int
    seconds: float
    interrupted: bool = False
    always_crashed: tuple[AlwaysCrashed, ...] = ()
    forgotten: int = 0  # crashed games deleted by rerun_crashed, played again
    # (server, why) for each --server a Ray run stopped using mid-run
    dropped_servers: tuple[tuple[str, str], ...] = ()

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def schedule_for(
    config: TournamentConfig, stages: list[list[str]] | None = None
) -> tuple[ScheduledGame, ...]:
    """The games of a round robin or gauntlet; `stages` is the field's history."""
    return ladder_schedule(
        stages or [list(config.bot_names)],
        config.players,
        config.games_per_pairing,
        config.seed,
        config.max_groups,
        config.candidates if config.schedule == "gauntlet" else (),
    )


def run_tournament(
    config: TournamentConfig,
    server: str | None = None,
    database: str | None = None,
    progress: Progress | None = None,
    admin_token: str | None = None,
    executor: ExecutorSettings | None = None,
    rerun_crashed: bool = False,
    tls: ServerTls | None = None,
    lock_wait: LockWait = SILENT_WAIT,
) -> RunSummary:
    """Run (or resume) a tournament; an in-process server when `server` is None.

    Raises BotCheckError before anything is played when a bot cannot be started.
    `executor` (default: the config's) may send every game to a Ray cluster;
    `server` may then list several addresses, comma-separated. `tls`: how to
    reach a `server` that serves TLS (the runner and its in-process bots; a
    command bot connects by itself, so the command refuses those). `lock_wait`:
    how long each use of the database waits for another process's lock, and
    what is called once such a wait lasts (a StoreLocked when it runs out)."""
    db_path = database or resolve_path(config, config.database)
    refuse_if_claimed(db_path, config.name, RUN_COMMAND)
    check_bots(config)
    stored = check_database(db_path, lock_wait, config)
    executor = executor or config.executor
    if executor.is_ray:
        from tournament.executors.ray import run_on_ray

        return run_on_ray(
            config, executor, server, db_path, progress, admin_token, rerun_crashed, tls, lock_wait
        )
    if server is not None and "," in server:
        raise RunError("several --server addresses need --ray (games spread over a Ray cluster)")
    if server is not None:
        reach_before_storing(config, server, db_path, tls, stored=stored)
        return run_interruptible(
            run_tournament_async(
                config,
                server,
                db_path,
                progress,
                admin_token=admin_token,
                rerun_crashed=rerun_crashed,
                tls=tls,
                lock_wait=lock_wait,
            )
        )

    async def run_locally() -> RunSummary:
        # The server shares this event loop: grpc.aio wants one loop per process.
        async with local_server(config) as local:
            return await run_tournament_async(
                config,
                local.address,
                db_path,
                progress,
                admin_token=local.admin_token,
                rerun_crashed=rerun_crashed,
                server_socket=local.sockets,
                lock_wait=lock_wait,
            )

    return run_interruptible(run_locally())


@dataclass(frozen=True, slots=True)
class LocalServer:
    """An in-process server a run starts for itself."""

    address: str
    sockets: tuple[str, ...]  # the Unix sockets sandboxed bots reach it by, if any
    admin_token: str  # CreateMatch needs it: a bot cannot create matches of its own


@contextlib.asynccontextmanager
async def local_server(
    config: TournamentConfig, seats_at_once: int | None = None
) -> AsyncIterator[LocalServer]:
    """An in-process server on loopback, with an admin token of its own and, when
    the config has sandboxed bots, Unix sockets in a private folder: one for each
    seat that can play at once (`seats_at_once`, by default `concurrency` games'
    seats), as far as the open file limit allows (tournament.bot_sockets)."""
    from server.app import ServerConfig
    from tournament.bot_sockets import serving_bots

    admin_token = secrets.token_hex(16)
    if seats_at_once is None:
        seats_at_once = config.concurrency * config.players
    # Private replays: no bot can list the games played before its own, nor read
    # their seeds (and so the deals every other group plays too).
    served = serving_bots(
        ServerConfig(admin_token=admin_token, private_replays=True),
        seats_at_once,
        bool(sandboxed_bots(config)),
    )
    async with served as (address, sockets):
        yield LocalServer(address, sockets, admin_token)


async def run_tournament_async(
    config: TournamentConfig,
    address: str,
    database: str,
    progress: Progress | None = None,
    admin_token: str | None = None,
    executor: GameExecutor | None = None,
    rerun_crashed: bool = False,
    server_socket: str | Sequence[str] | None = None,
    tls: ServerTls | None = None,
    lock_wait: LockWait = SILENT_WAIT,
) -> RunSummary:
    """Run (or resume) a tournament on the server at `address`.

    Sandboxed command bots reach the server through its Unix socket:
    `server_socket`, or `address` itself when that is `unix:PATH`.
    `executor`: see `play_batches`.
    """
    progress = progress or SilentProgress()
    check_bots(config)
    started = time.monotonic()
    launcher = await launcher_for(config, database, server_socket or socket_of(address), executor)
    store = Store(database, lock_wait.seconds, lock_wait.on_wait)
    with store, claimed(store.path, config.name, RUN_COMMAND):
        stages = ladder_stages(store, config)
        schedule = schedule_for(config, stages)
        check_resumable(store, config)  # a seed's or deal's change, named first
        check_groups_kept(store, config, schedule)
        tid = open_tournament(store, config, len(schedule), stages)
        # Only games the schedule plays again: others (a removed bot's) would be lost.
        scheduled_keys = {game.key for game in schedule}
        crashed = store.crashed_keys(tid) & scheduled_keys if rerun_crashed else set()
        forgotten = store.forget(tid, crashed) if crashed else 0
        done = store.done_keys(tid)
        pending = [game for game in schedule if game.key not in done]
        progress.start(config.name, len(schedule), len(schedule) - len(pending))
        batches = iter([pending])
        crashes: dict[str, str] = {}
        played, errors = await play_batches(
            config,
            address,
            store,
            tid,
            lambda: next(batches, None),
            progress,
            admin_token,
            executor=executor,
            crashes=crashes,
            launcher=launcher,
            tls=tls,
        )
        return RunSummary(
            tournament=config.name,
            database=database,
            scheduled=len(schedule),
            already_done=len(schedule) - len(pending),
            played=played,
            done=len(store.done_keys(tid) & scheduled_keys),
            errors=errors,
            seconds=time.monotonic() - started,
            # As the report rates them: a bot removed from the config fails no run.
            always_crashed=always_crashed(
                (game for game in store.games(tid) if set(game.bots) <= set(config.bot_names)),
                crashes,
            ),
            forgotten=forgotten,
            dropped_servers=tuple(getattr(executor, "dropped", {}).items()),
        )


def ladder_stages(store: Store, config: TournamentConfig) -> list[list[str]]:
    """The fields of this tournament's runs so far, oldest first, ending with
    the config's (see `schedule.ladder_schedule`); kept in the stored config."""
    current = list(config.bot_names)
    record = store.find(config.name)
    if record is not None:
        stages = record.config.get("ladder") or [
            [bot["name"] for bot in record.config.get("bots", [])]
        ]
        return stages if stages[-1] == current else [*stages, current]
    return [current]


def open_tournament(
    store: Store, config: TournamentConfig, scheduled: int, stages: list[list[str]]
) -> int:
    """The tournament's id, stored on first use; a StoreError naming the field
    when the config cannot resume it (see `resume.check_resumable`)."""
    check_resumable(store, config)
    log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
    for line in resume_warnings(store, config):
        log.warning(line)
    return store.open_tournament(
        config.name,
        config.game,
        config.players,
        options_to_store(store, config),
        config.anchor,
        scheduled,
        {**_config_json(config), "ladder": stages},
        new_secret() if config.secret_deals else None,
    )


async def play_batches(
    config: TournamentConfig,
    address: str,
    store: Store,
    tournament_id: int,
    next_batch: Callable[[], list[ScheduledGame] | None],
    progress: Progress,
    admin_token: str | None = None,
    executor: GameExecutor | None = None,
    crashes: dict[str, str] | None = None,
    launcher: Launcher | None = None,
    server_socket: str | Sequence[str] | None = None,
    tls: ServerTls | None = None,
) -> tuple[int, int]:
    """Play batch after batch until `next_batch()` returns None; (played, errors).

    A round robin is one batch; an SPRT asks for the next blocks after looking
    at the statistics. Calls `progress.finish` at the end. `crashes`, when
    given, receives each crashed bot's first error. `executor`, when given,
    plays each batch instead of this process (`executor.run(runner, batch)`,
    handing each game to `runner.accept` or `runner.reject`). Sandboxed command
    bots reach the server through `server_socket` (or `address` when that is
    `unix:PATH`); without `launcher`, the sandbox is checked here first.
    `tls`: how to reach a server that serves TLS.
    """
    if launcher is None:
        socket = server_socket or socket_of(address)
        launcher = await launcher_for(config, store.path, socket, executor)
    if admin_token is None:
        admin_token = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
    add_python_path(config)
    log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
    for server in executor.servers if executor is not None else (address,):
        await warn_if_replays_open(config, server, log, tls)
    figures = live_figures(config.bot_names, config.players, config.anchor)
    for stored in store.games(tournament_id):
        figures.add(stored)
    figures.refit()
    player = GamePlayer(config, address, admin_token, launcher, log, tls)
    runner = _Runner(player, store, tournament_id, figures, progress)
    if crashes is not None:
        runner.crash_reasons = crashes
    secret = store.deal_secret(tournament_id)
    ending: Ending = "finished"
    try:
        while (scheduled := next_batch()) is not None:
            batch = dealt(scheduled, secret)
            before = runner.played
            await (runner.run(batch) if executor is None else executor.run(runner, batch))
            if batch and runner.played == before:
                ending = "stopped"
                break  # a batch in which every game failed: stop rather than spin
    except asyncio.CancelledError:
        ending = "interrupted"
        raise
    except BaseException:
        ending = "stopped"
        raise
    finally:
        progress.finish(runner.played, ending)
    return runner.played, runner.errors


def _config_json(config: TournamentConfig) -> dict[str, Any]:
    data = asdict(config)
    data["bots"] = [bot_settings(bot) for bot in config.bots]
    return data


async def warn_if_replays_open(
    config: TournamentConfig, address: str, log: Any, tls: ServerTls | None = None
) -> None:
    """A server that lists its matches to anyone lets a command bot read the
    seeds of finished games: the deals the other groups still play. Says so."""
    if not any(bot.command for bot in config.bots):
        return
    async with open_channel(address, tls_credentials(tls)) as channel:
        try:
            await arena_pb2_grpc.ArenaStub(channel).ListMatches(
                arena_pb2.ListMatchesRequest(limit=1), timeout=RPC_SECONDS
            )
        except grpc.aio.AioRpcError:
            return  # private (or not answering, which the games will show)
    log.warning(
        "this server lets anyone list and replay its finished matches, so the command "
        "bots can read the deals of games already played; start it with "
        "--private-replays --admin-token and give the runner that token",
        server=address,
    )


class _Runner:
    """Plays the games of a batch on `concurrency` workers, storing and rating
    each one as it finishes (an executor hands its games to `accept`)."""

    def __init__(
        self,
        player: GamePlayer,
        store: Store,
        tournament_id: int,
        figures: LiveFigures,
        progress: Progress,
    ) -> None:
        self.player = player
        self.config = player.config
        self.address = player.address
        self.store = store
        self.tournament_id = tournament_id
        self.figures = figures  # what the report ranks by: Elo, or solo mean score
        self.progress = progress
        self.log = player.log
        self.played = 0
        self.errors = 0
        self.crash_reasons: dict[str, str] = {}  # bot -> its first crash in this run
        self.channel: grpc.aio.Channel | None = None
        self.told_full: set[str] = set()  # servers whose games were said to wait for room
        self.shaky = False  # the server was said to fail a game and answer again

    async def run(self, pending: list[ScheduledGame]) -> None:
        if not pending:
            return
        turns = DealTurns(pending)
        ready = asyncio.Condition()
        async with open_channel(self.address, tls_credentials(self.player.tls)) as channel:
            try:
                await ensure_reachable(channel, self.address)
            except Unreachable as error:
                raise RunError(str(error)) from None
            self.channel = channel
            stub = arena_pb2_grpc.ArenaStub(channel)
            workers = [
                asyncio.create_task(self._worker(stub, turns, ready), name=f"tournament-worker-{i}")
                for i in range(min(self.config.concurrency, len(pending)))
            ]
            try:
                await asyncio.gather(*workers)
            finally:
                for worker in workers:
                    worker.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.gather(*workers, return_exceptions=True)

    async def _worker(
        self, stub: arena_pb2_grpc.ArenaStub, turns: DealTurns, ready: asyncio.Condition
    ) -> None:
        while True:
            async with ready:
                while (scheduled := turns.take()) is None:
                    if not turns.left:
                        return
                    await ready.wait()
            try:
                await self._play(stub, scheduled)
            finally:
                turns.done(scheduled)
                async with ready:
                    ready.notify_all()

    async def _play(self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame) -> None:
        """Play one game and store it, or count it as not played. A game whose
        server failed it but answers again is played again (MAX_HICCUPS times)."""
        self.progress.game_started(scheduled.key)
        hiccups = 0
        while True:
            try:
                played = await self._play_when_room(stub, scheduled)
            except SandboxUnavailable as error:
                raise RunError(f"cannot sandbox a bot of game {scheduled.key}: {error}") from None
            except grpc.aio.AioRpcError as error:
                if error.code() in FATAL_CODES:
                    raise RunError(
                        f"the server refused game {scheduled.key}: {refusal(error)}"
                    ) from None
                if await self._server_back(error):
                    hiccups += 1
                    if hiccups < MAX_HICCUPS:
                        continue
                self.reject(scheduled.key, f"{error.code().name}: {error.details()}")
                return
            except TimeoutError as error:
                self.reject(scheduled.key, str(error))
                return
            if played is not None:
                self.accept(*played)
            return

    async def _play_when_room(
        self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame
    ) -> PlayedGame | None:
        """The game played, waiting for room while the server is full (see
        tournament.room); None, the game rejected, when it stayed full too long."""
        wait = room_wait(self.config.match_timeout_seconds)
        while True:
            try:
                return await self.player.play(stub, scheduled)
            except ServerFull as full:
                delay = wait.next_delay()
                if delay is None:
                    self.reject(scheduled.key, wait.gave_up(full.address, full.details))
                    return None
                self.waiting_for_room(full)
                await asyncio.sleep(delay)

    def waiting_for_room(self, full: ServerFull) -> None:
        """The first game to find a server full says so, once a run: a server
        kept full by its other matches would otherwise fill the output."""
        if full.address not in self.told_full:
            self.told_full.add(full.address)
            note_on(self.progress, waiting_line(full.address, full.details))

    def accept(
        self,
        record: GameRecord,
        replay: arena_pb2.Replay | None = None,
        crashes: dict[str, str] | None = None,
    ) -> None:
        """A finished game: stored at once with its full record, rated, shown;
        `crashes` says why each crashed bot crashed."""
        for seat in record.seats:
            if seat.failure == "crash" and seat.bot not in self.crash_reasons:
                self.crash_reasons[seat.bot] = (crashes or {}).get(seat.bot, "crashed")
        if self.store.record_game(self.tournament_id, record, replay):
            self.played += 1
            self.shaky = False  # a later hiccup is told again
            self.progress.game_done(record, self.figures.update(record))
        else:
            self.log.warning("game already stored by another runner", key=record.key)

    def reject(self, key: str, error: str) -> None:
        """A game that could not be played this run (a resume plays it again)."""
        self.errors += 1
        self.progress.game_error(key, error)

    async def _server_back(self, error: grpc.aio.AioRpcError) -> bool:
        """After a call failed: whether the game is worth playing again. A server
        that cut the call short (UNAVAILABLE: a reset connection, a restart;
        CANCELLED: a server stopping cancels the calls in flight) or did not
        answer it in time is waited for until it reports SERVING again
        (tournament.server_check); one that does not within 30 s ends the run at
        once, not one timeout per game."""
        code = error.code()
        if code not in CUT_SHORT and code != grpc.StatusCode.DEADLINE_EXCEEDED:
            return False
        assert self.channel is not None
        gone: Unreachable | None = None
        try:
            await ensure_reachable(self.channel, self.address)
            await ensure_answering(self.channel, self.address, ANSWER_SECONDS)
        except Unreachable as error_gone:
            gone = error_gone
        else:
            if code not in CUT_SHORT:
                return False  # it answers: only the game's call was slow
        why = await still_gone(self.address, self.player.tls)
        if why is not None:
            gone = gone or Unreachable(self.address, why)
            raise RunError(f"{gone} (after {count(self.played, 'game')} this run)") from None
        if gone is not None:
            # The run's channel may wait out gRPC's reconnect backoff before it
            # connects again: the game is played again once it has.
            with contextlib.suppress(Unreachable):
                await ensure_reachable(self.channel, self.address, RPC_SECONDS)
        if not self.shaky:
            self.shaky = True
            note_on(
                self.progress,
                f"the server at {self.address} failed a game but answers again "
                f"({gone or refusal(error)}): the run goes on, and its games that failed "
                "are played again",
            )
        return True
