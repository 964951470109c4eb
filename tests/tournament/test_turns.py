"""No bot plays two games of one deal at the same time: two copies of a bot
playing the same deal from different seats could tell each other their hands
through the kernel they share. Games of other deals still run side by side."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.tournament.test_runner import HERE
from tournament.config import load_config
from tournament.runner import run_tournament
from tournament.schedule import make_schedule
from tournament.store import Store
from tournament.turns import DealTurns


def test_a_game_waits_while_one_of_its_bots_plays_its_deal() -> None:
    schedule = make_schedule(["a", "b"], 2, games_per_pairing=2, base_seed=1)
    assert [g.key for g in schedule] == ["1:a|b", "1:b|a", "2:a|b", "2:b|a"]
    turns = DealTurns(schedule)
    first, second = turns.take(), turns.take()
    assert first is not None and second is not None
    assert (first.key, second.key) == ("1:a|b", "2:a|b")  # 1:b|a waits for its twin
    assert turns.take() is None and turns.left == 2
    turns.done(second)
    third = turns.take()
    assert third is not None and third.key == "2:b|a"
    turns.done(first)
    fourth = turns.take()
    assert fourth is not None and fourth.key == "1:b|a"
    assert turns.take() is None and turns.left == 0


def test_other_bots_and_other_deals_do_not_wait() -> None:
    solo = make_schedule(["a", "b", "c"], 1, games_per_pairing=1, base_seed=5)
    turns = DealTurns(solo)
    assert [getattr(turns.take(), "key", None) for _ in range(4)] == ["5:a", "5:b", "5:c", None]
    field = make_schedule(["a", "b", "c", "d"], 2, games_per_pairing=1, base_seed=1)
    turns = DealTurns(field)
    one, other = turns.take(), turns.take()
    assert one is not None and other is not None
    assert not set(one.seats) & set(other.seats)  # the same deal, but no bot in both
    assert turns.take() is None  # every other game of deal 1 has a bot now playing it


@pytest.mark.e2e
def test_in_a_real_run_twins_follow_each_other_and_other_deals_overlap(tmp_path: Path) -> None:
    config_path = tmp_path / "cup.toml"
    config_path.write_text(
        f'game = "sheep-showdown"\npython_path = ["{HERE}"]\ngames_per_pairing = 3\n'
        "concurrency = 4\nbootstrap = 0\n[options]\nrounds = 1\n"
        '[[bots]]\nname = "slow"\nclass = "tournament_test_bots:SlowBot"\n'
        '[[bots]]\nname = "quick"\nbuiltin = "random"\n'
    )
    summary = run_tournament(load_config(config_path), database=str(tmp_path / "t.sqlite"))
    assert summary.played == 6
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
    spans = {g.key: (g.finished_at - g.duration_seconds, g.finished_at) for g in games}

    def overlap(one: str, other: str) -> bool:
        (start, end), (start2, end2) = spans[one], spans[other]
        return start < end2 - 0.05 and start2 < end - 0.05

    for deal in (1, 2, 3):
        assert not overlap(f"{deal}:slow|quick", f"{deal}:quick|slow"), spans
    assert any(overlap(a, b) for a, b in itertools.combinations(spans, 2)), spans
