"""A tournament report's data (tournament.report.report_data) laid out as
text, markdown, CSV or JSON: the standings' columns and cells, which the HTML
page (tournament.report_html) lays out too, the crosstable and the notes."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from games.options import options_line
from games.words import count
from tournament.ratings import signed_elo

__all__ = [
    "games_count",
    "options_text",
    "render",
    "report_notes",
    "standing_cell",
    "standing_columns",
]


def games_count(data: dict[str, Any]) -> str:
    """ "12/40 games" of a schedule; an SPRT's games against its limit, which a
    decided test never reaches ("16 games of an SPRT (at most 200)")."""
    if data.get("sprt"):
        return (
            f"{count(data['games_played'], 'game')} of an SPRT (at most {data['games_scheduled']})"
        )
    return f"{data['games_played']}/{count(data['games_scheduled'], 'game')}"


def options_text(data: dict[str, Any]) -> str:
    """ "options wolf=true, bonus_actions=false, " for the header; "" for a game
    without options (its ratings mean the game played under these only)."""
    options = options_line(data.get("options") or {})
    return f"options {options}, " if options else ""


def render(data: dict[str, Any], format: str) -> str:
    if format == "json":
        return json.dumps(data, indent=2, sort_keys=False)
    if format == "csv":
        return _csv(data)
    return _table_report(data, markdown=format == "markdown")


def standing_columns(data: dict[str, Any]) -> list[tuple[str, str]]:
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


def standing_cell(row: dict[str, Any], key: str) -> str:
    if key == "interval":
        if row["elo_low"] is None:
            return "-"
        # "*": widened to the fit's normal approximation (the Elo note says so).
        mark = "*" if row.get("elo_interval_widened") else ""
        return f"[{signed_elo(row['elo_low'])}, {signed_elo(row['elo_high'])}]{mark}"
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
    certainty (a 10-0 record is 99.9% likely by the textbook formula, 98% by
    the fit's normal approximation with its prior), so
    the ends read "> 99%" and "< 1%", never "100%" or "0%"."""
    percent = round(100 * likelihood)
    if percent >= 100:
        return "> 99%"
    if percent <= 0:
        return "< 1%"
    return f"{percent}%"


def report_notes(data: dict[str, Any]) -> list[str]:
    """What the standings' figures are (the SPRT's line, the Elo's anchor and
    interval, ties, OpenSkill, the solo figures) and which games they count: the
    paragraphs under the table, in text and on the HTML page alike."""
    players = data["players"]
    notes = []
    if data.get("sprt"):
        sprt = data["sprt"]
        undecided = "  undecided" if sprt["verdict"] == "undecided" else ""
        # Its lines as `tournament sprt` printed them (sprt_blocks.result_lines).
        notes.append(f"{sprt['status']}{undecided}")
        notes.extend(sprt.get("lines", [])[1:])
    if players > 1:
        notes.append(_elo_note(data))
    if players > 2:
        # Beside "games 32", "73/0/23" (96 results) said nothing of what it counted.
        notes.append(
            f"W/D/L: each game's seat pairs, {players - 1} a game for each bot (the better "
            "rank wins, equal ranks draw, a failed seat ranks last); score % and the "
            "crosstable: (W + D/2) / (W + D + L) of them, the pairs the Elo is fitted to."
        )
    tie = _tie_note(data)
    if tie:
        notes.append(tie)
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
            "Solo: ranked by mean score with a 95% confidence interval (Student's t; a "
            "failed game counts the lowest score any bot made on its deal). Lead on next: "
            "the mean of this bot's score minus the next bot's on each seed both "
            "played (the same deals), with its 95% interval."
        )
    failures = (
        "timeouts: deadlines missed; DQ, crashes, failed: games disqualified, crashed, "
        "and ranked last for any failure (those, a missed deadline that forfeits, a match "
        "held up)."
    )
    if players > 1:
        failures = (
            "Mean score: the game's own score, a failed seat counting the lowest at its "
            f"table; mean 95%: Student's t interval of that mean; {failures}"
        )
    notes.append(failures[0].upper() + failures[1:])
    if data.get("unsandboxed"):
        notes.append(
            "Not sandboxed (trusted by the organiser, `sandbox = false`): "
            + ", ".join(data["unsandboxed"])
            + "."
        )
    return notes


def _table_report(data: dict[str, Any], markdown: bool) -> str:
    title = (
        f"{data['tournament']}: {data['game']}, {count(data['players'], 'player')}, "
        f"{options_text(data)}{games_count(data)}"
    )
    notes = report_notes(data)
    columns = standing_columns(data)
    rows = [[standing_cell(row, key) for key, _ in columns] for row in data["standings"]]
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


def _tie_note(data: dict[str, Any]) -> str | None:
    """How bots the report cannot tell apart are ranked, when there are any."""
    ranks = [row["rank"] for row in data["standings"] if row["rank"] is not None]
    if len(set(ranks)) == len(ranks):
        return None
    if data["players"] == 1:
        return "Equal mean scores (with as many failed games) share a rank, listed by name."
    return "Equal Elo (within a millionth of a point) share a rank, listed by name."


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
    widened = ""
    if any(row.get("elo_interval_widened") for row in data["standings"]):
        # Not only a perfect record: a real round robin widened a bot of 26 wins
        # and 10 losses, whose wins against two bots every resample repeated.
        widened = (
            " (*: widened to the fit's normal approximation, 1.96 standard errors, where "
            "the resamples varied less than half as much, as results every resample "
            "repeats do: all games won or lost against some bots)"
        )
    return (
        f"Elo: Bradley-Terry maximum likelihood, {anchor}; 95% interval by bootstrap "
        f"over deals ({data['bootstrap_samples']} samples){widened}; LOS: likelihood of "
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
