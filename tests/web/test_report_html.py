"""The HTML tournament report on its own: solo standings and a 3-player
tournament's extra rating columns come through, and nothing in it runs or
loads anything."""

from __future__ import annotations

import re

from tournament.report import report_data
from tournament.report_html import report_page
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def record(players: int, bots: list[str]) -> TournamentRecord:
    return TournamentRecord(
        id=1, name="t", game="sheep-and-garden", players=players, options={}, anchor=None,
        scheduled=6, config={"bots": [{"name": b} for b in bots]}, created_at=0.0,
        updated_at=0.0,
    )  # fmt: skip


def game(key: str, seed: int, seats: list[tuple[str, float, int]]) -> GameRecord:
    return GameRecord(
        key=key, match_id=f"m{key}", seed=seed, group=0, rotation=0,
        seats=tuple(SeatRecord(b, s, r, r, 0, False, None) for b, s, r in seats),
        end_reason="game over", details_json="{}", duration_seconds=1.0, finished_at=1.0,
    )  # fmt: skip


def test_solo_report_plots_mean_scores_with_intervals() -> None:
    games = [
        game(f"{bot}-{seed}", seed, [(bot, score + seed, 1)])
        for seed in (1, 2, 3)
        for bot, score in (("greedy", 30.0), ("random", 10.0))
    ]
    data = report_data(record(1, ["greedy", "random"]), games, samples=50)
    html = report_page(data, games)
    for row in data["standings"]:
        tag = re.search(rf'<g class="interval" data-bot="{row["bot"]}"[^>]*>', html)
        assert tag, row["bot"]
        assert f'data-value="{row["mean_score"]}"' in tag.group(0)
        assert f'data-low="{row["mean_score_low"]}"' in tag.group(0)
    assert "mean score, 95% interval" in html and 'class="heat"' not in html
    assert "<script" not in html


def test_columns_added_to_the_report_show_in_the_html() -> None:
    bots = ["a", "b", "c"]
    games = [
        game(f"g{seed}", seed, [(bots[(seed + i) % 3], 10.0 - i, i + 1) for i in range(3)])
        for seed in range(6)
    ]
    data = report_data(record(3, bots), games, samples=50)
    html = report_page(data, games)
    assert data.get("openskill"), "3-player reports carry OpenSkill ratings"
    assert "OS mu" in html and html.count('<tr data-bot="') == 3


def test_text_from_the_database_is_escaped() -> None:
    """A bot's failure (its own error text, stored as it was) is shown as text:
    the web page sets the report with innerHTML, so markup in it would run."""
    hostile = '<img src=x onerror="alert(1)">'
    played = GameRecord(
        key="<b>k</b>", match_id="m<1>", seed=1, group=0, rotation=0,
        seats=(
            SeatRecord("a<i>", 1.0, 1, 1, 0, False, hostile),
            SeatRecord("b", 0.0, 2, 2, 0, True, hostile),
        ),
        end_reason="<script>x</script>", details_json="{}", duration_seconds=1.0,
        finished_at=1.0,
    )  # fmt: skip
    games = [played]
    data = report_data(record(2, ["a<i>", "b"]), games, samples=20)
    html = report_page(data, games)
    assert "<img" not in html and "<script>" not in html and "<b>" not in html
    assert "<i>" not in html and "m<1>" not in html
    assert "(&lt;img src=x onerror=&quot;alert(1)&quot;&gt;)" in html
