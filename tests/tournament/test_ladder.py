"""A ladder that grows: adding a bot plays only its games; removing one takes its
games out of the ratings. Also the gauntlet schedule."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.tournament.tournament_command import tournament_main
from tournament.config import ConfigError, load_config
from tournament.progress import SilentProgress
from tournament.report import report
from tournament.runner import run_tournament
from tournament.schedule import ladder_schedule, make_schedule
from tournament.store import GameRecord

BOTS = ["a", "b", "c", "d", "e", "f", "g", "h"]


class Recorder(SilentProgress):
    def __init__(self) -> None:
        self.keys: list[str] = []

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.keys.append(game.key)

    def game_error(self, key: str, error: str) -> None:
        raise AssertionError(f"{key}: {error}")


def test_a_grown_balanced_design_keeps_the_old_groups_and_adds_only_the_newcomers() -> None:
    old = make_schedule(BOTS, 4, 2, 1, max_groups=16)
    grown = ladder_schedule([BOTS, [*BOTS, "new"]], 4, 2, 1, max_groups=16)
    old_keys = {game.key for game in old}
    added = [game for game in grown if game.key not in old_keys]
    assert old_keys <= {game.key for game in grown}
    assert added and all("new" in game.seats for game in added)
    # the newcomer plays about as many games as an old bot did
    per_old_bot = sum("a" in game.seats for game in old)
    assert 0.5 * per_old_bot <= len(added) <= 1.5 * per_old_bot
    # a fresh design of 9 bots would have replayed old bots against each other
    fresh = make_schedule([*BOTS, "new"], 4, 2, 1, max_groups=16)
    assert any("new" not in game.seats and game.key not in old_keys for game in fresh)


def test_with_every_group_the_grown_ladder_is_the_plain_schedule() -> None:
    stages = [BOTS[:3], BOTS[:5], BOTS[1:5]]  # two added, then "a" removed
    grown = ladder_schedule(stages, 2, 2, 7)
    assert sorted(g.key for g in grown) == sorted(g.key for g in make_schedule(BOTS[1:5], 2, 2, 7))


def test_gauntlet_candidates_meet_only_the_field() -> None:
    games = make_schedule(BOTS[:5], 3, 1, 1, candidates=["a", "b"])
    assert games
    for game in games:
        assert len({"a", "b"} & set(game.seats)) == 1
    # each candidate sits with every pair of the 3 others, in 3 rotations of
    # the pair's seat order and 3 of the reversed one
    assert sum("a" in game.seats for game in games) == 3 * 3 * 2


def test_a_gauntlet_designs_the_fields_subsets_only_from_four_players() -> None:
    """At 3 players a candidate meets pairs of the field, and pairs, as in a
    2-player round robin, are never cut to a design: every pair is played past
    `max_groups` (docs/tournament.md once said otherwise). From 4 players the
    field's (k-1)-subsets past `max_groups` are a balanced design, per candidate."""
    field = [f"f{i}" for i in range(12)]
    three = make_schedule(["cand", *field], 3, 1, 1, max_groups=10, candidates=["cand"])
    assert {frozenset(game.seats) - {"cand"} for game in three} == {
        frozenset(pair) for pair in itertools.combinations(field, 2)
    }
    four = make_schedule(["cand", *field], 4, 1, 1, max_groups=10, candidates=["cand"])
    assert len({frozenset(game.seats) for game in four}) == 12  # 10 rounded up to 12 bots


def _config(tmp_path: Path, bots: list[str], extra: str = "") -> Path:
    path = tmp_path / "ladder.toml"
    path.write_text(
        'game = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 1\nconcurrency = 2\n'
        f"bootstrap = 50\n{extra}[options]\nrounds = 1\n"
        + "".join(f'[[bots]]\nname = "{bot}"\nbuiltin = "random"\n' for bot in bots)
    )
    return path


@pytest.mark.e2e
def test_adding_a_bot_plays_only_its_games_and_removing_one_drops_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "ladder.sqlite")
    first = Recorder()
    run_tournament(load_config(_config(tmp_path, ["a", "b", "c"])), database=db, progress=first)
    assert len(first.keys) == 6  # 3 pairs, seats swapped

    second = Recorder()
    summary = run_tournament(
        load_config(_config(tmp_path, ["a", "b", "c", "new"])), database=db, progress=second
    )
    assert len(second.keys) == 6 and all("new" in key for key in second.keys)
    assert summary.already_done == 6 and summary.scheduled == 12

    third = Recorder()
    config = load_config(_config(tmp_path, ["b", "c", "new"]))
    assert run_tournament(config, database=db, progress=third).played == 0
    data = json.loads(report(db, "json"))
    assert {row["bot"] for row in data["standings"]} == {"b", "c", "new"}
    assert data["removed_bots"] == ["a"] and data["removed_games_left_out"] == 6
    assert data["games_played"] == 6 and all(row["games"] == 4 for row in data["standings"])
    assert "are left out (--include-removed counts them)" in report(db, "text")

    capsys.readouterr()
    assert tournament_main(["report", "--db", db, "--format", "json", "--include-removed"]) == 0
    everything = json.loads(capsys.readouterr().out)
    assert everything["removed_games_left_out"] == 0
    # counted again, but outside the schedule (without a): not in "played/scheduled"
    assert (everything["games_played"], everything["games_outside_schedule"]) == (6, 6)
    assert "a" in {row["bot"] for row in everything["standings"]}


@pytest.mark.e2e
def test_a_gauntlet_run_plays_the_candidate_against_the_field_only(tmp_path: Path) -> None:
    path = _config(tmp_path, ["cand", "x", "y"], 'schedule = "gauntlet"\ncandidates = ["cand"]\n')
    recorder = Recorder()
    run_tournament(load_config(path), database=str(tmp_path / "g.sqlite"), progress=recorder)
    assert sorted(recorder.keys) == ["1:cand|x", "1:cand|y", "1:x|cand", "1:y|cand"]


def test_gauntlet_config_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="candidates: is required"):
        load_config(_config(tmp_path, ["a", "b"], 'schedule = "gauntlet"\n'))
    with pytest.raises(ConfigError, match="'zed' is not the name"):
        load_config(_config(tmp_path, ["a", "b"], 'schedule = "gauntlet"\ncandidates = ["zed"]\n'))
    with pytest.raises(ConfigError, match="schedule: must be one of"):
        load_config(_config(tmp_path, ["a", "b"], 'schedule = "swiss"\n'))
