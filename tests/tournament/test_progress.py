"""The tournament's live line names each game's match, so `sheepfold replay` finds it."""

from __future__ import annotations

import io

import pytest
import structlog

from tournament import progress as progress_module
from tournament.progress import LogProgress, SampleProgress, TerminalProgress
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


def test_the_live_line_names_bots_of_equal_elo_by_name() -> None:
    """Two bots with the same results fit a few 1e-14 apart, either way: the
    live line orders them by name, as the report does, not by that noise."""
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("cup", 2, 0)
    elo = {"zed": 20.0, "bee": 3.0 + 4e-15, "ant": 3.0 - 4e-15, "cub": 3.0, "dog": -26.0}
    progress.game_done(_game("0123456789abcdef", None), elo)
    assert "Elo zed +20  ant +3  bee +3  last match" in stream.getvalue()


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_bootstrap_prints_a_line_now_and_then_off_a_terminal() -> None:
    stream, clock = io.StringIO(), _Clock()
    progress = SampleProgress(stream, prefix="bootstrap", clock=clock)
    progress(1, 1000)
    clock.now += 1.9
    progress(100, 1000)
    assert stream.getvalue() == "", "a report done within two seconds prints nothing extra"
    clock.now += 0.2
    progress(200, 1000)
    clock.now += 1.0
    progress(300, 1000)
    clock.now += 5.0
    progress(500, 1000)
    progress(1000, 1000)
    assert stream.getvalue().splitlines() == [
        "bootstrap: 200 of 1,000 samples, ETA 00:08",
        "bootstrap: 500 of 1,000 samples, ETA 00:08",
    ]


def test_a_long_bootstrap_rewrites_one_line_on_a_terminal_and_blanks_it() -> None:
    stream, clock = _Terminal(), _Clock()
    progress = SampleProgress(stream, prefix="bootstrap", clock=clock)
    clock.now += 0.5
    progress(5_000, 100_000)
    clock.now += 0.1
    progress(6_000, 100_000)  # too soon after the last line
    clock.now += 0.2
    progress(10_000, 100_000)
    progress(100_000, 100_000)
    first = "bootstrap: 5,000 of 100,000 samples, ETA 00:10"
    second = "bootstrap: 10,000 of 100,000 samples, ETA 00:07"
    assert stream.getvalue() == ("\r" + first + "\r" + second + "\r" + " " * len(second) + "\r"), (
        "the line is rewritten in place and blanked so the report starts on a clean line"
    )


@pytest.mark.parametrize("kind", ["terminal", "log"])
def test_the_games_per_second_and_eta_count_from_the_first_game_not_from_ray_starting(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The display is made before the run starts Ray, which takes tens of seconds;
    that wait was counted as playing time: the live line of a `--ray` run said
    0.22 games/s and ETA 02:39 after its first game, for a run that then took 5 s
    (its own summary said 7 games/s)."""
    clock = _Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    stream = io.StringIO()
    progress = TerminalProgress(stream) if kind == "terminal" else LogProgress()
    clock.now += 30.0  # Ray starting and checking its nodes
    with structlog.testing.capture_logs() as logs:
        progress.start("cup", 4, 0)
        clock.now += 1.0
        progress.game_done(_game("0123456789abcdef", None), {"steady": 5.0, "flaky": -5.0})
    if kind == "terminal":
        assert "[1/4] 1.00 games/s  ETA 00:03" in stream.getvalue(), stream.getvalue()
    else:
        finished = next(log for log in logs if log["event"] == "game finished")
        assert finished["games_per_second"] == 1.0 and finished["eta_seconds"] == 3.0, finished


def test_a_note_or_an_unplayed_game_ends_the_live_line_and_draws_it_again() -> None:
    stream = io.StringIO()
    progress = TerminalProgress(stream)
    progress.start("cup", 3, 0)
    progress.game_done(_game("0123456789abcdef", None), {"steady": 5.0, "flaky": -5.0})
    status = stream.getvalue().rsplit("\r", 1)[1]
    assert status.startswith("[1/3]")
    progress.note("cup.sqlite is locked by another process")
    progress.game_error("g2", "server gone")
    assert stream.getvalue().endswith(
        "\rcup.sqlite is locked by another process\n\r"
        + status
        + "\r"
        + " " * len(status)
        + "\rgame g2 not played: server gone\n\r"
        + status
    )
