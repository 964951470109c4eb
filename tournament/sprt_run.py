"""Running an SPRT: blocks of games until the test decides (or the game limit).

Each look at the statistics plays the next blocks (enough to keep `concurrency`
matches busy), stores every game as a round robin does, then recomputes the
LLR from every complete block in the database. Running the same command again
resumes: stored games count, blocks cut short by an interruption are finished,
and a test already decided only prints its verdict. Like a run, an SPRT holds
its tournament's claim (tournament.claims) while it plays.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from clients.connect import ServerTls
from clients.interrupts import run_interruptible
from tournament.botcheck import check_bots
from tournament.claims import claimed, refuse_if_claimed
from tournament.config import SprtSettings, TournamentConfig, resolve_path
from tournament.outcome import solo_scores
from tournament.progress import Progress, SilentProgress
from tournament.ratings import mean_interval
from tournament.runner import local_server, open_tournament, play_batches
from tournament.schedule import ScheduledGame, sprt_block
from tournament.sprt import SprtHypotheses, SprtStatus, block_values, status
from tournament.store import GameRecord, Store

__all__ = [
    "EXIT_H0",
    "EXIT_H1",
    "EXIT_INCONCLUSIVE",
    "SprtOutcome",
    "block_index",
    "format_status",
    "games_per_block",
    "max_blocks",
    "run_sprt",
    "run_sprt_async",
    "tally",
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
    score_difference: (
        tuple[float, float | None, float | None] | None
    )  # solo: mean paired difference, 95%

    @property
    def verdict(self) -> str:
        """ "H1", "H0" or "inconclusive"."""
        return "inconclusive" if self.status.verdict == "continue" else self.status.verdict

    @property
    def exit_code(self) -> int:
        return {"H1": EXIT_H1, "H0": EXIT_H0}.get(self.verdict, EXIT_INCONCLUSIVE)


def games_per_block(players: int) -> int:
    """Solo and 2 players 2 games; k >= 3 players 2k (`schedule.sprt_block`)."""
    return 2 if players <= 2 else 2 * players


def comparisons(players: int) -> int:
    """Head-to-head results per block: one per game, solo one per deal."""
    return 1 if players == 1 else games_per_block(players)


def block_index(
    games: Sequence[GameRecord], candidate: str, baseline: str, players: int
) -> tuple[int, float | None]:
    """The block's score as j out of 2m (its index among `block_values`), and
    solo the candidate's score minus the baseline's."""
    if players == 1:
        # A failed seat is ranked last: it loses to one that did not fail, whatever
        # its stand-in scored, and counts the deal's lower score (as the report does).
        counted = {bot: score for (_, bot), score in solo_scores(games).items()}
        failed = {game.seats[0].bot: game.seats[0].failure is not None for game in games}
        difference = counted[candidate] - counted[baseline]
        if failed[candidate] != failed[baseline]:
            return (0 if failed[candidate] else 2), difference
        return (2 if difference > 0 else 1 if difference == 0 else 0), difference
    total = 0
    for game in games:
        rank = {seat.bot: seat.rank for seat in game.seats}
        total += (
            2 if rank[candidate] < rank[baseline] else 1 if rank[candidate] == rank[baseline] else 0
        )
    return total, None


def _others(config: TournamentConfig, settings: SprtSettings) -> list[str]:
    return [
        name for name in config.bot_names if name not in (settings.candidate, settings.baseline)
    ]


def _block(
    config: TournamentConfig, settings: SprtSettings, index: int
) -> tuple[ScheduledGame, ...]:
    return sprt_block(
        index,
        config.seed,
        settings.candidate,
        settings.baseline,
        _others(config, settings),
        config.players,
    )


def max_blocks(config: TournamentConfig, settings: SprtSettings) -> int:
    return max(1, settings.max_games // games_per_block(config.players))


def tally(
    config: TournamentConfig, settings: SprtSettings, stored: Sequence[GameRecord]
) -> tuple[list[int], list[float], set[int]]:
    """Counts per block value over the complete blocks, solo score differences,
    and which block indices are complete."""
    by_key = {game.key: game for game in stored}
    counts = [0] * (2 * comparisons(config.players) + 1)
    differences: list[float] = []
    complete: set[int] = set()
    seeds = sorted({game.seed for game in stored})
    for seed in seeds:
        index = seed - config.seed
        if not 0 <= index < max_blocks(config, settings):
            continue
        block = _block(config, settings, index)
        if not all(game.key in by_key for game in block):
            continue
        value, difference = block_index(
            [by_key[game.key] for game in block],
            settings.candidate,
            settings.baseline,
            config.players,
        )
        counts[value] += 1
        complete.add(index)
        if difference is not None:
            differences.append(difference)
    return counts, differences, complete


def format_status(settings: SprtSettings, current: SprtStatus, games: int) -> str:
    def elo(value: float) -> str:
        return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")

    verdict = {"H1": "  H1 accepted", "H0": "  H0 accepted"}.get(current.verdict, "")
    return (
        f"SPRT {settings.candidate} vs {settings.baseline} "
        f"[elo0 {settings.elo0:g}, elo1 {settings.elo1:g}]: "
        f"LLR {current.llr:+.3f} ({current.lower:+.3f}, {current.upper:+.3f}), "
        f"{games} games ({current.blocks} blocks), "
        f"Elo {elo(current.elo)} [{elo(current.elo_low)}, {elo(current.elo_high)}]{verdict}"
    )


async def run_sprt_async(
    config: TournamentConfig,
    address: str,
    database: str,
    on_status: Callable[[SprtStatus, int], None] | None = None,
    progress: Progress | None = None,
    admin_token: str | None = None,
    server_socket: str | Sequence[str] | None = None,
    tls: ServerTls | None = None,
) -> SprtOutcome:
    settings = config.sprt
    if settings is None:
        raise ValueError("the config has no [sprt] settings")
    check_bots(config)  # a typo fails here, not as a test of random stand-ins
    hypotheses = SprtHypotheses(settings.elo0, settings.elo1, settings.alpha, settings.beta)
    values = block_values(comparisons(config.players))
    per_block = games_per_block(config.players)
    limit = max_blocks(config, settings)
    # A block's games share its deal and both tested bots, so they are played one
    # after the other (tournament.turns): `concurrency` blocks keep as many busy.
    batch_blocks = config.concurrency
    progress = progress or SilentProgress()
    started = time.monotonic()
    seen: list[int] = [-1]

    with Store(database) as store, claimed(store.path, config.name, SPRT_COMMAND):
        stages = [list(config.bot_names)]
        tid = open_tournament(store, config, limit * per_block, stages)

        def look() -> tuple[SprtStatus, set[int], list[float]]:
            counts, differences, complete = tally(config, settings, store.games(tid))
            current = status(counts, values, hypotheses)
            if on_status is not None and current.blocks != seen[0]:
                seen[0] = current.blocks
                on_status(current, current.blocks * per_block)
            return current, complete, differences

        def next_batch() -> list[ScheduledGame] | None:
            current, complete, _ = look()
            if current.verdict != "continue" or len(complete) >= limit:
                return None
            done = store.done_keys(tid)
            wanted = [i for i in range(limit) if i not in complete][:batch_blocks]
            return [
                game
                for index in wanted
                for game in _block(config, settings, index)
                if game.key not in done
            ]

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
            server_socket=server_socket,
            tls=tls,
        )
        final, _, differences = look()
    return SprtOutcome(
        settings=settings,
        status=final,
        games=final.blocks * per_block,
        played=played,
        errors=errors,
        seconds=time.monotonic() - started,
        score_difference=mean_interval(differences) if differences else None,
    )


def run_sprt(
    config: TournamentConfig,
    server: str | None = None,
    database: str | None = None,
    on_status: Callable[[SprtStatus, int], None] | None = None,
    progress: Progress | None = None,
    admin_token: str | None = None,
    tls: ServerTls | None = None,
) -> SprtOutcome:
    """Run (or resume) an SPRT; an in-process server when `server` is None.
    `tls`: how to reach a `server` that serves TLS."""
    db_path = database or resolve_path(config, config.database)
    refuse_if_claimed(db_path, config.name, SPRT_COMMAND)
    if server is not None:
        return run_interruptible(
            run_sprt_async(config, server, db_path, on_status, progress, admin_token, tls=tls)
        )

    async def run_locally() -> SprtOutcome:
        async with local_server(config) as local:
            return await run_sprt_async(
                config,
                local.address,
                db_path,
                on_status,
                progress,
                local.admin_token,
                server_socket=local.sockets,
            )

    return run_interruptible(run_locally())
