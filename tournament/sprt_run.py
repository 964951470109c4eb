"""Running an SPRT: blocks of games until the test decides (or the game limit).

Each look at the statistics plays the next blocks (enough to keep `concurrency`
matches busy), stores every game as a round robin does, then recomputes the
LLR from every complete block in the database. Running the same command again
resumes: stored games count, blocks cut short by an interruption are finished,
and a test already decided only prints its verdict. Like a run, an SPRT holds
its tournament's claim (tournament.claims) while it plays.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from clients.connect import ServerTls
from tournament.batch_play import play_batches
from tournament.botcheck import check_bots
from tournament.config import SprtSettings, TournamentConfig, resolve_path
from tournament.crashes import AlwaysCrashed, always_crashed
from tournament.executors.settings import server_list_refusal
from tournament.heartbeat import beating
from tournament.progress import Progress, SilentProgress
from tournament.run_checks import (
    Prechecked,
    check_before_start,
    claimed_unless_held,
    run_launcher,
)
from tournament.run_error import RunError
from tournament.runner import RunServer, open_tournament, play_claimed
from tournament.schedule import ScheduledGame
from tournament.sprt import SprtStatus, block_values, status
from tournament.sprt_blocks import (
    ScoreDifference,
    SprtPlan,
    comparisons,
    games_per_block,
    score_difference,
    tally,
)
from tournament.store import Store
from tournament.store_lock import SILENT_WAIT, LockWait

__all__ = [
    "EXIT_H0",
    "EXIT_H1",
    "EXIT_INCONCLUSIVE",
    "SprtOutcome",
    "run_sprt",
    "run_sprt_async",
]

EXIT_H1 = 0  # the candidate is stronger by elo1 (H1 accepted)
EXIT_H0 = 3  # not stronger by elo1; H0 (at most elo0) accepted
EXIT_INCONCLUSIVE = 4  # the game limit came first

SPRT_COMMAND = "tournament sprt"  # who holds the claim, as a refused command names it


@dataclass(frozen=True, slots=True)
class SprtOutcome:
    settings: SprtSettings
    status: SprtStatus
    games: int  # games in the complete blocks counted
    played: int  # games played by this run
    errors: int
    seconds: float
    score_difference: ScoreDifference | None  # solo: mean paired difference, 95%
    # Bots of the config that crashed in every stored game they played: the
    # verdict then measured their random stand-ins, not them.
    always_crashed: tuple[AlwaysCrashed, ...] = ()

    @property
    def verdict(self) -> str:
        """ "H1", "H0" or "inconclusive"."""
        return "inconclusive" if self.status.verdict == "continue" else self.status.verdict

    @property
    def exit_code(self) -> int:
        return {"H1": EXIT_H1, "H0": EXIT_H0}.get(self.verdict, EXIT_INCONCLUSIVE)


async def run_sprt_async(
    config: TournamentConfig,
    address: str,
    database: str,
    on_status: Callable[[SprtStatus, int], None] | None = None,
    progress: Progress | None = None,
    admin_token: str | None = None,
    server_socket: str | Sequence[str] | None = None,
    tls: ServerTls | None = None,
    lock_wait: LockWait = SILENT_WAIT,
    prechecked: Prechecked | None = None,
) -> SprtOutcome:
    """`prechecked`: run_tournament_async's."""
    settings = config.sprt
    if settings is None:
        raise ValueError("the config has no [sprt] settings")
    if prechecked is None:
        check_bots(config)  # a typo fails here, not as a test of random stand-ins
    plan = SprtPlan.from_config(config, settings)
    hypotheses = plan.hypotheses()
    values = block_values(comparisons(config.players))
    per_block = games_per_block(config.players)
    limit = plan.limit
    # A block's games share its deal and both tested bots, so they are played one
    # after the other (tournament.turns): `concurrency` blocks keep as many busy.
    batch_blocks = config.concurrency
    progress = progress or SilentProgress()
    started = time.monotonic()
    seen: list[int] = [-1]
    launcher = await run_launcher(config, database, address, server_socket, None, prechecked)

    store = Store(database, lock_wait.seconds, lock_wait.on_wait)
    with store, claimed_unless_held(prechecked, store.path, config.name, SPRT_COMMAND):
        stages = [list(config.bot_names)]
        tid = open_tournament(store, config, limit * per_block, stages)

        def look() -> tuple[SprtStatus, set[int], list[float]]:
            counts, differences, complete = tally(plan, store.games(tid))
            current = status(counts, values, hypotheses)
            if on_status is not None and current.blocks != seen[0]:
                seen[0] = current.blocks
                on_status(current, current.blocks * per_block)
            return current, complete, differences

        # A stored verdict stands when its runner ended with the test over, or
        # left no record of its end (a database from before runners were kept).
        # Only the stored blocks' verdict: once this run plays, it stops at its own looks.
        runner = store.heartbeats(tid).get(tid)
        stored_decided = [runner is None or runner.decided]

        def next_batch() -> list[ScheduledGame] | None:
            current, complete, _ = look()
            if len(complete) >= limit:
                return None
            # Looks fall where an uninterrupted run's do, after every
            # `batch_blocks` blocks: the blocks missing below the next such
            # count (a batch a kill or a failed game cut short) are played
            # before the test may stop. Counted as they were, a run killed
            # mid-batch stopped at other counts than the same config run
            # through (133 blocks where it stops at 132), with another LLR.
            top = max(complete, default=-1) + 1
            end = min(limit, -(-top // batch_blocks) * batch_blocks)
            missing = [i for i in range(end) if i not in complete]
            if current.verdict != "continue" and (stored_decided[0] or not missing):
                return None
            stored_decided[0] = False
            wanted = missing or list(range(end, min(limit, end + batch_blocks)))
            done = store.done_keys(tid)
            return [game for index in wanted for game in plan.block(index) if game.key not in done]

        crashes: dict[str, str] = {}
        async with beating(store, tid, SPRT_COMMAND) as end:
            _, complete, _ = look()
            progress.start(config.name, limit * per_block, len(complete) * per_block)
            played, errors = await play_batches(
                config,
                address,
                store,
                tid,
                next_batch,
                progress,
                admin_token,
                crashes=crashes,
                launcher=launcher,
                tls=tls,
            )
            final, complete, differences = look()
            end.decided = final.verdict != "continue" or len(complete) >= limit
        field = set(config.bot_names)
        crashed = always_crashed(
            (game for game in store.games(tid) if set(game.bots) <= field), crashes
        )
    return SprtOutcome(
        settings=settings,
        status=final,
        games=final.blocks * per_block,
        played=played,
        errors=errors,
        seconds=time.monotonic() - started,
        score_difference=score_difference(differences),
        always_crashed=crashed,
    )


def run_sprt(
    config: TournamentConfig,
    server: str | None = None,
    database: str | None = None,
    on_status: Callable[[SprtStatus, int], None] | None = None,
    progress: Progress | None = None,
    admin_token: str | None = None,
    tls: ServerTls | None = None,
    lock_wait: LockWait = SILENT_WAIT,
    checked: Callable[[], None] = lambda: None,
) -> SprtOutcome:
    """Run (or resume) an SPRT; an in-process server when `server` is None.
    `tls`: how to reach a `server` that serves TLS; `lock_wait` and `checked`:
    run_tournament's."""
    if refused := server_list_refusal(server, sprt=True, on_ray=False):
        raise RunError(refused)
    db_path = database or resolve_path(config, config.database)
    prechecked = check_before_start(config, db_path, lock_wait, SPRT_COMMAND, on_ray=False)

    def play(on: RunServer, held: Prechecked) -> Coroutine[Any, Any, SprtOutcome]:
        return run_sprt_async(
            config,
            on.address,
            db_path,
            on_status,
            progress,
            on.admin_token,
            server_socket=on.sockets,
            tls=on.tls,
            lock_wait=lock_wait,
            prechecked=held,
        )

    return play_claimed(
        config, db_path, prechecked, SPRT_COMMAND, server, tls, admin_token, checked, play
    )
