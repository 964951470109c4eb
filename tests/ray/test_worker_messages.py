"""What the run says when a Ray worker dies mid-game (a real Ray cluster on
this machine, see conftest.py): one line of its own log, not Ray's text."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.ray.test_cluster_runs import _config, _on, _stored
from tests.tournament.quick_cup import Recorder
from tournament.config import load_config
from tournament.runner import run_tournament, schedule_for

# A seeded random bot whose first decision anywhere ends its Ray worker process,
# as the OOM killer or a crash in a bot's native code would.
DYING_BOT = """
import os
import random
import time


class DyingBot:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def decide(self, decision):
        try:
            os.close(os.open({marker!r}, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            time.sleep(0.02)
            return self.rng.randrange(len(decision.actions))
        os._exit(1)
"""

BOTS = (
    '[[bots]]\nname = "dying"\nclass = "dying_bots:DyingBot"\n'
    '[[bots]]\nname = "random"\nbuiltin = "random"\n'
)


def test_a_worker_that_dies_mid_game_is_one_line_of_the_run_and_its_game_counts_once(
    cluster: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Ray plays the game again and the run says so in one line (a note), where
    Ray's driver printed its own yellow text, hundreds of characters of ids,
    between the lines of the run's log."""
    folder = tmp_path / "cup"
    folder.mkdir()
    marker = tmp_path / "died-once"
    (folder / "dying_bots.py").write_text(textwrap.dedent(DYING_BOT.format(marker=str(marker))))
    config = load_config(_config(folder, BOTS, ["."], seeds=2))
    progress = Recorder()
    db = tmp_path / "cup.sqlite"
    settings = dataclasses.replace(_on(cluster), max_retries=1)
    run_tournament(config, database=str(db), progress=progress, executor=settings)
    output = capfd.readouterr()
    scheduled = sorted(game.key for game in schedule_for(config))
    assert marker.exists(), "no worker died"
    assert progress.errors == []
    assert sorted(progress.keys) == scheduled  # each game counted once
    assert sorted(game.key for game in _stored(db)) == scheduled
    retried = "a Ray worker died while playing a game: Ray plays it again (1 retry left)"
    assert progress.notes == [retried]
    assert "(raylet)" not in output.out + output.err
    assert "A worker died" not in output.out + output.err


# A class bot whose every game ends its Ray worker process.
ALWAYS_DYING_BOT = """
import os


class AlwaysDying:
    def decide(self, decision):
        os._exit(1)
"""


def test_a_game_whose_worker_always_dies_is_not_played_and_says_where_the_logs_are(
    cluster: Any, tmp_path: Path
) -> None:
    """Ray's own words pointed at python-core-worker-*.log files without saying
    where they are (on the node that played the game, not here); with the
    run's own Ray instance they were already removed when the line was read."""
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "always_dying.py").write_text(ALWAYS_DYING_BOT)
    bots = (
        '[[bots]]\nname = "dying"\nclass = "always_dying:AlwaysDying"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    config = load_config(_config(folder, bots, ["."]))
    progress = Recorder()
    settings = dataclasses.replace(_on(cluster), max_retries=0)
    run_tournament(
        config, database=str(tmp_path / "cup.sqlite"), progress=progress, executor=settings
    )
    keys = sorted(game.key for game in schedule_for(config))
    why = (
        "its Ray worker died 1 time (its process ended mid-game: killed, out of memory, or a "
        "crash in native code; its python-core-worker-*.log files are in the Ray session's logs "
        "folder on the node that played it (/tmp/ray/session_latest/logs unless Ray was started "
        "with another --temp-dir))"
    )
    assert sorted(progress.errors) == [f"{key}: {why}" for key in keys]
