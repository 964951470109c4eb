"""Playing a tournament's games as Ray tasks: one task per game, on any node.

The driver (this process) alone writes the tournament database and the
ratings, through the same runner as a local run: a game counts when its task's
result reaches the driver, so a task Ray retries after its worker died is
still counted once, and a killed driver loses only the games in flight.
Each worker tells the driver its game's match once created (ray_in_play), and
the driver lists the game in play for the web viewer as a local run does.

Once joined to the cluster (ray_connect: the address is checked before Ray is
asked to join it, so a wrong address is one line within seconds), the cluster
is checked before the first game, with a timeout: every node imports the same
sheepfold, and every bot passes on every node the check a local run makes
(tournament.botcheck: a class with `decide` is imported, not made), and its
program and files exist.
A tournament not stored yet then has each --server asked from those nodes
(server_reach): one that none reaches stops the run before anything is stored.
The config's folder and its `python_path` folders reach the workers through
Ray's runtime environment (`working_dir`, `py_modules`), never through a
shared disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import structlog
from sheepfold.v1 import arena_pb2

from clients.connect import ServerTls
from clients.interrupts import run_interruptible
from tournament.bot_launch import sandboxed_server_refusal
from tournament.config import TournamentConfig
from tournament.executors.ray_connect import connected, head_watch
from tournament.executors.ray_head import HeadWatch
from tournament.executors.ray_in_play import InPlayMessages
from tournament.executors.ray_messages import RayMessages, worker_died
from tournament.executors.ray_output import log_printed
from tournament.executors.ray_shipping import command_files, rayignore_files, runtime_env_for
from tournament.executors.ray_task import (
    GameJob,
    GameOutcome,
    check_node,
    play_on_worker,
    sheepfold_version,
)
from tournament.executors.server_reach import unanswered, unreached
from tournament.executors.servers import ServerPool
from tournament.executors.settings import ExecutorSettings, GameExecutor
from tournament.progress import Progress, note_on
from tournament.run_checks import Prechecked
from tournament.run_error import RunError
from tournament.run_schedule import games_left
from tournament.runner import RunSummary, run_tournament_async
from tournament.schedule import ScheduledGame
from tournament.store import Store
from tournament.store_lock import SILENT_WAIT, LockWait
from tournament.turns import DealTurns

__all__ = ["RayExecutor", "run_on_ray"]

INSTALL_HINT = "install the same sheepfold on every node: pip install 'sheepfold[ray]'"
PROGRAM_HINT = "the programs command bots start must be installed on every node"
FILES_HINT = "files a bot needs must be in the config's folder or its python_path"
NO_ANSWER = "no answer to the check within"
# How long Ray's messages about the run's tasks may wait to be written.
MESSAGES_SECONDS = 1.0
READ_ONLY_HINT = "a sandbox's read_only paths must be in the config's folder or on every node"

T = TypeVar("T")


def run_on_ray(
    config: TournamentConfig,
    settings: ExecutorSettings,
    server: str | None,
    database: str,
    progress: Progress | None,
    admin_token: str | None,
    rerun_crashed: bool = False,
    tls: ServerTls | None = None,
    lock_wait: LockWait = SILENT_WAIT,
    *,
    prechecked: Prechecked | None = None,
) -> RunSummary:
    """Run (or resume) `config` with every game a Ray task (see the module doc).
    `tls` travels with every game to the worker that plays it. Unless the
    tournament is stored already (`prechecked`: what run_checks found), each
    --server is checked to answer from the cluster's nodes first
    (RayExecutor.check_servers)."""
    servers = tuple(s.strip() for s in server.split(",") if s.strip()) if server else ()
    if server and servers and (refused := sandboxed_server_refusal(config, server, on_ray=True)):
        raise RunError(refused)
    env, worker_config = runtime_env_for(config, database)

    def run_with(executor: GameExecutor) -> RunSummary:
        return run_interruptible(
            run_tournament_async(
                config,
                servers[0] if servers else "",
                database,
                progress,
                admin_token=admin_token,
                executor=executor,
                rerun_crashed=rerun_crashed,
                tls=tls,
                lock_wait=lock_wait,
                prechecked=prechecked,
            )
        )

    if (
        prechecked
        and prechecked.stored
        and not rerun_crashed
        and _all_stored(config, database, lock_wait)
    ):
        # Starting or joining Ray took seconds (up to a minute on a busy machine,
        # and failed there on its own) to play nothing: the run ends as one
        # without Ray does, its summary and report read from the database.
        return run_with(_NothingLeft(servers))
    messages = RayMessages()
    with messages.caught(), connected(settings, env):
        executor = RayExecutor(
            worker_config,
            settings,
            servers,
            admin_token or "",
            tls,
            messages=messages,
            head=head_watch(settings),
        )
        executor.check_cluster()
        if not (prechecked and prechecked.stored) and database != ":memory:":
            executor.check_servers()
        return run_with(executor)


def _all_stored(config: TournamentConfig, database: str, lock_wait: LockWait) -> bool:
    """Whether every game a run of `config` schedules is stored already."""
    try:
        with Store(database, lock_wait.seconds, lock_wait.on_wait) as store:
            return games_left(store, config) == 0
    except Exception:  # the run itself says what is wrong, in its own words
        return False


@dataclass
class _NothingLeft:
    """The executor of a run whose games are all stored: none is handed to it."""

    servers: tuple[str, ...]

    async def run(self, runner: Any, games: list[ScheduledGame]) -> None:
        for game in games:
            runner.reject(game.key, "not played: Ray was not started, every game seemed stored")


class RayExecutor:
    """Sends the pending games to Ray and hands each result to the runner."""

    def __init__(
        self,
        config: TournamentConfig,
        settings: ExecutorSettings,
        servers: tuple[str, ...],
        admin_token: str,
        tls: ServerTls | None = None,
        messages: RayMessages | None = None,
        head: HeadWatch | None = None,
    ) -> None:
        import ray

        self.config = config
        self.messages = messages or RayMessages()
        self.settings = settings
        self.servers = servers
        self.admin_token = admin_token
        self.tls = tls
        self.nodes: Counter[str] = Counter()
        self.head = head
        self.pool = ServerPool(servers, config.match_timeout_seconds)
        self._order = itertools.count()  # ties between games waiting as long
        self._tickets = itertools.count(1)  # each task's number, told back with its match
        self._in_play: InPlayMessages | None = None  # made once the first game is sent
        self._no_inbox = False  # Ray would not make it: the games are not listed
        self._remote = ray.remote(
            num_cpus=settings.cpus_per_game,
            max_retries=settings.max_retries,
            retry_exceptions=False,
        )(play_on_worker)

    def check_cluster(self) -> None:
        """Every node that can take a game runs the bot check; any problem stops
        the run before its first game."""
        import ray

        nodes = _cpu_nodes()
        if not any(n["Resources"]["CPU"] >= self.settings.cpus_per_game for n in nodes):
            raise RunError(
                f"no Ray node has the {self.settings.cpus_per_game:g} CPUs a game asks for "
                "(executor.cpus_per_game)"
            )
        mine = sheepfold_version()
        problems: list[str] = []
        files = command_files(self.config)
        for where, check in self._on_each(nodes, check_node, self.config, files):
            if isinstance(check, ray.exceptions.GetTimeoutError):
                problems.append(
                    f"{where}: {NO_ANSWER} {self.settings.setup_timeout_seconds:.0f} s "
                    "(its runtime environment still being set up, or a bot still loading: "
                    "see the Ray logs)"
                )
                continue
            if isinstance(check, Exception):
                problems.append(f"{where}: {_first_line(check)}")
                continue
            if check.version != mine:
                problems.append(f"{check.node}: sheepfold {check.version}, here {mine}")
            problems += [f"{check.node}: {problem}" for problem in check.problems]
        if problems:
            hint = _hint(problems, rayignore_files(self.config))
            raise RunError(
                "the Ray cluster cannot play this tournament: "
                + "; ".join(problems)
                + (f" ({hint})" if hint else "")
            )

    def check_servers(self) -> None:
        """RunError, in one line, when a --server answers from none of the nodes
        that can take a game (see server_reach): asked before the run stores
        its tournament, as a run without Ray asks from here."""
        if not self.servers:
            return
        nodes = [n for n in _cpu_nodes() if n["Resources"]["CPU"] >= self.settings.cpus_per_game]
        answers = [
            (where, said)
            for where, said in self._on_each(nodes, unanswered, self.servers, self.tls)
            if not isinstance(said, Exception)  # a node that did not answer tells nothing
        ]
        refused = unreached(self.servers, answers)
        if refused:
            raise RunError("; ".join(refused))

    def _on_each(
        self, nodes: list[dict[str, Any]], function: Callable[..., T], *args: Any
    ) -> list[tuple[str, T | Exception]]:
        """`function(*args)` as a Ray task on each of `nodes`, all at once: for
        each node, where it is and what the task returned, or the exception it
        raised (GetTimeoutError: no answer within setup_timeout_seconds)."""
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probe = ray.remote(num_cpus=0, max_retries=0)(function)
        refs = {
            probe.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            ).remote(*args): node
            for node in nodes
        }
        answers: list[tuple[str, T | Exception]] = []
        for ref, node in refs.items():
            where = f"{node.get('NodeManagerHostname', '?')} (node {node['NodeID'][:8]})"
            try:
                answers.append((where, ray.get(ref, timeout=self.settings.setup_timeout_seconds)))
            except Exception as error:
                answers.append((where, error))
        return answers

    @property
    def dropped(self) -> dict[str, str]:
        """The servers dropped mid-run, each with why (see ServerPool)."""
        return self.pool.dropped

    @property
    def slots(self) -> int:
        import ray

        cpus = ray.cluster_resources().get("CPU", 1.0)
        return max(1, int(cpus // self.settings.cpus_per_game))

    async def run(self, runner: Any, pending: list[ScheduledGame]) -> None:
        with self.head or contextlib.nullcontext():
            await self._run(runner, pending)

    async def _run(self, runner: Any, pending: list[ScheduledGame]) -> None:
        # Twice the cluster's game slots in flight: no worker waits for the driver,
        # and a killed driver loses few games.
        window = 2 * self.slots
        turns = DealTurns(pending)  # no bot plays two games of one deal at once
        # Each task's game, server and ticket.
        in_flight: dict[asyncio.Future[Any], tuple[ScheduledGame, str | None, int]] = {}
        again: deque[ScheduledGame] = deque()  # to hand out again: their server was dropped
        later: list[tuple[float, int, ScheduledGame]] = []  # waiting for room, by when
        loop = asyncio.get_running_loop()
        # No ray.cancel on the way out: disconnecting (ray.shutdown) ends the job and
        # its tasks, and cancelling a task as it completes can crash Ray's core worker.
        while turns.left or in_flight or again or later:
            # Each turn, at least every MESSAGES_SECONDS, after what ended is stored.
            lost = self.head.lost() if self.head is not None else None
            if lost is not None:
                raise RunError(lost)
            while later and later[0][0] <= loop.time():
                again.append(heapq.heappop(later)[2])
            while len(in_flight) < window:
                if again:
                    scheduled = again.popleft()
                elif (taken := turns.take()) is not None:
                    scheduled = taken
                    runner.progress.game_started(scheduled.key)
                else:
                    break
                server = self.pool.next()
                ticket = next(self._tickets)
                job = GameJob(
                    self.config,
                    scheduled,
                    server,
                    self.admin_token,
                    self.tls,
                    ticket,
                    self._inbox(),
                )
                in_flight[asyncio.wrap_future(self._remote.remote(job).future())] = (
                    scheduled,
                    server,
                    ticket,
                )
            wake = max(0.0, later[0][0] - loop.time()) if later else None
            if not in_flight:
                await asyncio.sleep(min(wake or 0.0, MESSAGES_SECONDS))
                continue
            # Woken at least every MESSAGES_SECONDS to write what Ray said meanwhile.
            done, _ = await asyncio.wait(
                in_flight,
                timeout=min(wake, MESSAGES_SECONDS) if wake is not None else MESSAGES_SECONDS,
                return_when=asyncio.FIRST_COMPLETED,
            )
            self.write_messages(runner)
            ended = [(future, *in_flight.pop(future)[:2]) for future in done]
            await self.write_in_play(runner, in_flight.values())
            settled = await self.settle_all(runner, ended, turns)
            for _future, scheduled, _server in ended:
                # Stored, its row went with it; given up or to be sent again, it goes now.
                await runner.not_in_play(scheduled.key)
            for scheduled, delay in settled:
                if delay is None:
                    again.append(scheduled)
                else:
                    heapq.heappush(later, (loop.time() + delay, next(self._order), scheduled))
        self.write_messages(runner)

    def _inbox(self) -> Any:
        """The actor the workers tell of their games' matches (see ray_in_play);
        None, the games then unlisted, if Ray would not make it."""
        if self._in_play is None and not self._no_inbox:
            try:
                self._in_play = InPlayMessages()
            except Exception as error:  # only "Now playing" goes without
                self._no_inbox = True
                structlog.get_logger("sheepfold.tournament").info(
                    "games in play on Ray not listed", error=_first_line(error)
                )
        return self._in_play.inbox if self._in_play is not None else None

    async def write_in_play(
        self, runner: Any, in_flight: Iterable[tuple[ScheduledGame, str | None, int]]
    ) -> None:
        """The games whose workers told of their match since the last call,
        recorded in play as a local run records them (the runner's `in_play`).
        A message for a task no longer in flight (its game settled, or sent
        again as another task) is dropped: its row would outlive the game."""
        told = self._in_play.taken() if self._in_play is not None else []
        if not told:
            return
        tickets = {ticket: scheduled for scheduled, _server, ticket in in_flight}
        for created in told:
            scheduled = tickets.get(created.ticket)
            if scheduled is not None and scheduled.key == created.key:
                await runner.in_play(scheduled, created.match_id, created.node)

    def write_messages(self, runner: Any) -> None:
        """Ray's messages since the last call (see RayMessages), one line each."""
        for line in self.messages.drain():
            note_on(runner.progress, line)

    async def settle_all(
        self,
        runner: Any,
        ended: list[tuple[asyncio.Future[Any], ScheduledGame, str | None]],
        turns: DealTurns,
    ) -> list[tuple[ScheduledGame, float | None]]:
        """Hand every game that ended to the runner; a fatal one stops the run,
        but only once the games that ended beside it are stored. Returns the
        games to play again: at once (None: their server was dropped) or after
        a delay (their server was full). Those keep their deal's turn."""
        fatal: RunError | None = None
        retry: list[tuple[ScheduledGame, float | None]] = []
        for future, scheduled, server in ended:
            try:
                delay = await self._settle(runner, scheduled, future, server)
            except RunError as error:
                fatal = fatal or error
                delay = False
            if delay is False:
                turns.done(scheduled)
            else:
                retry.append((scheduled, delay))
        if fatal is not None:
            raise fatal
        return retry

    async def _settle(
        self,
        runner: Any,
        scheduled: ScheduledGame,
        future: asyncio.Future[Any],
        server: str | None = None,
    ) -> float | Literal[False] | None:
        """False once the game is settled (stored or not played); otherwise play
        it again, after the delay returned (None: at once, on the next server:
        its own was dropped, or failed the game and answers again)."""
        import ray

        try:
            outcome: GameOutcome = future.result()
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as error:
            times = self.settings.max_retries + 1
            own = self.settings.address is None
            runner.reject(scheduled.key, worker_died(error, times, own, _first_line(error)))
            return False
        except Exception as error:
            runner.reject(scheduled.key, f"failed on a Ray worker: {_first_line(error)}")
            return False
        match_id = outcome.record.match_id if outcome.record is not None else ""
        log_printed(outcome.printed, scheduled.key, outcome.node, match_id)
        if outcome.error is not None:
            if outcome.fatal:
                raise RunError(outcome.error)
            if server is not None and (outcome.server_gone or server in self.pool.dropped):
                self.pool.drop(runner.progress, server, outcome.error)
                return None
            if server is not None and outcome.server_back:
                gave_up = self.pool.hiccup(runner.progress, scheduled.key, server, outcome.error)
                if gave_up is not None:
                    runner.reject(scheduled.key, gave_up)
                    return False
                return None
            if outcome.full and server is not None:
                wait = self.pool.wait_for_room(
                    runner.progress, scheduled.key, server, outcome.error
                )
                if isinstance(wait, str):  # it waited its limit: why it is not played
                    runner.reject(scheduled.key, wait)
                    return False
                return wait
            runner.reject(scheduled.key, f"{outcome.error} (on {outcome.node})")
            return False
        self.pool.played(scheduled.key, server)
        assert outcome.record is not None
        self.nodes[outcome.node] += 1
        replay = None if outcome.replay is None else arena_pb2.Replay.FromString(outcome.replay)
        await runner.accept(outcome.record, replay, outcome.crashes)
        return False


def _cpu_nodes() -> list[dict[str, Any]]:
    """The live Ray nodes that have CPUs (a head started with none plays no game)."""
    import ray

    return [
        node
        for node in ray.nodes()
        if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0
    ]


def _hint(problems: list[str], rayignores: tuple[str, ...] = ()) -> str:
    """What to do about the problems the nodes' checks found. `rayignores`: the
    .rayignore files shipped, which may have left a bot's file out."""
    # Not any mention of "sheepfold": a bot, a program or a folder may be called so.
    if any(
        re.search(r": sheepfold \S+, here |No module named '(tournament|sheepfold)", p)
        for p in problems
    ):
        return INSTALL_HINT
    # A program named without a folder is looked for on the node's PATH (check_node).
    programs = [p for p in problems if re.search(r": program '[^'/]+' not found$", p)]
    hints = [PROGRAM_HINT] if programs else []
    read_only = [p for p in problems if re.search(r": read_only path '[^']*' is missing$", p)]
    if read_only:
        hints.append(READ_ONLY_HINT)
    # A node that did not answer in time has no missing file to tell of.
    silent = [p for p in problems if f": {NO_ANSWER} " in p]
    if len(programs) + len(read_only) + len(silent) < len(problems):
        # A file there on the driver, left out by a .rayignore, is in the config's
        # folder all the same: the hint alone sent the user looking for it there.
        left_out = f", and not left out by {' or '.join(rayignores)}" if rayignores else ""
        hints.append(FILES_HINT + left_out)
    return "; ".join(hints)


def _first_line(error: BaseException) -> str:
    """The useful line of a Ray error (its cause's message, not the traceback)."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, BaseException):
        error = cause
    text = str(error).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[-1].strip()}" if lines else type(error).__name__
