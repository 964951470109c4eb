"""What a class bot prints while it plays on a Ray worker comes back with its
game's outcome (played here without Ray, in a folder made the current one as
Ray makes it), and the driver logs it. It went to the worker's log files,
which the run neither forwards nor, for its own Ray instance, keeps: a bot's
`print` was lost, where a run without Ray shows it on stderr."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
import structlog

from tournament.config import load_config
from tournament.executors.ray_output import KEPT_CHARACTERS, log_printed
from tournament.executors.ray_task import GameJob, play_on_worker
from tournament.runner import schedule_for

TALKING_BOT = """
import sys


class Talker:
    def __init__(self, seed=0):
        print("built with seed", seed)

    def decide(self, decision):
        print("deciding", file=sys.stderr)
        return 0


class Chatty:
    def decide(self, decision):
        print("x" * 5000)
        return 0
"""


def _cup(folder: Path, bot_class: str) -> Path:
    folder.mkdir()
    (folder / "talking_bots.py").write_text(TALKING_BOT)
    path = folder / "cup.toml"
    path.write_text(
        textwrap.dedent(
            f"""\
            game = "sheep-showdown"
            players = 2
            python_path = ["."]
            [options]
            rounds = 1
            [[bots]]
            name = "talker"
            class = "talking_bots:{bot_class}"
            [[bots]]
            name = "quiet"
            builtin = "random"
            """
        )
    )
    return path


def test_what_a_class_bot_prints_on_a_worker_comes_back_with_its_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    config = load_config(_cup(tmp_path / "cup", "Talker"))
    monkeypatch.chdir(tmp_path / "cup")
    monkeypatch.syspath_prepend(str(tmp_path / "cup"))
    scheduled = schedule_for(config)[0]
    before = sys.stdout, sys.stderr
    outcome = play_on_worker(GameJob(config, scheduled, None, ""))
    assert (sys.stdout, sys.stderr) == before
    assert outcome.error is None and outcome.record is not None
    [(bot, text, left_out)] = outcome.printed
    assert bot == "talker" and left_out == 0
    lines = text.splitlines()
    assert lines[0].startswith("built with seed ")
    assert len(lines) > 1 and set(lines[1:]) == {"deciding"}
    # Kept instead of written to the worker's own output (its log files).
    written = capfd.readouterr()
    assert "deciding" not in written.out + written.err

    with structlog.testing.capture_logs() as logs:
        log_printed(outcome.printed, scheduled.key, outcome.node, outcome.record.match_id)
    assert logs == [
        {
            "event": "bot printed",
            "log_level": "warning",
            "bot": "talker",
            "key": scheduled.key,
            "match_id": outcome.record.match_id,
            "node": outcome.node,
            "output": text,
        }
    ]


def test_a_bot_that_prints_a_lot_sends_back_its_last_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(_cup(tmp_path / "cup", "Chatty"))
    monkeypatch.chdir(tmp_path / "cup")
    monkeypatch.syspath_prepend(str(tmp_path / "cup"))
    outcome = play_on_worker(GameJob(config, schedule_for(config)[0], None, ""))
    [(bot, text, left_out)] = outcome.printed
    assert bot == "talker"
    assert len(text) == KEPT_CHARACTERS and text.endswith("x\n")
    assert left_out > 0 and (left_out + len(text)) % 5001 == 0
