"""A server that fails every game's call (CANCELLED) while its health says
SERVING cannot keep a local run going for ever: each game is tried
MAX_HICCUPS times in all, then counted as not played (a resume plays it). A
call that only timed out on a server that answers is not tried again at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.cancelling_server import cancelling
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import game_play
from tournament.runner import run_tournament, schedule_for
from tournament.server_check import MAX_HICCUPS

pytestmark = pytest.mark.e2e

CREATE_MATCH = "/sheepfold.v1.Arena/CreateMatch"


def test_a_game_a_healthy_server_keeps_failing_is_tried_max_hiccups_times_in_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fault = cancelling(monkeypatch, CREATE_MATCH, times=None)
    config = quick_cup(tmp_path, 1, concurrency=1)
    games = len(schedule_for(config))
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert (summary.played, summary.errors, len(progress.errors)) == (0, games, games)
    assert MAX_HICCUPS == 3 and fault.cancelled == games * MAX_HICCUPS
    assert all("CANCELLED: Cancelled by the server" in error for error in progress.errors)


def test_a_game_whose_call_timed_out_on_a_server_that_answers_is_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the game's call was slow (DEADLINE_EXCEEDED; the server answers
    the check after it): the game is counted as not played at once, not
    played again, which would wait out the call's deadline MAX_HICCUPS times."""
    monkeypatch.setattr(game_play, "RPC_SECONDS", 0.5)
    fault = cancelling(monkeypatch, CREATE_MATCH, times=None, delay=1.5)
    config = quick_cup(tmp_path, 1, concurrency=1)
    games = len(schedule_for(config))
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert (summary.played, summary.errors, fault.cancelled) == (0, games, games)
    assert all(": DEADLINE_EXCEEDED: " in error for error in progress.errors), progress.errors
    assert not [note for note in progress.notes if "answers again" in note], progress.notes
