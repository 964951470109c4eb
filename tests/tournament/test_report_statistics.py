"""The report's statistics checked against figures computed independently."""

from __future__ import annotations

from tournament.report import report_data
from tournament.store import GameRecord, SeatRecord, TournamentRecord


def _game(seed: int, seats: list[str], winner: str) -> GameRecord:
    records = tuple(
        SeatRecord(bot, 1.0 if bot == winner else 0.0, 1 if bot == winner else 2, 1, 0, False, None)
        for bot in seats
    )
    key = f"{seed}:{'|'.join(seats)}"
    return GameRecord(key, "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def _record(games: int) -> TournamentRecord:
    config = {"bots": [{"name": "a"}, {"name": "b"}]}
    return TournamentRecord(1, "t", "sheep-n-sheep", 2, {}, None, games, config, 0.0, 0.0)


def _width(winners: list[tuple[str, str]]) -> float:
    """The width of a's Elo interval when deal i's two seat-swapped games are
    won by winners[i] (first game a-b, second b-a)."""
    games = [
        game
        for seed, (first, second) in enumerate(winners)
        for game in (_game(seed, ["a", "b"], first), _game(seed, ["b", "a"], second))
    ]
    data = report_data(_record(len(games)), games, samples=2000)
    (row,) = [row for row in data["standings"] if row["bot"] == "a"]
    return float(row["elo_high"] - row["elo_low"])


def test_the_bootstrap_resamples_deals_not_the_games_of_one_deal() -> None:
    """The two games of a deal share it and are not independent. Here one bot
    wins both games of each deal (10 deals each): 20 deals of information, not
    40 games, so the interval must be about sqrt(2) times as wide as for the same
    40 games split 1-1 on every deal (where each deal scores exactly 1/2).
    Resampling single games gave both the same width."""
    together = _width([("a", "a")] * 10 + [("b", "b")] * 10)
    split = _width([("a", "b")] * 10 + [("b", "a")] * 10)
    assert together > 1.25 * split, (together, split)


def _seated(seed: int, seats: list[tuple[str, float, int, str | None]]) -> GameRecord:
    records = tuple(SeatRecord(b, s, r, r, 0, False, f) for b, s, r, f in seats)
    key = f"{seed}:{'|'.join(seat[0] for seat in seats)}"
    return GameRecord(key, "m", seed, 0, 0, records, "done", "{}", 1.0, 0.0)


def test_a_three_player_reports_pairs_add_up_as_the_docs_say() -> None:
    """W + D + L = (k - 1) x games, score % = (W + D/2) / (W + D + L); a crash is
    counted once, its seat ranked last at the table's lowest score; a bot of
    the config that never played has no figures."""
    games = [
        _seated(1, [("a", 5, 1, None), ("b", 5, 1, None), ("c", 2, 3, None)]),
        _seated(2, [("b", 1, 3, "crash"), ("c", 4, 2, None), ("a", 9, 1, None)]),
        _seated(3, [("c", 3, 1, None), ("a", 3, 1, None), ("b", 3, 1, None)]),
    ]
    config = {"bots": [{"name": bot} for bot in "abcd"]}
    record = TournamentRecord(1, "t", "sheep-showdown", 3, {}, None, 12, config, 0.0, 0.0)
    data = report_data(record, games, samples=20)
    rows = {row["bot"]: row for row in data["standings"]}
    for bot in "abc":
        row = rows[bot]
        assert row["wins"] + row["draws"] + row["losses"] == 2 * row["games"] == 6
        pct = 100 * (row["wins"] + row["draws"] / 2) / 6
        assert row["score_pct"] == round(pct, 1)
    assert (rows["a"]["wins"], rows["a"]["draws"], rows["a"]["losses"]) == (3, 3, 0)
    assert (rows["b"]["crashes"], rows["b"]["forfeits"], rows["b"]["losses"]) == (1, 1, 2)
    assert rows["b"]["mean_score"] == 3.0  # (5 + 1 + 3) / 3: the crash counts the table's 1
    assert rows["d"]["games"] == 0 and rows["d"]["elo"] is None and rows["d"]["rank"] is None
    assert rows["d"]["openskill_mu"] is None and data["bots_without_games"] == ["d"]
    assert sum(rows[bot]["wins"] for bot in "abc") == sum(rows[bot]["losses"] for bot in "abc")


def test_the_bootstrap_does_not_depend_on_the_order_games_finished_in() -> None:
    """The store reads games back in the order they were stored, which is the
    order they finished in; the report's intervals must be the same either way
    (deals are resampled in the order of their games' keys)."""
    winners = [("a", "a"), ("a", "b"), ("b", "b"), ("a", "a"), ("b", "a"), ("a", "a")]
    games = [
        game
        for seed, (first, second) in enumerate(winners)
        for game in (_game(seed, ["a", "b"], first), _game(seed, ["b", "a"], second))
    ]
    in_order = report_data(_record(len(games)), games, samples=200)
    reversed_order = report_data(_record(len(games)), games[::-1], samples=200)
    assert in_order["standings"] == reversed_order["standings"]
    (a,) = [row for row in in_order["standings"] if row["bot"] == "a"]
    assert a["elo_low"] < a["elo"] < a["elo_high"], "a bootstrap interval of real width"
