"""A tournament report as HTML: the standings with each bot's Elo interval drawn
as a plot, the crosstable as a heat map, and the list of games.

`report_fragment` is what the web viewer's tournament page shows (and swaps in
again while the tournament runs); `report_page` wraps it into one self-contained
file to publish (`sheepfold tournament report --format html`). The table's
columns are the text report's, so a column added there shows here too.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from games.words import count, noun
from tournament.html_text import attribute, escape, name
from tournament.ratings import signed_elo
from tournament.report_layout import options_text, report_notes, standing_cell, standing_columns
from tournament.store import GameRecord

__all__ = ["STYLE", "report_fragment", "report_page"]

STYLE = """
.report { font: 14px/1.4 system-ui, sans-serif; color: #1d2b1f; }
.report h2 { margin: 0.2em 0; }
.report .meta { color: #4a5a4c; margin-bottom: 1em; }
.report table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
/* A table wider than the page (the standings on a phone) scrolls on its own. */
.report table { display: block; max-width: 100%; overflow-x: auto; }
.report .standings td, .report .games td { white-space: nowrap; }
/* Scrolled to its last columns, a row still names its bot: the bot's column
   stays at the box's left edge (on a phone the standings scrolled their names
   out of sight, figures with nothing to read them by), on the page's colour. */
.report .standings .bot, .report .heat .bot { position: sticky; left: 0; z-index: 1;
  box-shadow: inset -1px 0 0 #d6dfd2; }
.report .standings td.bot { background: var(--bg, #fff); }
.report th, .report td { padding: 4px 8px; border-bottom: 1px solid #d6dfd2; text-align: right; }
.report th { background: #eef3ea; font-weight: 600; }
.report td.bot, .report th.bot { text-align: left; font-weight: 600; }
.report .plot { display: block; margin: 0.5em 0 1.5em; max-width: 760px; }
/* Black on the heat colours: the report's ink read 3.98:1 on a 0% cell's red,
   under the 4.5:1 small text needs; black is 5.6:1 there and more elsewhere. */
.report .heat td { text-align: center; min-width: 4em; font-variant-numeric: tabular-nums;
  color: #000; }
.report .heat td.self { background: #f4f4f0; color: #4a5a4c; }
.report .games td, .report .games th { text-align: left; }
.report .note { color: #4a5a4c; font-size: 12px; max-width: 60em; }
/* A name with no space to break it at (80 letters, or 10,000 from a database
   edited by hand) widened the report past a phone's screen, which then
   scrolled it sideways: the title and notes break it anywhere, and in the
   tables a bot's name is cut with "..." (the whole of it in its title), as in
   the viewer's "Now playing" above the report (html_text.name). */
.report h2, .report .meta, .report .note { overflow-wrap: anywhere; }
.report .name, .now-playing .name { display: inline-block; max-width: min(20em, 45vw);
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
.report a { color: #2d6a3e; }
"""

NAME_SIZE = 13  # the plot's bot names, in px
PLOT_NAME_CHARS = 20  # a longer name is cut in the plot, its whole in a tooltip
CAPTION_SIZE = 11  # its estimates and the axis's numbers, in px
EDGE = 5  # the plot's margins left and right, in percent of its width
PALETTE = ("#2f7d4a", "#c2571a", "#3563a9", "#a23b72", "#8a7a12", "#4b8b8b", "#6b4fa3", "#7a5230")


def report_fragment(
    data: dict[str, Any],
    games: Sequence[GameRecord] = (),
    replay_href: Callable[[GameRecord], str] | None = None,
) -> str:
    """The report's HTML (no <html> wrapper); `replay_href` links each game."""
    solo = data["players"] == 1
    options = options_text(data).removesuffix(", ")
    parts = [
        '<div class="report">',
        f"<h2>{escape(data['tournament'])}</h2>",
        f'<div class="meta">{escape(data["game"])}, '
        f"{count(int(data['players']), 'player')}"
        f"{escape(', ' + options) if options else ''} &middot; "
        f'<span data-games-played="{int(data["games_played"])}">{int(data["games_played"])}</span>'
        f"{_of_scheduled(data)}{_outside(data)} &middot; "
        f"{escape(data['rating'])}</div>",
        "<h3>Standings</h3>",
        _standings(data),
        _interval_plot(data, solo),
        # What the figures are, as under the text report's table: once left out
        # here, the page to publish showed an SPRT's bare LLR and an Elo without
        # its anchor, interval or LOS explained.
        *(f'<p class="note">{escape(note)}</p>' for note in report_notes(data)),
    ]
    if data["crosstable"]:
        parts += ["<h3>Crosstable</h3>", _heat_map(data)]
    parts += [
        f'<h3 class="games-heading" data-games="{len(games)}">Games ({len(games)})</h3>',
        _games(games, replay_href),
        "</div>",
    ]
    return "\n".join(parts)


def _of_scheduled(data: dict[str, Any]) -> str:
    """What the games played count against: the schedule, or an SPRT's limit."""
    sprt = data.get("sprt")
    if sprt:
        verdict = "undecided" if sprt["verdict"] == "undecided" else f"{sprt['verdict']} accepted"
        return (
            f" {noun(int(data['games_played']), 'game')} played of an SPRT "
            f"(at most {int(data['games_scheduled'])}): "
            f"{escape(sprt['candidate'])} vs {escape(sprt['baseline'])}, {verdict}, "
            f"LLR {float(sprt['llr']):+.3f}"
        )
    return f" of {count(int(data['games_scheduled']), 'game')} played"


def _outside(data: dict[str, Any]) -> str:
    """The stored games rated beside the schedule's (`stored_schedule`)."""
    outside = int(data.get("games_outside_schedule") or 0)
    if not outside:
        return ""
    return f" (and {count(outside, 'more stored game')} outside the schedule)"


def report_page(data: dict[str, Any], games: Sequence[GameRecord] = ()) -> str:
    """One self-contained HTML file: no scripts, no external resources."""
    title = escape(f"{data['tournament']}: {data['game']} standings")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{STYLE} body {{ margin: 2em; }}</style></head>"
        f"<body>{report_fragment(data, games)}</body></html>\n"
    )


def _standings(data: dict[str, Any]) -> str:
    columns = standing_columns(data)
    head = "".join(f'<th class="{escape(key)}">{escape(title)}</th>' for key, title in columns)
    rows = []
    for row in data["standings"]:
        attrs = f' data-bot="{attribute(row["bot"])}"'
        if row.get("elo") is not None:
            attrs += (
                f' data-elo="{row["elo"]}" data-elo-low="{row["elo_low"]}"'
                f' data-elo-high="{row["elo_high"]}"'
            )
        cells = "".join(
            f'<td class="bot">{name(row["bot"])}</td>'
            if key == "bot"
            else f'<td class="{escape(key)}">{escape(standing_cell(row, key))}</td>'
            for key, _ in columns
        )
        rows.append(f"<tr{attrs}>{cells}</tr>")
    body = "".join(rows)
    return f'<table class="standings"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _interval_plot(data: dict[str, Any], solo: bool) -> str:
    """Each bot's estimate and its 95% interval on one horizontal axis: a row
    per bot, its name and its figures over its interval. The axis is the
    plot's width, which is the page's (it fits a phone), and the type is in
    pixels; the names once stood left of the axis in a plot 760 px wide or
    more, which a phone's page had to scroll sideways."""
    rows = data["standings"]
    if solo:
        points = [
            (r["bot"], r["mean_score"], r["mean_score_low"], r["mean_score_high"]) for r in rows
        ]
        label = "mean score, 95% interval"
    else:
        points = [(r["bot"], r["elo"], r["elo_low"], r["elo_high"]) for r in rows]
        label = "Elo, 95% interval"
    points = [(_cut(p[0]), *p[1:]) for p in points if p[1] is not None]
    if not points:
        return ""
    lows = [p[2] if p[2] is not None else p[1] for p in points]
    highs = [p[3] if p[3] is not None else p[1] for p in points]
    low, high = min(lows), max(highs)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad

    def fmt(value: float) -> str:
        return f"{value:.1f}" if solo else signed_elo(value)

    def x(value: float) -> str:
        # A share of the plot's width: the page's, up to 760 px (STYLE).
        return f"{EDGE + (value - low) / (high - low) * (100 - 2 * EDGE):.2f}%"

    captions = [
        f"{fmt(value)} (one game)"
        if lo is None or hi is None
        else f"{fmt(value)} [{fmt(lo)}, {fmt(hi)}]"
        for _, value, lo, hi in points
    ]
    # No narrower than its widest line, a name cut at PLOT_NAME_CHARS: a longer
    # one widened the plot past a phone's screen, and the report scrolled sideways.
    widest = max(
        _text_width(p[0][0], NAME_SIZE) + 8 + _text_width(caption, CAPTION_SIZE)
        for p, caption in zip(points, captions, strict=True)
    )
    row_h = 38
    height = 24 + row_h * len(points) + 20
    out = [
        f'<svg class="plot" width="100%" height="{height}" '
        f'style="min-width: {math.ceil(widest)}px" role="img" aria-label="{label}">',
        f'<text x="0" y="14" font-size="12" fill="#4a5a4c">{label}</text>',
    ]
    for tick in _ticks(low, high):
        out.append(
            f'<line x1="{x(tick)}" x2="{x(tick)}" y1="22" y2="{height - 18}" stroke="#e2e8de"/>'
            f'<text x="{x(tick)}" y="{height - 4}" font-size="{CAPTION_SIZE}" '
            f'text-anchor="middle" fill="#4a5a4c">{tick:g}</text>'
        )
    for i, (((shown, bot), value, lo, hi), caption) in enumerate(
        zip(points, captions, strict=True)
    ):
        top = 24 + i * row_h
        y = top + 27
        colour = PALETTE[i % len(PALETTE)]
        if lo is None or hi is None:  # one game: a point, and no interval claimed
            bounds, bar = "", ""
        else:
            bounds = f' data-low="{lo}" data-high="{hi}"'
            bar = (
                f'<line x1="{x(lo)}" x2="{x(hi)}" y1="{y}" y2="{y}" stroke="{colour}" '
                'stroke-width="4" stroke-linecap="round" opacity="0.55"/>'
            )
        out.append(
            f'<g class="interval" data-bot="{attribute(bot)}" data-value="{value}"{bounds}>'
            f"{f'<title>{escape(bot)}</title>' if shown != bot else ''}"
            f'<text x="0" y="{top + 12}" font-size="{NAME_SIZE}" font-weight="600">'
            f'<tspan class="bot">{escape(shown)}</tspan><tspan dx="8" font-size="{CAPTION_SIZE}" '
            f'font-weight="400" fill="#4a5a4c">{caption}</tspan></text>{bar}'
            f'<circle cx="{x(value)}" cy="{y}" r="6" fill="{colour}"/></g>'
        )
    out.append("</svg>")
    return "".join(out)


def _cut(bot: str) -> tuple[str, str]:
    """A bot's name as the plot shows it (its first PLOT_NAME_CHARS characters
    and "..." when longer), and the whole of it."""
    return (bot if len(bot) <= PLOT_NAME_CHARS else bot[: PLOT_NAME_CHARS - 1] + "\u2026"), bot


def _text_width(text: str, size: float) -> float:
    """An upper bound of `text`'s width in pixels at font size `size` in the usual
    sans-serif fonts (DejaVu Sans, Helvetica, Arial): the plot draws names in the
    reader's font, so it cannot measure them."""
    ems = 0.0
    for char in text:
        if char in "mwMW+%@":
            ems += 1.0
        elif char.isupper():
            ems += 0.8
        elif char.isalnum():
            ems += 0.65
        else:
            ems += 0.5
    return ems * size


def _ticks(low: float, high: float) -> list[float]:
    """Round values across [low, high], four to eight of them."""
    span = high - low
    base = 10 ** math.floor(math.log10(span))
    step = base
    for factor in (0.1, 0.2, 0.25, 0.5, 1, 2, 5):
        if span / (base * factor) <= 8:
            step = base * factor
            break
    ticks = []
    value = math.ceil(low / step) * step
    while value <= high:
        ticks.append(round(value, 6) + 0.0)  # + 0.0: no "-0"
        value += step
    return ticks


def _heat(value: float) -> str:
    """Red (0%) through pale (50%) to green (100%)."""
    t = max(0.0, min(1.0, value / 100.0))
    if t < 0.5:
        k = t / 0.5
        r, g, b = 214 + (245 - 214) * k, 96 + (243 - 96) * k, 77 + (236 - 77) * k
    else:
        k = (t - 0.5) / 0.5
        r, g, b = 245 + (74 - 245) * k, 243 + (160 - 243) * k, 236 + (96 - 236) * k
    return f"rgb({r:.0f},{g:.0f},{b:.0f})"


def _heat_map(data: dict[str, Any]) -> str:
    bots = [row["bot"] for row in data["standings"]]
    head = "".join(f"<th>{name(bot)}</th>" for bot in bots)
    rows = []
    for bot in bots:
        cells = []
        for other in bots:
            if other == bot:
                cells.append('<td class="self">&middot;</td>')
                continue
            value = data["crosstable"][bot][other]
            if value is None:
                cells.append("<td>-</td>")
            else:
                cells.append(
                    f'<td data-row="{attribute(bot)}" data-col="{attribute(other)}" '
                    f'data-score="{value}" style="background:{_heat(value)}">{value:.1f}</td>'
                )
        rows.append(f'<tr><th class="bot">{name(bot)}</th>{"".join(cells)}</tr>')
    return (
        '<table class="heat"><thead><tr><th class="bot">score % (row vs column)</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _games(games: Sequence[GameRecord], replay_href: Callable[[GameRecord], str] | None) -> str:
    if not games:
        return '<p class="note">No game finished yet.</p>'
    rows = []
    for game in reversed(games):
        seats = ", ".join(
            f"{name(seat.bot)} {seat.score:g}"
            + (f" ({escape(seat.failure)})" if seat.failure else "")
            for seat in game.seats
        )
        match = escape(game.match_id)
        if replay_href is not None:
            match = f'<a href="{escape(replay_href(game))}">{match}</a>'
        bots = attribute(json.dumps(game.bots))  # the bots seated: a page lists one pair's games
        rows.append(
            f'<tr data-match-id="{attribute(game.match_id)}" data-bots="{bots}">'
            f"<td>{escape(game.key)}</td>"
            f"<td>{match}</td><td>{seats}</td><td>{escape(game.end_reason)}</td>"
            f"<td>{game.duration_seconds:.1f} s</td></tr>"
        )
    return (
        '<table class="games"><thead><tr><th>game</th><th>match</th>'
        "<th>seats: bot score</th><th>end</th><th>time</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
