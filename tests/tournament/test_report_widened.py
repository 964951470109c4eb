"""The report says which Elo intervals are the bootstrap's and which were
widened to the fit's normal approximation. A real round robin (mcts, greedy
and two random bots, 6 deals a pair) widened greedy's interval, a record of
26 wins and 10 losses, while the note said the widening was for "a perfect
record": a reader took [+50, +454] for bootstrap percentiles."""

from __future__ import annotations

import json

from tests.tournament.test_report_ties import _game, _record, _won
from tournament.report import report_data
from tournament.report_layout import render
from tournament.store import GameRecord


def _split(seed: int, a: str, b: str) -> list[GameRecord]:
    """A deal's seat-swapped pair, each bot winning one game."""
    return [_game(seed, [a, b], [5.0, 1.0], [1, 2]), _game(seed, [b, a], [5.0, 1.0], [1, 2])]


def _round_robin() -> list[GameRecord]:
    """That round robin's results: mcts beat greedy on 4 deals and split 2; both
    won every game against the random bots, which split their 6 deals."""
    plan = [("won", "mcts", "greedy")] * 4 + [("split", "mcts", "greedy")] * 2
    plan += [("won", a, b) for a in ("mcts", "greedy") for b in ("r1", "r2")] * 6
    plan += [("split", "r1", "r2")] * 6
    games = []
    for seed, (kind, a, b) in enumerate(plan, start=1):
        games += _won(seed, a, b) if kind == "won" else _split(seed, a, b)
    return games


def test_a_widened_interval_is_marked_and_explained() -> None:
    games = _round_robin()
    data = report_data(_record(2, ["r1", "greedy", "mcts", "r2"], len(games)), games)
    rows = {row["bot"]: row for row in data["standings"]}
    assert (rows["greedy"]["wins"], rows["greedy"]["losses"]) == (26, 10)
    assert rows["greedy"]["elo_interval_widened"] is True
    assert rows["mcts"]["elo_interval_widened"] is False
    text = render(data, "text")
    greedy = next(line for line in text.splitlines() if " greedy " in line)
    mcts = next(line for line in text.splitlines() if " mcts " in line)
    assert "[+50, +454]*" in greedy and "]*" not in mcts
    assert "*: widened to the fit's normal approximation" in text
    assert "(a perfect record)" not in text
    assert json.loads(render(data, "json"))["standings"][1]["elo_interval_widened"] is True


def test_without_bootstrap_samples_nothing_is_marked() -> None:
    """With --bootstrap 0 every interval is the normal approximation, which the
    note says once: a mark on every row would add nothing."""
    games = _round_robin()
    data = report_data(_record(2, ["r1", "greedy", "mcts", "r2"], len(games)), games, samples=0)
    text = render(data, "text")
    assert "]*" not in text and "*:" not in text
    assert "95% interval: the fit's normal approximation" in text
