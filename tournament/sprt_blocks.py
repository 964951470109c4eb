"""Which games an SPRT's blocks are, and what the stored ones say.

A block is the games on one deal that compare the candidate with the baseline
(`schedule.sprt_block`); its score indexes `sprt.block_values`. `SprtPlan`
names the blocks from a config (`tournament sprt`) or from the config a
tournament database stored (`tournament report`), so both count the same
complete blocks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.words import count
from tournament.config import SprtSettings, TournamentConfig
from tournament.outcome import solo_scores
from tournament.ratings import mean_interval
from tournament.schedule import ScheduledGame, sprt_block
from tournament.sprt import SprtHypotheses, SprtStatus, block_values, status
from tournament.store import GameRecord, TournamentRecord

__all__ = [
    "SprtPlan",
    "block_index",
    "comparisons",
    "format_status",
    "games_per_block",
    "max_blocks",
    "result_lines",
    "score_difference",
    "tally",
]


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


@dataclass(frozen=True, slots=True)
class SprtPlan:
    """Which games an SPRT's blocks are: from its config, or from what a
    tournament database stored of that config (`from_stored`, for `report`)."""

    seed: int
    players: int
    settings: SprtSettings
    others: tuple[str, ...]  # the bots seated beside the two tested, in turn

    @classmethod
    def from_config(cls, config: TournamentConfig, settings: SprtSettings) -> SprtPlan:
        tested = (settings.candidate, settings.baseline)
        others = tuple(name for name in config.bot_names if name not in tested)
        return cls(config.seed, config.players, settings, others)

    @classmethod
    def from_stored(cls, record: TournamentRecord) -> SprtPlan | None:
        """None unless the stored config is an SPRT's, with usable settings."""
        stored = record.config
        table = stored.get("sprt")
        if stored.get("schedule") != "sprt" or not isinstance(table, dict):
            return None
        try:
            settings = SprtSettings(
                candidate=str(table["candidate"]),
                baseline=str(table["baseline"]),
                elo0=float(table["elo0"]),
                elo1=float(table["elo1"]),
                alpha=float(table["alpha"]),
                beta=float(table["beta"]),
                max_games=int(table["max_games"]),
            )
            seed = int(stored["seed"])
            names = [str(bot["name"]) for bot in stored.get("bots", [])]
        except (KeyError, TypeError, ValueError):
            return None  # a config edited by hand: the report goes on without the test
        tested = (settings.candidate, settings.baseline)
        return cls(seed, record.players, settings, tuple(n for n in names if n not in tested))

    @property
    def limit(self) -> int:
        """How many blocks `max_games` allows (at least one)."""
        return max(1, self.settings.max_games // games_per_block(self.players))

    def block(self, index: int) -> tuple[ScheduledGame, ...]:
        return sprt_block(
            index,
            self.seed,
            self.settings.candidate,
            self.settings.baseline,
            self.others,
            self.players,
        )

    def hypotheses(self) -> SprtHypotheses:
        s = self.settings
        return SprtHypotheses(s.elo0, s.elo1, s.alpha, s.beta)

    def status(self, stored: Sequence[GameRecord]) -> SprtStatus:
        """The test's state over the complete blocks in `stored`."""
        return self.look(stored)[0]

    def look(self, stored: Sequence[GameRecord]) -> tuple[SprtStatus, ScoreDifference | None]:
        """The test's state over the complete blocks in `stored`, and solo the
        paired score difference over them (`score_difference`)."""
        counts, differences, _ = tally(self, stored)
        current = status(counts, block_values(comparisons(self.players)), self.hypotheses())
        return current, score_difference(differences)


def max_blocks(config: TournamentConfig, settings: SprtSettings) -> int:
    return SprtPlan.from_config(config, settings).limit


def tally(plan: SprtPlan, stored: Sequence[GameRecord]) -> tuple[list[int], list[float], set[int]]:
    """Counts per block value over the complete blocks, solo score differences,
    and which block indices are complete."""
    by_key = {game.key: game for game in stored}
    counts = [0] * (2 * comparisons(plan.players) + 1)
    differences: list[float] = []
    complete: set[int] = set()
    seeds = sorted({game.seed for game in stored})
    for seed in seeds:
        index = seed - plan.seed
        if not 0 <= index < plan.limit:
            continue
        block = plan.block(index)
        if not all(game.key in by_key for game in block):
            continue
        value, difference = block_index(
            [by_key[game.key] for game in block],
            plan.settings.candidate,
            plan.settings.baseline,
            plan.players,
        )
        counts[value] += 1
        complete.add(index)
        if difference is not None:
            differences.append(difference)
    return counts, differences, complete


# Solo: the candidate's score minus the baseline's on the same deals, mean and
# 95% interval (no interval from one deal).
ScoreDifference = tuple[float, float | None, float | None]


def score_difference(differences: Sequence[float]) -> ScoreDifference | None:
    """The mean of `tally`'s solo score differences with its 95% interval;
    None with none (not solo, or no complete block)."""
    return mean_interval(differences) if differences else None


def result_lines(
    settings: SprtSettings, current: SprtStatus, games: int, difference: ScoreDifference | None
) -> list[str]:
    """What the test says of its counted blocks: the status line and, solo, the
    mean paired score difference. `tournament sprt` prints them above its
    verdict and `tournament report` in its notes, so both say the same things
    (the report once left the difference out)."""
    lines = [format_status(settings, current, games)]
    if difference is not None:
        mean, low, high = difference
        interval = "(one deal)" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"
        lines.append(f"mean score difference on the same deals: {mean:+.2f} {interval}")
    return lines


def format_status(settings: SprtSettings, current: SprtStatus, games: int) -> str:
    verdict = {"H1": "  H1 accepted", "H0": "  H0 accepted"}.get(current.verdict, "")
    return (
        f"SPRT {settings.candidate} vs {settings.baseline} "
        f"[elo0 {settings.elo0:g}, elo1 {settings.elo1:g}]: "
        f"LLR {current.llr:+.3f} ({current.lower:+.3f}, {current.upper:+.3f}), "
        f"{count(games, 'game')} ({count(current.blocks, 'block')}), {_elo_status(current)}"
        f"{verdict}"
    )


def _elo_status(current: SprtStatus) -> str:
    """The Elo estimate and its interval; an infinite end is an open one. An
    infinite estimate says why (every block won or lost: a score of 100% or 0%),
    and without a block there is no estimate (it once read +0.0 [-inf, +inf])."""
    if not current.blocks:
        return "Elo: none yet (no complete block)"

    def elo(value: float) -> str:
        return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")

    interval = f"Elo {elo(current.elo)} [{elo(current.elo_low)}, {elo(current.elo_high)}]"
    if math.isinf(current.elo):
        interval += " (every block won)" if current.elo > 0 else " (every block lost)"
    return interval
