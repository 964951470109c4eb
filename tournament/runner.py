"""Running (or resuming) a tournament: the checks made before anything starts
(its bots, its database, the server given), the in-process server a run
starts for itself when given none, and the store opened with the schedule.
The games themselves are played by tournament.batch_play, each stored the
moment it ends; games already stored are skipped, so running again resumes.
A run holds its tournament's claim (tournament.claims) throughout, taken
before its server starts: no other run of it, and no `forget`, meanwhile.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

import structlog

from clients.connect import ServerTls
from clients.interrupts import run_interruptible
from tournament.batch_play import play_batches
from tournament.bot_launch import sandboxed_bots
from tournament.botcheck import check_bots
from tournament.config import TournamentConfig, resolve_path
from tournament.crashes import AlwaysCrashed, always_crashed
from tournament.deals import new_secret
from tournament.executors.settings import ExecutorSettings, GameExecutor, server_list_refusal
from tournament.heartbeat import beating
from tournament.progress import Progress, SilentProgress
from tournament.resume import (
    bot_settings,
    check_groups_kept,
    check_resumable,
    options_to_store,
    resume_warnings,
)
from tournament.run_checks import (
    Prechecked,
    check_before_start,
    claimed_before_start,
    claimed_unless_held,
    run_launcher,
)
from tournament.run_error import RunError
from tournament.run_schedule import field_deals_for, ladder_stages, schedule_for, seat_orders_for
from tournament.server_check import reach_before_storing
from tournament.store import Store
from tournament.store_lock import SILENT_WAIT, LockWait

T = TypeVar("T")

__all__ = [
    "RunError",
    "RunSummary",
    "ladder_stages",
    "open_tournament",
    "run_tournament",
    "run_tournament_async",
    "schedule_for",
]

RUN_COMMAND = "tournament run"  # who holds the claim, as a refused command names it
# The run's own server keeps matches in memory, about 7 KB each once finished. A
# game's replay is read and stored here as soon as it ends, so the server keeps
# only the newest finished ones, pruned every PRUNE_SECONDS: a run of millions
# of games holds a few MB, not gigabytes.
KEPT_FINISHED_MATCHES = 1_000
PRUNE_SECONDS = 10.0


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
    checked: Callable[[], None] = lambda: None,
) -> RunSummary:
    """Run (or resume) a tournament; an in-process server when `server` is None.

    Raises BotCheckError before anything is played when a bot cannot be started.
    `executor` (default: the config's) may send every game to a Ray cluster;
    `server` may then list several addresses, comma-separated. `tls`: how to
    reach a `server` that serves TLS (the runner and its in-process bots; a
    command bot connects by itself, so the command refuses those). `lock_wait`:
    how long each use of the database waits for another process's lock, and
    what is called once such a wait lasts (a StoreLocked when it runs out).
    `checked` is called once every check passed (run_checks.check_before_start,
    and a --server's answer), before a server, sandbox or Ray starts: what the
    command starts beside the run (its metrics endpoint) starts there."""
    db_path = database or resolve_path(config, config.database)
    executor = executor or config.executor
    if refused := server_list_refusal(server, sprt=False, on_ray=executor.is_ray):
        raise RunError(refused)
    prechecked = check_before_start(config, db_path, lock_wait, RUN_COMMAND, on_ray=executor.is_ray)
    if executor.is_ray:
        from tournament.executors.ray import run_on_ray

        with claimed_before_start(prechecked, db_path, config.name, RUN_COMMAND) as held:
            checked()
            return run_on_ray(
                config,
                executor,
                server,
                db_path,
                progress,
                admin_token,
                rerun_crashed,
                tls,
                lock_wait,
                prechecked=held,
            )

    def play(on: RunServer, held: Prechecked) -> Coroutine[Any, Any, RunSummary]:
        return run_tournament_async(
            config,
            on.address,
            db_path,
            progress,
            admin_token=on.admin_token,
            rerun_crashed=rerun_crashed,
            server_socket=on.sockets,
            tls=on.tls,
            lock_wait=lock_wait,
            prechecked=held,
        )

    return play_claimed(
        config, db_path, prechecked, RUN_COMMAND, server, tls, admin_token, checked, play
    )


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
    from server.retention_policy import Retention
    from tournament.bot_sockets import serving_bots

    admin_token = secrets.token_hex(16)
    if seats_at_once is None:
        seats_at_once = config.concurrency * config.players
    # Private replays: no bot can list the games played before its own, nor read
    # their seeds (and so the deals every other group plays too).
    # Never fewer than the games in play: each one's replay is still to be read.
    kept = max(KEPT_FINISHED_MATCHES, 2 * config.concurrency)
    retention = Retention(count=kept, every=PRUNE_SECONDS)
    served = serving_bots(
        ServerConfig(admin_token=admin_token, private_replays=True, retention=retention),
        seats_at_once,
        bool(sandboxed_bots(config)),
    )
    async with served as (address, sockets):
        yield LocalServer(address, sockets, admin_token)


@dataclass(frozen=True, slots=True)
class RunServer:
    """The server a run plays on: the one it was given, or one of its own."""

    address: str
    admin_token: str | None
    sockets: tuple[str, ...] = ()  # sandboxed bots' Unix sockets (else the address's own)
    tls: ServerTls | None = None


def play_claimed(
    config: TournamentConfig,
    database: str,
    prechecked: Prechecked,
    command: str,
    server: str | None,
    tls: ServerTls | None,
    admin_token: str | None,
    checked: Callable[[], None],
    play: Callable[[RunServer, Prechecked], Coroutine[Any, Any, T]],
) -> T:
    """`play` on `server` (asked to answer before anything is stored), or on an
    in-process server when it is None, with the tournament's claim taken before
    either: what a run and an SPRT share once their checks passed."""
    if server is not None:
        reach_before_storing(config, server, database, tls, stored=prechecked.stored)
    with claimed_before_start(prechecked, database, config.name, command) as held:
        checked()
        if server is not None:
            return run_interruptible(play(RunServer(server, admin_token, tls=tls), held))

        async def play_locally() -> T:
            # The server shares this event loop: grpc.aio wants one loop per process.
            async with local_server(config) as local:
                on = RunServer(local.address, local.admin_token, local.sockets)
                return await play(on, held)

        return run_interruptible(play_locally())


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
    prechecked: Prechecked | None = None,
) -> RunSummary:
    """Run (or resume) a tournament on the server at `address`.

    Sandboxed command bots reach the server through its Unix socket:
    `server_socket`, or `address` itself when that is `unix:PATH`.
    `executor`: see `play_batches`. `prechecked`: what run_checks found
    already (run_tournament's), not checked again; None: the bots are
    checked here.
    """
    progress = progress or SilentProgress()
    if prechecked is None:
        check_bots(config)
    started = time.monotonic()
    launcher = await run_launcher(config, database, address, server_socket, executor, prechecked)
    store = Store(database, lock_wait.seconds, lock_wait.on_wait)
    with store, claimed_unless_held(prechecked, store.path, config.name, RUN_COMMAND):
        stages = ladder_stages(store, config)
        schedule = schedule_for(config, stages, seat_orders_for(store, config))
        check_resumable(store, config)  # a seed's or deal's change, named first
        check_groups_kept(store, config, schedule)
        tid = open_tournament(store, config, len(schedule), stages)
        async with beating(store, tid, RUN_COMMAND):
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


def open_tournament(
    store: Store, config: TournamentConfig, scheduled: int, stages: list[list[str]]
) -> int:
    """The tournament's id, stored on first use; a StoreError naming the field
    when the config cannot resume it (see `resume.check_resumable`). Its
    `seat_orders` and `field_deals` are stored as first decided
    (`run_schedule.seat_orders_for`, `field_deals_for`)."""
    check_resumable(store, config)
    orders = seat_orders_for(store, config)
    field_deals = field_deals_for(store, config)
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
        {
            **_config_json(config),
            "ladder": stages,
            "seat_orders": orders,
            "field_deals": field_deals,
        },
        new_secret() if config.secret_deals else None,
    )


def _config_json(config: TournamentConfig) -> dict[str, Any]:
    data = asdict(config)
    data["bots"] = [bot_settings(bot) for bot in config.bots]
    return data
