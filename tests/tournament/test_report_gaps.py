"""What a report says where it knows little: bots without a stored game, no
bootstrap samples, a solo header."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from tests.tournament.stored_records import finished_record, two_seat_record
from tournament.outcome import game_record
from tournament.report import report
from tournament.report_layout import _percent
from tournament.schedule import ScheduledGame, make_schedule
from tournament.store import GameRecord, Store


def _played(scheduled: ScheduledGame) -> GameRecord:
    """Seat order decides: the first seat wins, except that "c" always loses."""
    return two_seat_record(scheduled, first_wins="c" not in scheduled.seats[:1])


def _database(
    tmp_path: Path, field: list[str], played: list[str], anchor: str | None = None
) -> Path:
    """A 2-player tournament whose config lists `field`; only `played` have games."""
    schedule = make_schedule(played, 2, 3, 1) if len(played) > 1 else ()
    db = tmp_path / "t.sqlite"
    config = {"bots": [{"name": bot, "builtin": "random"} for bot in field], "bootstrap": 100}
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, anchor, 24, config)
        for scheduled in schedule:
            store.record_game(tid, _played(scheduled))
    return db


def test_a_tournament_without_a_stored_game_claims_no_rating(tmp_path: Path) -> None:
    """Interrupted before its first game, the report said "+0 [+0, +0]" for every
    bot: certainty from no game at all. A bot without a game has no rating."""
    db = _database(tmp_path, ["random", "greedy"], [], anchor="random")
    data = json.loads(report(db, "json"))
    for row in data["standings"]:
        assert (row["elo"], row["elo_low"], row["elo_high"], row["los_next"]) == (None,) * 4
        assert row["rank"] is None and row["games"] == 0
    assert data["bots_without_games"] == ["random", "greedy"]
    text = report(db, "text")
    assert "[+0, +0]" not in text and "+0" not in text
    assert "No game stored for random, greedy" in text
    assert "mean 0 (the anchor random has no game stored)" in text
    rows = report(db, "csv").splitlines()
    header = rows[0].split(",")
    for line in rows[1:3]:
        cells = dict(zip(header, line.split(","), strict=True))
        assert cells["elo"] == cells["elo_low"] == cells["elo_high"] == ""
    html = report(db, "html")
    assert "data-elo" not in html and "[+0, +0]" not in html


def test_a_bot_added_to_the_field_is_listed_unrated_and_moves_no_rating(tmp_path: Path) -> None:
    """A bot new to a ladder had no row at all until it played; now it is listed
    without a rating, and the others keep the ratings they had without it."""
    before = json.loads(report(_database(tmp_path / "1", ["a", "b", "c"], ["a", "b", "c"]), "json"))
    grown = _database(tmp_path / "2", ["a", "b", "c", "new"], ["a", "b", "c"])
    after = json.loads(report(grown, "json"))
    rows = {row["bot"]: row for row in after["standings"]}
    assert [row["bot"] for row in after["standings"]][-1] == "new"
    assert rows["new"]["rank"] is None and rows["new"]["elo"] is None
    assert rows["new"]["elo_low"] is None and rows["new"]["elo_high"] is None
    assert after["bots_without_games"] == ["new"]
    for row in before["standings"]:
        assert {k: rows[row["bot"]][k] for k in row} == row, "the mean-0 anchor ignores new"
    text = report(grown, "text")
    assert "No game stored for new" in text
    line = next(line for line in text.splitlines() if line.split()[1:2] == ["new"])
    assert line.split()[:5] == ["-", "new", "-", "-", "-"]
    with pytest.raises(ValueError, match="'new' has no game stored"):
        report(grown, "json", anchor="new")


def test_without_bootstrap_samples_the_report_names_the_normal_interval(tmp_path: Path) -> None:
    """--bootstrap 0 still said "bootstrap over games (0 samples)"."""
    db = _database(tmp_path, ["a", "b", "c"], ["a", "b", "c"])
    text = report(db, "text", samples=0)
    assert "0 samples" not in text and "bootstrap over" not in text
    assert "95% interval: the fit's normal approximation" in text
    rows = json.loads(report(db, "json", samples=0))["standings"]
    assert all(row["elo_low"] < row["elo"] < row["elo_high"] for row in rows)
    assert "bootstrap over deals (100 samples)" in report(db, "text")


def test_a_solo_report_header_says_1_player(tmp_path: Path) -> None:
    schedule = make_schedule(["a", "b"], 1, 2, 1)
    db = tmp_path / "solo.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("solo", "stubborn-sheep", 1, {}, None, len(schedule), {})
        for scheduled in schedule:
            store.record_game(
                tid,
                finished_record(scheduled, [5.0], [1]),
            )
    header = "solo: stubborn-sheep, 1 player, options bonus_actions=false, wolf=false, 4/4 games"
    assert report(db, "text").splitlines()[0] == header
    assert report(db, "markdown").splitlines()[0] == f"## {header}"
    # No Elo to anchor: `--anchor` is refused, not silently ignored.
    for anchor in ("a", "mean"):
        with pytest.raises(ValueError, match="solo tournaments have no Elo to anchor"):
            report(db, "text", anchor=anchor)


def test_a_bot_that_held_its_matches_up_shows_them_failed(tmp_path: Path) -> None:
    """A bot that lost every game by holding the match up once read timeouts 0,
    DQ 0, crashes 0 in the text and markdown tables; only CSV had forfeits."""
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    db = tmp_path / "slow.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        for scheduled in schedule:
            seat = scheduled.seats.index("b")
            store.record_game(
                tid,
                game_record(
                    scheduled, "m", [5.0, 5.0], [1, 1], [0, 0], [False, False], {},
                    "over", "{}", 0.1, 1.0, True, slow={seat: "held the match up"},
                ),
            )  # fmt: skip
    lines = report(db, "text").splitlines()
    header = next(line for line in lines if "crashes" in line).split()
    row_b = next(line for line in lines if line.split()[1:2] == ["b"]).split()
    assert header[-1] == "failed" and row_b[-4:] == ["0", "0", "0", "4"], lines
    assert "| 4 |" in next(line for line in report(db, "markdown").splitlines() if "| b " in line)


def test_likelihood_of_superiority_never_reads_certain(tmp_path: Path) -> None:
    """A bot that beat the last one in every resample had LOS "100%": a share of
    bootstrap samples, not certainty. b beat c in all their 6 games, so every
    refit agrees; its LOS is the fit's normal approximation, under 1."""
    db = _database(tmp_path, ["a", "b", "c"], ["a", "b", "c"])
    data = json.loads(report(db, "json"))
    above_c = next(row for row in data["standings"] if row["bot"] == "b")
    assert 0.9 < above_c["los_next"] < 1.0
    for style in ("text", "markdown"):
        line = next(line for line in report(db, style).splitlines() if " b " in f" {line} ")
        assert "99%" in line and "100%" not in line, line


@pytest.mark.parametrize(
    ("likelihood", "shown"),
    [(0.0, "< 1%"), (0.005, "< 1%"), (0.006, "1%"), (0.5, "50%"), (0.994, "99%"), (1.0, "> 99%")],
)
def test_likelihood_of_superiority_reads_as_a_rounded_share(likelihood: float, shown: str) -> None:
    """5 resamples of 1,000 (0.005) read "0%" at first: the ends go by the rounded figure."""
    assert _percent(likelihood) == shown


def test_a_rating_of_zero_is_never_minus_zero(tmp_path: Path) -> None:
    """g beats everyone and r1 beats r2: r1 is at the mean, 0 up to the fit's
    rounding (-1e-14), which JSON and CSV printed as -0.0."""
    order = ["g", "r1", "r2"]
    db = tmp_path / "t.sqlite"
    config = {"bots": [{"name": bot, "builtin": "random"} for bot in order], "bootstrap": 100}
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, 18, config)
        for scheduled in make_schedule(order, 2, 3, 1):
            first = order.index(scheduled.seats[0]) < order.index(scheduled.seats[1])
            won = _played(scheduled)
            ranks = (1, 2) if first else (2, 1)
            seats = tuple(
                dataclasses.replace(seat, rank=rank, server_rank=rank)
                for seat, rank in zip(won.seats, ranks, strict=True)
            )
            store.record_game(tid, dataclasses.replace(won, seats=seats))
    data = json.loads(report(db, "json"))
    middle = next(row for row in data["standings"] if row["bot"] == "r1")
    assert middle["elo"] == 0.0 and math.copysign(1.0, middle["elo"]) == 1.0
    assert "-0.0" not in report(db, "json") and "-0.0" not in report(db, "csv")


def _solo_scores(tmp_path: Path, game: str, scores: dict[str, list[float]]) -> dict[str, dict]:
    """The JSON report's rows of a solo tournament of `game` whose bots scored
    `scores` (one a deal, from seed 1)."""
    schedule = make_schedule(list(scores), 1, len(next(iter(scores.values()))), 1)
    db = tmp_path / f"{game}.sqlite"
    with Store(db) as store:
        tid = store.open_tournament("solo", game, 1, {}, None, len(schedule), {})
        for scheduled in schedule:
            (bot,) = scheduled.seats
            score = scores[bot][scheduled.seed - 1]
            record = finished_record(scheduled, [score], [1])
            store.record_game(tid, record)
    return {row["bot"]: row for row in json.loads(report(db, "json"))["standings"]}


def test_a_mean_scores_interval_never_reaches_below_the_lowest_possible_score(
    tmp_path: Path,
) -> None:
    """Stubborn Sheep counts scored sheep, so no game ends below 0; Student's t
    on two games of 0 and 12 gave the mean 6 an interval of -70.2 to 82.2, and
    the text report printed "[-70.2, 82.2]"."""
    rows = _solo_scores(tmp_path, "stubborn-sheep", {"a": [0.0, 12.0], "b": [5.0, 7.0]})
    assert rows["a"]["mean_score"] == 6.0
    assert rows["a"]["mean_score_low"] == 0.0
    assert rows["a"]["mean_score_high"] == pytest.approx(82.24, abs=0.01)  # no highest score
    assert rows["b"]["mean_score_low"] == 0.0  # 5 and 7: -6.7 to 18.7
    # A Sheep and Garden solo score is the lead over the "enemy": below 0 is a score.
    garden = _solo_scores(tmp_path, "sheep-and-garden", {"a": [0.0, 12.0], "b": [5.0, 7.0]})
    assert garden["a"]["mean_score_low"] == pytest.approx(-70.24, abs=0.01)


def test_the_text_report_shows_the_interval_from_the_lowest_possible_score(
    tmp_path: Path,
) -> None:
    _solo_scores(tmp_path, "stubborn-sheep", {"a": [0.0, 12.0]})
    text = report(tmp_path / "stubborn-sheep.sqlite", "text")
    assert "[0.0, 82.2]" in text and "-70.2" not in text, text
