"""A match the game server aborted (it was playing when the server stopped and
could not be resumed): over, with no result, and every answer of the viewer
says so alike."""

from __future__ import annotations

import json
from typing import Any

import pytest

import games
from tests.web.conftest import ABORTED_REASON, AbortedMatches
from tests.web.test_http import _replay, get

pytestmark = pytest.mark.e2e


def _is_aborted(url: str, match_id: str, reason: str) -> None:
    """What the viewer already said of it: over, without a result, and why."""
    status, _, body = get(f"{url}/api/match/{match_id}")
    info = json.loads(body)
    assert status == 200 and info["status"] == "aborted", body[:300]
    assert reason in info["result"]["end_reason"] and info["seed"] is not None
    status, _, body = get(f"{url}/api/match/{match_id}/live")
    assert status == 200 and body == 'event: end\ndata: {"over":true}\n\n'


def test_an_aborted_match_recorded_under_other_rules_is_not_replayed(
    aborted_matches: AbortedMatches,
) -> None:
    """Its record is over and public, but today's engine would replay it as
    another game: every view is the same clear 409, never "not over" nor the
    403 kept for live matches."""
    url, match_id = aborted_matches.viewer.url, aborted_matches.rules_changed
    playing = games.get("sheep-n-sheep").rules_version
    recorded = playing + 7  # as the fixture stored it
    _is_aborted(url, match_id, f"recorded under sheep-n-sheep rules version {recorded}")
    for view in ("public", "all", "seat-1"):
        status, kind, body = get(f"{url}/api/match/{match_id}/frames?view={view}")
        assert status == 409 and "json" in kind, (view, status, body[:300])
        error = json.loads(body)["error"]
        assert f"rules version {recorded}" in error, error
        assert f"this viewer plays version {playing}" in error, error
        assert "not over" not in error


def test_the_moves_of_an_aborted_match_replay_in_every_view(
    aborted_matches: AbortedMatches,
) -> None:
    """Over, and its seed public: its frames are served as a finished match's
    are, up to where it stopped, with its end reason and no scores."""
    viewer, match_id = aborted_matches.viewer, aborted_matches.stopped
    _is_aborted(viewer.url, match_id, ABORTED_REASON)
    replay = viewer.server.run(_replay(viewer, match_id))
    assert len(replay.actions) >= aborted_matches.moves
    for view in ("public", "seat-1", "all"):
        status, _, body = get(f"{viewer.url}/api/match/{match_id}/frames?view={view}")
        assert status == 200, (view, body[:300])
        data: dict[str, Any] = json.loads(body)
        assert [f["move"] for f in data["frames"]] == list(range(len(replay.actions) + 1))
        assert data["result"]["scores"] == [] and data["result"]["end_reason"] == ABORTED_REASON
        assert ("seats" in data["frames"][-1]) == (view == "all")


def test_a_finished_match_recorded_under_other_rules_is_not_replayed(
    aborted_matches: AbortedMatches,
) -> None:
    """The same refusal for a finished match: the game server keeps its record
    but no longer replays it (Watch refuses it), nor does the viewer."""
    url, match_id = aborted_matches.viewer.url, aborted_matches.finished_under_other_rules
    status, _, body = get(f"{url}/api/match/{match_id}")
    assert status == 200 and json.loads(body)["status"] == "finished"
    for view in ("public", "all"):
        status, _, body = get(f"{url}/api/match/{match_id}/frames?view={view}")
        assert status == 409, (view, status, body[:300])
        error = json.loads(body)["error"]
        playing = games.get("sheep-showdown").rules_version
        assert "sheep-showdown rules version 1" in error and f"plays version {playing}" in error
