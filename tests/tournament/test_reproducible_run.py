"""A tournament played twice from one config, into two databases, with
`secret_deals = false`: the same games (deals, seats, scores, ranks) and the
same report, ratings and intervals included. docs/tournament.md ("Deals")
promises it; nothing ran a tournament twice to check it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tournament.config import load_config
from tournament.progress import SilentProgress
from tournament.report import report
from tournament.runner import run_tournament

CONFIG = """\
name = "again"
game = "sheep-showdown"
players = 2
games_per_pairing = 2
seed = 7
secret_deals = false
concurrency = 2
bootstrap = 50
[options]
rounds = 1
[[bots]]
name = "r1"
builtin = "random"
[[bots]]
name = "r2"
builtin = "random"
"""


def _games(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT g.key, g.seed, s.seat, s.bot, s.score, s.rank FROM games g"
            " JOIN game_seats s ON s.game_id = g.id ORDER BY g.key, s.seat"
        ).fetchall()


@pytest.mark.e2e
def test_one_config_without_secret_deals_plays_the_same_games_and_ratings(
    tmp_path: Path,
) -> None:
    (tmp_path / "again.toml").write_text(CONFIG)
    dbs = [tmp_path / "one.sqlite", tmp_path / "two.sqlite"]
    for db in dbs:
        config = load_config(tmp_path / "again.toml")
        assert run_tournament(config, database=str(db), progress=SilentProgress()).played == 4
    first, second = (_games(db) for db in dbs)
    assert len(first) == 8 and first == second
    assert [key for key, *_ in first[::2]] == ["7:r1|r2", "7:r2|r1", "8:r1|r2", "8:r2|r1"]
    one, two = (json.loads(report(db, "json")) for db in dbs)
    assert one["standings"] == two["standings"] and one["crosstable"] == two["crosstable"]
