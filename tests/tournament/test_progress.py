"""The tournament's live line names each game's match, so `sheepfold replay` finds it."""

from __future__ import annotations

import io

from tournament.progress import TerminalProgress
from tournament.store import GameRecord, SeatRecord


def _game(match_id: str, failure: str | None) -> GameRecord:
    return GameRecord(
        key="g1",
        match_id=match_id,
        seed=1,
        group=0,
        rotation=0,
        seats=(
            SeatRecord("steady", 3.0, 1, 1, 0, False, None),
            SeatRecord("flaky", 1.0, 2, 1, 0, False, failure),
        ),
        end_reason="game over",
        details_json="{}",
        duration_seconds=0.1,
        finished_at=0.0,
    )


def test_the_live_line_and_a_failed_game_show_the_match_id() -> None:
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("cup", 2, 0)
    progress.game_done(_game("0123456789abcdef", None), {"steady": 5.0, "flaky": -5.0})
    assert "last match 0123456789abcdef" in stream.getvalue()
    assert "game g1 (match" not in stream.getvalue(), "a clean game gets no line of its own"
    progress.game_done(_game("fedcba9876543210", "crash"), {"steady": 9.0, "flaky": -9.0})
    assert "\rgame g1 (match fedcba9876543210): flaky crash\n" in stream.getvalue()
