"""A game the server fails with a code that says nothing of the server's state
(INTERNAL: a fault in that match alone; not a fatal refusal, not a call cut
short or timed out) is counted as not played at once: the runner does not ask
the server whether it answers (ListGames) or is SERVING, and does not play the
game again. Only UNAVAILABLE, CANCELLED and DEADLINE_EXCEEDED send the runner
to those checks (test_server_hiccups, test_cancelled_calls)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from tests.tournament.cancelling_server import cancelling
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament.runner import run_tournament, schedule_for

# What the runner asks a server whose call failed, to see that it answers.
ANSWER_CHECK = "/sheepfold.v1.Arena/ListGames"


def test_a_game_failed_internal_is_not_played_and_the_server_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = cancelling(
        monkeypatch, "/sheepfold.v1.Arena/CreateMatch", None, code=grpc.StatusCode.INTERNAL
    )
    # A check that the server answers, were one made, is cancelled (and counted).
    answer_check = cancelling(monkeypatch, ANSWER_CHECK, None)
    config = quick_cup(tmp_path, 1, concurrency=1)
    games = len(schedule_for(config))
    progress = Recorder()
    summary = run_tournament(config, database=str(tmp_path / "cup.sqlite"), progress=progress)
    assert failing.cancelled == games  # one try a game, none played again
    assert answer_check.cancelled == 0
    assert summary.errors == games and progress.keys == []
    assert all(error.endswith("INTERNAL: failed") for error in progress.errors), progress.errors
    assert not any("answers again" in note for note in progress.notes), progress.notes
