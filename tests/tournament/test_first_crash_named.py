"""A bot that crashed in every game is named at the run's end with its first
crash (as the docs say: "its first error"), not its last: a bot whose error
changes from game to game is reported as it first failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.quick_cup import Recorder
from tests.tournament.test_runner import HERE
from tournament.config import load_config
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e


def test_a_bot_that_always_crashed_is_named_with_its_first_crash(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(
        f'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\npython_path = ["{HERE}"]\n'
        "games_per_pairing = 2\nconcurrency = 1\nbootstrap = 0\n[options]\nrounds = 1\n"
        '[[bots]]\nname = "broken"\nclass = "tournament_test_bots:CrashCountingBot"\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
    )
    summary = run_tournament(
        load_config(path), database=str(tmp_path / "cup.sqlite"), progress=Recorder()
    )
    assert summary.played == summary.scheduled == 4
    with Store(tmp_path / "cup.sqlite") as store:
        games = store.games(store.tournament("cup").id)  # in the order they were stored
    crashes = [
        json.loads(game.details_json)["crashes"][str(game.bots.index("broken"))] for game in games
    ]
    assert len(set(crashes)) == 4, crashes  # each game's crash says which it was
    ((bot, count, reason),) = [(c.bot, c.games, c.reason) for c in summary.always_crashed]
    assert (bot, count) == ("broken", 4)
    assert reason == crashes[0], (reason, crashes)
