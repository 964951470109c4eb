"""The HTML report says what its figures are, as the text report does: the page
to publish once showed columns "Elo", "95% interval", "LOS", "OS mu" and an
SPRT's bare "LLR +3.422" with none of the text's notes (which anchor, which
interval, what LOS is, the test's hypotheses and bounds), so a reader could
not tell a significant difference from noise."""

from __future__ import annotations

import html
import re

from tournament.report import report_data
from tournament.report_html import report_fragment, report_page
from tournament.report_layout import render
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], ranks: list[int]) -> GameRecord:
    records = tuple(
        SeatRecord(bot, 10.0 - rank, rank, rank, 0, False, None)
        for bot, rank in zip(seats, ranks, strict=True)
    )
    return GameRecord(f"{seed}:{'|'.join(seats)}", "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _text(page: str) -> str:
    """The page's words as a reader sees them (tags and the plot left out)."""
    page = re.sub(r"<style>.*?</style>|<svg.*?</svg>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _notes(text_report: str) -> list[str]:
    """The text report's notes: its paragraphs between the standings and the crosstable."""
    _, _, body = text_report.split("\n\n", 2)  # title, standings, then the notes
    return [line for line in body.split("\nCrosstable\n", 1)[0].splitlines() if line.strip()]


def test_a_three_player_round_robins_page_carries_every_note_of_the_text() -> None:
    bots = ["a", "b", "c", "d"]
    games = [_game(seed, [bots[(seed + i) % 4] for i in range(3)], [1, 2, 3]) for seed in range(8)]
    games.append(_game(9, ["a", "b", "c"], [1, 1, 3]))
    config = {"bots": [{"name": bot} for bot in bots]}
    record = TournamentRecord(1, "cup", "stubborn-sheep", 3, {}, "a", 9, config, 0.0, 0.0)
    data = report_data(record, games, samples=40)
    notes = _notes(render(data, "text"))
    assert any("Bradley-Terry" in note and "anchored at a = 0" in note for note in notes)
    assert any(note.startswith("OS: OpenSkill") for note in notes)
    page = _text(report_page(data, games))
    for note in notes:
        assert note in page, note
    assert "anchored at a = 0" in _text(report_fragment(data, games))


def test_an_sprts_page_gives_the_tests_hypotheses_bounds_and_estimate() -> None:
    games = []
    for seed in range(1, 7):
        games += [_game(seed, ["new", "old"], [1, 2]), _game(seed, ["old", "new"], [2, 1])]
    sprt = {"candidate": "new", "baseline": "old", "elo0": 0.0, "elo1": 50.0}
    sprt |= {"alpha": 0.05, "beta": 0.05, "max_games": 100}
    config = {
        "schedule": "sprt",
        "seed": 1,
        "sprt": sprt,
        "bots": [{"name": "new"}, {"name": "old"}],
    }
    record = TournamentRecord(1, "t", "sheep-showdown", 2, {}, None, 100, config, 0.0, 0.0)
    data = report_data(record, games, samples=40)
    status = data["sprt"]["status"]
    assert "[elo0 0, elo1 50]" in status and "(-2.944, +2.944)" in status
    assert status in _text(report_page(data, games))
