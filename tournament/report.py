"""Standings, crosstable and mean scores of a stored tournament, in four formats.

`report_data` computes everything once into plain data (what `--format json`
prints); the text, markdown and CSV renderers only lay it out.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.words import count
from tournament.config import MEAN_ANCHOR
from tournament.openskill_ratings import SkillRating, rate_openskill
from tournament.outcome import solo_scores
from tournament.ratings import (
    Rating,
    mean_interval,
    pairwise,
    rate,
    rounded,
    signed_elo,
    totals,
)
from tournament.sprt_blocks import SprtPlan, format_status, games_per_block
from tournament.store import GameRecord, Store, TournamentRecord, check_existing
from tournament.store_lock import LOCK_WAIT_SECONDS
from tournament.store_read import read_tournament
from tournament.stored_schedule import outside_schedule

__all__ = ["FORMATS", "games_count", "render", "report", "report_data"]

FORMATS = ("text", "json", "csv", "markdown", "html")


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
    elif anchor not in played:
        raise ValueError(f"anchor {anchor!r} is not a bot of this tournament ({', '.join(bots)})")
    if samples is None:
        samples = int(record.config.get("bootstrap", 1000))
    solo = record.players == 1
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
    # Sorted by key so the bootstrap does not depend on the order games finished in.
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
    else:
        ratings = (
            rate(played, pairs, anchor=anchor, samples=samples, seed=seed, on_samples=on_samples)
            if played
            else ()
        )
        ranked = [rating.bot for rating in ratings]
        elo = {rating.bot: rating for rating in ratings}
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
    for position, bot in enumerate(order, start=1):
        entry = stats[bot]
        row: dict[str, Any] = {"rank": position if entry.games else None, "bot": bot}
        if solo:
            ahead = _paired_lead(entry, stats[order[position]]) if position < len(order) else None
            row.update(
                lead_next=_round(ahead[0]) if ahead else None,
                lead_next_low=_round(ahead[1]) if ahead else None,
                lead_next_high=_round(ahead[2]) if ahead else None,
            )
        else:
            row.update(_elo_columns(elo.get(bot)))
        if multiplayer:
            row.update(_skill_columns(skill.get(bot)))
        mean, low, high = mean_interval(entry.scores) if entry.scores else (None, None, None)
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
        "options": record.options,
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
    current = plan.status(games)
    counted = current.blocks * games_per_block(plan.players)
    settings = plan.settings
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
        "status": format_status(settings, current, counted),
    }


def games_count(data: dict[str, Any]) -> str:
    """ "12/40 games" of a schedule; an SPRT's games against its limit, which a
    decided test never reaches ("16 games of an SPRT (at most 200)")."""
    if data.get("sprt"):
        return (
            f"{count(data['games_played'], 'game')} of an SPRT (at most {data['games_scheduled']})"
        )
    return f"{data['games_played']}/{count(data['games_scheduled'], 'game')}"


def _elo_columns(rating: Rating | None) -> dict[str, float | None]:
    if rating is None:  # no game stored: no rating, rather than a certain +0 [+0, +0]
        return dict.fromkeys(("elo", "elo_low", "elo_high", "los_next"))
    return {
        "elo": rounded(rating.elo, 1),
        "elo_low": rounded(rating.low, 1),
        "elo_high": rounded(rating.high, 1),
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


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _round(value: float | None) -> float | None:
    return None if value is None else rounded(value, 2)


# ---------------------------------------------------------------- rendering


def render(data: dict[str, Any], format: str) -> str:
    if format == "json":
        return json.dumps(data, indent=2, sort_keys=False)
    if format == "csv":
        return _csv(data)
    return _table_report(data, markdown=format == "markdown")


def _columns(data: dict[str, Any]) -> list[tuple[str, str]]:
    solo = data["players"] == 1
    columns = [("rank", "#"), ("bot", "bot")]
    if not solo:
        columns += [("elo", "Elo"), ("interval", "95% interval"), ("los_next", "LOS")]
    if data.get("openskill"):
        columns += [
            ("openskill_mu", "OS mu"),
            ("openskill_sigma", "sigma"),
            ("openskill_ordinal", "mu-3sigma"),
        ]
    columns += [("games", "games")]
    if not solo:
        columns += [("score_pct", "score %"), ("wdl", "W/D/L")]
    columns += [
        ("mean_score", "mean score"),
        ("mean_interval", "95% interval" if solo else "mean 95%"),
    ]
    if solo:
        columns += [("lead_next", "lead on next, same seeds")]
    columns += [
        ("timeouts", "timeouts"),
        ("disqualifications", "DQ"),
        ("crashes", "crashes"),
        # Every game ranked last for a failure, holding a match up included, which
        # the three before do not count: such a bot once showed 0, 0, 0.
        ("forfeits", "failed"),
    ]
    return columns


def _cell(row: dict[str, Any], key: str) -> str:
    if key == "interval":
        if row["elo_low"] is None:
            return "-"
        return f"[{signed_elo(row['elo_low'])}, {signed_elo(row['elo_high'])}]"
    if key == "wdl":
        return f"{row['wins']}/{row['draws']}/{row['losses']}"
    if key == "mean_interval":
        if row["mean_score_low"] is None:
            return "-"
        return f"[{row['mean_score_low']:.1f}, {row['mean_score_high']:.1f}]"
    if key == "lead_next":
        if row["lead_next"] is None:
            return "-"
        if row["lead_next_low"] is None:
            return f"{row['lead_next']:+.1f} (one seed)"
        return (
            f"{row['lead_next']:+.1f} [{row['lead_next_low']:+.1f}, {row['lead_next_high']:+.1f}]"
        )
    value = row.get(key)
    if value is None:
        return "-"
    if key == "elo":
        return signed_elo(value)
    if key == "los_next":
        return _percent(value)
    if key in ("mean_score", "openskill_mu", "openskill_sigma", "openskill_ordinal"):
        return f"{value:.2f}"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def _percent(likelihood: float) -> str:
    """A bootstrap share as a whole percentage. Every resample agreeing is not
    certainty (a 10-0 record is 99.9% likely by the normal approximation), so
    the ends read "> 99%" and "< 1%", never "100%" or "0%"."""
    percent = round(100 * likelihood)
    if percent >= 100:
        return "> 99%"
    if percent <= 0:
        return "< 1%"
    return f"{percent}%"


def _table_report(data: dict[str, Any], markdown: bool) -> str:
    players = data["players"]
    title = f"{data['tournament']}: {data['game']}, {count(players, 'player')}, {games_count(data)}"
    notes = []
    if data.get("sprt"):
        sprt = data["sprt"]
        undecided = "  undecided" if sprt["verdict"] == "undecided" else ""
        notes.append(f"{sprt['status']}{undecided}")
    if players > 1:
        notes.append(_elo_note(data))
    if data.get("bots_without_games"):
        notes.append(
            f"No game stored for {', '.join(data['bots_without_games'])}: "
            "no rating or rank (nothing to rate from yet)."
        )
    if data.get("openskill"):
        notes.append(
            "OS: OpenSkill (Plackett-Luce) from each game's whole ranking: skill mu, "
            "uncertainty sigma, and mu - 3 sigma, the conservative figure a ladder sorts by."
        )
    if data.get("removed_games_left_out"):
        notes.append(
            f"{count(data['removed_games_left_out'], 'game')} of bots no longer in the config "
            f"({', '.join(data['removed_bots'])}) are left out (--include-removed counts them)."
        )
    if data.get("games_outside_schedule"):
        outside = data["games_outside_schedule"]
        counted_in = (
            games_count(data)
            if data.get("sprt")
            else f"{data['games_played']}/{data['games_scheduled']}"
        )
        notes.append(
            f"Also rated: {count(outside, 'stored game')} outside this "
            f"schedule, not counted in {counted_in}."
        )
    if players == 1:
        notes.append(
            "Solo: ranked by mean score with a 95% confidence interval. Lead on next: "
            "the mean of this bot's score minus the next bot's on each seed both "
            "played (the same deals), with its 95% interval."
        )
    if data.get("unsandboxed"):
        notes.append(
            "Not sandboxed (trusted by the organiser, `sandbox = false`): "
            + ", ".join(data["unsandboxed"])
            + "."
        )
    columns = _columns(data)
    rows = [[_cell(row, key) for key, _ in columns] for row in data["standings"]]
    out = [f"## {title}" if markdown else title, ""]
    out += _grid([header for _, header in columns], rows, markdown, names=1)
    out += ["", *notes]
    if data["crosstable"]:
        bots = [row["bot"] for row in data["standings"]]
        headers = ["score % (row vs column)", *bots]
        grid = [
            [
                bot,
                *(
                    "x"
                    if other == bot
                    else "-"
                    if data["crosstable"][bot][other] is None
                    else f"{data['crosstable'][bot][other]:.1f}"
                    for other in bots
                ),
            ]
            for bot in bots
        ]
        out += ["", "### Crosstable" if markdown else "Crosstable", ""]
        out += _grid(headers, grid, markdown, names=0)
    if data.get("nodes"):
        here = ", ".join(f"{node}: {count}" for node, count in data["nodes"].items())
        out += ["", f"Games played on Ray nodes: {here}."]
    return "\n".join(out) + "\n"


def _elo_note(data: dict[str, Any]) -> str:
    anchor = f"anchored at {data['anchor']} = 0" if data["anchor"] else "mean 0"
    if data.get("anchor_without_games"):
        anchor += f" (the anchor {data['anchor_without_games']} has no game stored)"
    if not data["bootstrap_samples"]:
        # rate() then has no resamples: every interval is the normal one.
        return (
            f"Elo: Bradley-Terry maximum likelihood, {anchor}; 95% interval: the fit's normal "
            "approximation (1.96 standard errors; no bootstrap samples, so no LOS)."
        )
    return (
        f"Elo: Bradley-Terry maximum likelihood, {anchor}; 95% interval by bootstrap "
        f"over games ({data['bootstrap_samples']} samples), widened to the fit's normal "
        "approximation where resamples cannot vary (a perfect record); LOS: likelihood of "
        "being stronger than the next bot."
    )


def _grid(headers: list[str], rows: list[list[str]], markdown: bool, names: int) -> list[str]:
    """A table; in text, column `names` (the bots) is aligned left, the others right.
    Chosen by content, the crosstable's first column of scores was once aligned
    left with the names (and the rank "-" of a bot without games too)."""
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return lines
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i == names else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def _csv(data: dict[str, Any]) -> str:
    buffer = io.StringIO()
    keys = list(data["standings"][0]) if data["standings"] else ["rank", "bot"]
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["tournament", "game", *keys])
    for row in data["standings"]:
        writer.writerow(
            [data["tournament"], data["game"], *("" if row[k] is None else row[k] for k in keys)]
        )
    if data["crosstable"]:
        bots = [row["bot"] for row in data["standings"]]
        writer.writerow([])
        writer.writerow(["score % (row vs column)", *bots])
        for bot in bots:
            cells = data["crosstable"][bot]
            writer.writerow(
                [
                    bot,
                    *(
                        "" if other == bot or cells[other] is None else cells[other]
                        for other in bots
                    ),
                ]
            )
    return buffer.getvalue()
