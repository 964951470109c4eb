"""Standings, crosstable and mean scores of a stored tournament, in four formats.

`report_data` computes everything once into plain data (what `--format json`
prints); tournament.report_layout (text, markdown, CSV) and
tournament.report_html only lay it out.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import games
from games.options import options_to_strings, parse_options
from tournament.config import MEAN_ANCHOR
from tournament.openskill_ratings import SkillRating, rate_openskill
from tournament.outcome import solo_scores
from tournament.ratings import (
    TIE_ELO,
    Pair,
    Rating,
    mean_interval,
    pairwise,
    rate,
    rounded,
    totals,
)
from tournament.report_formats import FORMATS
from tournament.report_layout import games_count, render
from tournament.sprt import SprtStatus, elo_to_score
from tournament.sprt_blocks import SprtPlan, games_per_block, result_lines
from tournament.store import GameRecord, Store, TournamentRecord, check_existing
from tournament.store_lock import LOCK_WAIT_SECONDS
from tournament.store_read import read_tournament
from tournament.stored_schedule import outside_schedule

# games_count and render are tournament.report_layout's, named here as before.
__all__ = ["FORMATS", "games_count", "render", "report", "report_data"]


def report(
    db: str | Path,
    format: str = "text",
    tournament: str | None = None,
    samples: int | None = None,
    seed: int = 0,
    anchor: str | None = None,
    include_removed: bool = False,
    on_samples: Callable[[int, int], None] | None = None,
    wait: float = LOCK_WAIT_SECONDS,
    on_wait: Callable[[float], None] | None = None,
) -> str:
    """The report of tournament `tournament` (default: the latest) in `db`;
    `anchor` (a bot, or "mean") overrides the tournament's Elo anchor;
    `include_removed` counts the games of bots no longer in the config;
    `on_samples(done, total)` follows the bootstrap; `wait` and `on_wait` are
    read_tournament's, for another process's lock on `db`."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    check_existing(db)

    def stored(store: Store) -> tuple[TournamentRecord, tuple[GameRecord, ...]]:
        record = store.tournament(tournament)
        return record, store.games(record.id)

    record, games = read_tournament(db, stored, wait, on_wait)
    data = report_data(
        record,
        games,
        samples=samples,
        seed=seed,
        anchor=anchor,
        include_removed=include_removed,
        on_samples=on_samples,
    )
    if format == "html":
        from tournament.report_html import report_page  # it builds on this module

        return report_page(data, games)
    return render(data, format)


def options_played(game: str, stored: Mapping[str, str]) -> dict[str, str]:
    """The options the games were played under, as the server stores and sends
    them: every option of the game, defaults filled in, in canonical form ("yes"
    as "true", "+01" as "1"), sorted by name. A tournament stores them as its
    config first wrote them; options the engine no longer reads are given as
    stored rather than leave the report unreadable."""
    try:
        specs = games.get(game).option_specs
        canonical = options_to_strings(specs, parse_options(specs, stored))
    except (KeyError, ValueError):  # games.InvalidOptions is a ValueError
        canonical = dict(stored)
    return dict(sorted(canonical.items()))


def report_data(
    record: TournamentRecord,
    games: Sequence[GameRecord],
    samples: int | None = None,
    seed: int = 0,
    anchor: str | None = None,
    include_removed: bool = False,
    on_samples: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """`anchor` overrides the tournament's own: a bot's name, or "mean".

    Games with a bot that is no longer in the tournament's config (removed
    from the ladder) are left out unless `include_removed`. "games_played"
    counts the rated games of the current schedule; "games_outside_schedule"
    the others rated (`stored_schedule`).
    """
    if anchor is not None and record.players == 1:
        raise ValueError("solo tournaments have no Elo to anchor (they rank by mean score)")
    field = {bot["name"] for bot in record.config.get("bots", [])}
    removed = sorted({bot for game in games for bot in game.bots} - field) if field else []
    left_out = 0
    if removed and not include_removed:
        kept = [game for game in games if set(game.bots) <= field]
        left_out = len(games) - len(kept)
        games = kept
    outside = outside_schedule(record, games)
    played, unplayed = _bot_order(record, games)
    bots = [*played, *unplayed]
    unplayed_anchor = None
    if anchor is None:
        anchor = record.anchor
        if anchor is not None and anchor not in played:
            # The config's anchor has no game stored (forgotten, or not yet
            # played): there is nothing to pin it to, so the mean is 0.
            unplayed_anchor, anchor = anchor, None
    elif anchor == MEAN_ANCHOR:
        anchor = None
    elif anchor in unplayed:
        raise ValueError(f"anchor {anchor!r} has no game stored, so nothing can be rated from it")
    elif anchor in removed and anchor not in played:
        # Its games are in the database, left out here: "not a bot of this
        # tournament" was false and did not say how to rate from it.
        raise ValueError(
            f"anchor {anchor!r} was removed from the config, so its stored games are "
            "left out (--include-removed counts them)"
        )
    elif anchor not in played:
        raise ValueError(f"anchor {anchor!r} is not a bot of this tournament ({', '.join(bots)})")
    if samples is None:
        samples = int(record.config.get("bootstrap", 1000))
    solo = record.players == 1
    floor = _lowest_score(record)
    stats = {bot: _BotStats() for bot in bots}
    counted = solo_scores(games) if solo else {}
    for game in games:
        # A failed seat is ranked last: in a game of several, its mean score
        # counts the lowest score at its table, never its random stand-in's.
        lowest = min(seat.score for seat in game.seats)
        for seat in game.seats:
            entry = stats.setdefault(seat.bot, _BotStats())
            entry.games += 1
            if solo:
                score = counted[(game.key, seat.bot)]
            else:
                score = seat.score if seat.failure is None else lowest
            entry.scores.append(score)
            entry.by_seed[game.seed] = score
            entry.timeouts += seat.strikes
            entry.disqualifications += int(seat.disqualified)
            entry.crashes += int(seat.failure == "crash")
            entry.forfeits += int(seat.failure is not None)
    # Every game's seat pairs, for the W/D/L and the crosstable.
    pairs = [pairwise(game.bots, game.ranks) for game in sorted(games, key=lambda g: g.key)]
    for game_pairs in pairs:
        for pair in game_pairs:
            for bot, score in ((pair.a, pair.score), (pair.b, 1.0 - pair.score)):
                entry = stats[bot]
                entry.points += pair.weight * score
                entry.weight += pair.weight
                if score == 1.0:
                    entry.wins += 1
                elif score == 0.0:
                    entry.losses += 1
                else:
                    entry.draws += 1

    standings: list[dict[str, Any]] = []
    # A bot without a stored game has no rating at all (None, shown "-"): it is
    # listed after the rated bots and left out of the fits, so it neither claims
    # a figure nor moves the mean the others are anchored at.
    if solo:
        # Equal means: fewer failed games first.
        ranked = sorted(
            played, key=lambda bot: (-_mean(stats[bot].scores), stats[bot].forfeits, bot)
        )
        elo = {}

        def tied(first: str, bot: str) -> bool:
            return stats[first].forfeits == stats[bot].forfeits and math.isclose(
                _mean(stats[first].scores), _mean(stats[bot].scores), rel_tol=1e-12, abs_tol=1e-9
            )
    else:
        ratings = (
            rate(
                played,
                _deals(games),
                anchor=anchor,
                samples=samples,
                seed=seed,
                on_samples=on_samples,
            )
            if played
            else ()
        )
        ranked = [rating.bot for rating in ratings]
        elo = {rating.bot: rating for rating in ratings}

        def tied(first: str, bot: str) -> bool:
            # As rate() orders them: within TIE_ELO of the first of their run.
            return elo[first].elo - elo[bot].elo < TIE_ELO

    order = [*ranked, *unplayed]
    multiplayer = record.players >= 3
    skill = (
        rate_openskill(
            played,
            ((game.bots, game.ranks) for game in sorted(games, key=lambda g: (g.seed, g.key))),
        )
        if multiplayer and played
        else {}
    )
    ranks = _shared_ranks(ranked, tied)
    for position, bot in enumerate(order, start=1):
        entry = stats[bot]
        row: dict[str, Any] = {"rank": ranks.get(bot), "bot": bot}
        if solo:
            ahead = _paired_lead(entry, stats[order[position]]) if position < len(order) else None
            row.update(
                lead_next=_round(ahead[0]) if ahead else None,
                lead_next_low=_round(ahead[1]) if ahead else None,
                lead_next_high=_round(ahead[2]) if ahead else None,
            )
        else:
            row.update(_elo_columns(elo.get(bot), bootstrap=samples > 0))
        if multiplayer:
            row.update(_skill_columns(skill.get(bot)))
        mean, low, high = mean_interval(entry.scores) if entry.scores else (None, None, None)
        if low is not None and floor is not None:
            # Student's t reaches below the lowest score a game can end with
            # when a few scores are far apart (0 and 12: -70.2 to 82.2).
            low = max(low, floor)
        row.update(
            games=entry.games,
            score_pct=None if not entry.weight else round(100.0 * entry.points / entry.weight, 1),
            wins=entry.wins,
            draws=entry.draws,
            losses=entry.losses,
            mean_score=_round(mean),
            mean_score_low=_round(low),
            mean_score_high=_round(high),
            timeouts=entry.timeouts,
            disqualifications=entry.disqualifications,
            crashes=entry.crashes,
            forfeits=entry.forfeits,
        )
        standings.append(row)

    crosstable: dict[str, dict[str, float | None]] = {}
    if not solo:
        table = totals(order, pairs)
        for i, bot in enumerate(order):
            crosstable[bot] = {
                other: (
                    round(100.0 * table.points[i][j] / table.games[i][j], 1)
                    if table.games[i][j]
                    else None
                )
                for j, other in enumerate(order)
                if j != i
            }
    return {
        "tournament": record.name,
        "game": record.game,
        "players": record.players,
        "options": options_played(record.game, record.options),
        "anchor": anchor if not solo else None,
        "anchor_without_games": unplayed_anchor if not solo else None,
        "games_played": len(games) - outside,
        "games_scheduled": record.scheduled,
        "games_outside_schedule": outside,
        "bootstrap_samples": samples,
        "rating": "mean score" if solo else "Bradley-Terry Elo",
        "openskill": multiplayer,  # standings carry openskill_mu, _sigma, _ordinal
        "removed_bots": removed,
        "removed_games_left_out": left_out,
        "bots_without_games": unplayed,
        "standings": standings,
        "crosstable": crosstable,
        "nodes": _nodes(games),
        "unsandboxed": _unsandboxed(record),
        "sprt": _sprt(record, games),
    }


def _sprt(record: TournamentRecord, games: Sequence[GameRecord]) -> dict[str, Any] | None:
    """An SPRT's test over its stored complete blocks, as `tournament sprt`
    counts them; None for a round robin or gauntlet. Its `max_games` is the
    limit "games_scheduled" holds, not a schedule to finish."""
    plan = SprtPlan.from_stored(record)
    if plan is None:
        return None
    current, difference = plan.look(games)
    counted = current.blocks * games_per_block(plan.players)
    settings = plan.settings
    lines = result_lines(settings, current, counted, difference)
    mean, low, high = (
        (None, None, None)
        if difference is None
        else tuple(None if value is None else rounded(value, 2) for value in difference)
    )
    return {
        "candidate": settings.candidate,
        "baseline": settings.baseline,
        "elo0": settings.elo0,
        "elo1": settings.elo1,
        "alpha": settings.alpha,
        "beta": settings.beta,
        "max_games": settings.max_games,
        "blocks": current.blocks,
        "games": counted,
        "llr": round(current.llr, 3),
        "lower": round(current.lower, 3),
        "upper": round(current.upper, 3),
        "verdict": "undecided" if current.verdict == "continue" else current.verdict,
        **_sprt_estimate(current),
        # Solo: the candidate's score minus the baseline's on the same deals.
        "score_difference": mean,
        "score_difference_low": low,
        "score_difference_high": high,
        "status": lines[0],
        "lines": lines,
    }


def _sprt_estimate(current: SprtStatus) -> dict[str, float | None]:
    """The test's estimate as numbers: the candidate's mean block score and its
    95% interval (within 0 and 1), and the same on the Elo scale, where a score
    of 0 or 1 is infinite and so null, as JSON has no infinity (the score then
    tells +inf from -inf). All null without a complete block."""
    keys = ("score", "score_low", "score_high", "elo", "elo_low", "elo_high")
    if not current.blocks:
        return dict.fromkeys(keys)
    elos = (current.elo, current.elo_low, current.elo_high)
    scores = [rounded(elo_to_score(elo), 4) for elo in elos]
    finite = [rounded(elo, 1) if math.isfinite(elo) else None for elo in elos]
    return dict(zip(keys, [*scores, *finite], strict=True))


def _elo_columns(rating: Rating | None, bootstrap: bool) -> dict[str, float | bool | None]:
    """A bot's Elo figures; `elo_interval_widened` says its interval is (or
    covers) the fit's normal approximation rather than the bootstrap's
    percentiles, which only means something when there was a bootstrap."""
    if rating is None:  # no game stored: no rating, rather than a certain +0 [+0, +0]
        keys = ("elo", "elo_low", "elo_high", "elo_interval_widened", "los_next")
        return dict.fromkeys(keys)
    return {
        "elo": rounded(rating.elo, 1),
        "elo_low": rounded(rating.low, 1),
        "elo_high": rounded(rating.high, 1),
        "elo_interval_widened": bootstrap and rating.widened,
        "los_next": None if rating.los_next is None else round(rating.los_next, 3),
    }


def _skill_columns(skill: SkillRating | None) -> dict[str, float | None]:
    if skill is None:
        return dict.fromkeys(("openskill_mu", "openskill_sigma", "openskill_ordinal"))
    return {
        "openskill_mu": rounded(skill.mu, 2),
        "openskill_sigma": rounded(skill.sigma, 2),
        "openskill_ordinal": rounded(skill.ordinal, 2),
    }


def _nodes(games: Sequence[GameRecord]) -> dict[str, int]:
    """Games per Ray node they were played on (empty when all were played here)."""
    counts: dict[str, int] = {}
    for game in games:
        if game.node:
            counts[game.node] = counts.get(game.node, 0) + 1
    return dict(sorted(counts.items()))


def _unsandboxed(record: TournamentRecord) -> list[str]:
    """Command bots that ran outside the sandbox (`sandbox = false`, or stored before it)."""
    return [
        bot["name"]
        for bot in record.config.get("bots", [])
        if bot.get("command") and not bot.get("sandbox")
    ]


def _deals(games: Sequence[GameRecord]) -> list[list[Pair]]:
    """The seat pairs of every deal: the games one group of bots played on one
    seed (its seat rotations), which the bootstrap resamples as one unit. They
    share the deal and are not independent (a deal that suits one bot gives it
    every game on it), so resampling them one by one made the intervals too
    narrow there. Ordered by their first game's key, so the bootstrap does not
    depend on the order games finished in."""
    deals: dict[tuple[int, frozenset[str]], list[Pair]] = {}
    for game in sorted(games, key=lambda g: g.key):
        deals.setdefault((game.seed, frozenset(game.bots)), []).extend(
            pairwise(game.bots, game.ranks)
        )
    return list(deals.values())


def _shared_ranks(ranked: Sequence[str], tied: Callable[[str, str], bool]) -> dict[str, int]:
    """Competition ranking ("1, 2, 2, 4") of `ranked`, best first: a bot tied with
    the first of the run above it shares that bot's rank (listed by name there,
    as `ranked` is), where equal bots were once ranked 3 and 4 by their names."""
    ranks: dict[str, int] = {}
    first = None
    for position, bot in enumerate(ranked, start=1):
        if first is None or not tied(first, bot):
            first = bot
        ranks[bot] = ranks.get(first, position)
    return ranks


def _paired_lead(
    bot: _BotStats, next_bot: _BotStats
) -> tuple[float, float | None, float | None] | None:
    """Solo: how far `bot` scores above `next_bot` on the seeds both played (the
    same deals), mean and 95% interval; pairing removes the deals' luck."""
    shared = sorted(bot.by_seed.keys() & next_bot.by_seed.keys())
    if not shared:
        return None
    return mean_interval([bot.by_seed[seed] - next_bot.by_seed[seed] for seed in shared])


@dataclasses.dataclass(slots=True)
class _BotStats:
    games: int = 0
    scores: list[float] = dataclasses.field(default_factory=list)
    by_seed: dict[int, float] = dataclasses.field(default_factory=dict)  # solo: each seed's score
    points: float = 0.0
    weight: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    timeouts: int = 0
    disqualifications: int = 0
    crashes: int = 0
    forfeits: int = 0


def _bot_order(
    record: TournamentRecord, games: Sequence[GameRecord]
) -> tuple[list[str], list[str]]:
    """The bots with a game stored (config order, then any others), and the
    config's bots without one (not played yet, or every game forgotten)."""
    bots = [bot["name"] for bot in record.config.get("bots", [])]
    for game in games:
        for bot in game.bots:
            if bot not in bots:
                bots.append(bot)
    played = {bot for game in games for bot in game.bots}
    return [bot for bot in bots if bot in played], [bot for bot in bots if bot not in played]


def _lowest_score(record: TournamentRecord) -> float | None:
    """The lowest score a seat of the tournament's games can end with (None:
    none known, or a game this sheepfold does not have)."""
    try:
        return games.get(record.game).lowest_score(record.players)
    except games.InvalidOptions:
        return None


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _round(value: float | None) -> float | None:
    return None if value is None else rounded(value, 2)
