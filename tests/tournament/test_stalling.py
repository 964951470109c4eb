"""A match that outlasts `match_timeout_seconds` is lost by the seat that held it
up, so that a bot cannot void a game it is losing by answering slowly (each
answer inside its deadline); with no such seat it is not counted, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_runner import HERE, Recorder
from tournament.config import load_config
from tournament.game_play import STALLING_SHARE, MatchOverran
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e


def _cup(tmp_path: Path, bots: str) -> Path:
    path = tmp_path / "cup.toml"
    path.write_text(
        # About 40 decisions a seat: 8 s of the staller's, far past the 2 s allowed.
        f'game = "sheep-n-sheep"\npython_path = ["{HERE}"]\ngames_per_pairing = 1\n'
        "concurrency = 2\ndecision_seconds = 1.0\nmatch_timeout_seconds = 2\nbootstrap = 0\n"
        f"{bots}"
    )
    return path


STALLER = '[[bots]]\nname = "staller"\nclass = "tournament_test_bots:StallingBot"\n'


def test_the_seat_that_held_the_match_up_loses_it(tmp_path: Path) -> None:
    config = load_config(_cup(tmp_path, STALLER + '[[bots]]\nname = "quick"\nbuiltin = "random"\n'))
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == summary.scheduled == 2 and summary.errors == 0, recorder.errors
    with Store(tmp_path / "t.sqlite") as store:
        games = store.games(store.tournament().id)
        assert store.replays() == ()  # no record: the match was not over
    for game in games:
        seats = {seat.bot: seat for seat in game.seats}
        assert (seats["staller"].failure, seats["staller"].rank) == ("slow", 2)
        assert (seats["quick"].failure, seats["quick"].rank) == (None, 1)
        staller_seat = game.bots.index("staller")
        assert game.end_reason.startswith(
            f"match timeout: seat {staller_seat} (staller) was to move for "
        ), game.end_reason
        assert game.end_reason.endswith("of the 2 s a match may take")


def test_a_match_nobody_held_up_is_not_counted(tmp_path: Path) -> None:
    """Two bots as slow as each other share the time: neither is to blame."""
    config = load_config(_cup(tmp_path, STALLER + STALLER.replace('"staller"', '"staller-2"', 1)))
    recorder = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "t.sqlite"), progress=recorder)
    assert summary.played == 0 and summary.errors == 2
    assert all("did not finish within 2.0s" in error for error in recorder.errors)


def test_blame_needs_most_of_the_time() -> None:
    from sheepfold.v1 import arena_pb2

    info = arena_pb2.MatchInfo()
    held = MatchOverran("late", {0: 0.1, 1: STALLING_SHARE * 10 + 0.01}, info)
    assert held.staller(10) == 1
    shared = MatchOverran("late", {0: 4.5, 1: 5.0}, info)
    assert shared.staller(10) is None
    assert MatchOverran("late", {}, info).staller(10) is None
