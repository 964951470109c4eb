"""What a class bot prints on a Ray worker reaches the run's log (a real Ray
cluster on this machine, see conftest.py): Ray's driver forwards no worker
output (`log_to_driver=False`), so a bot's `print` was lost, where a run
without Ray shows it on stderr."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import structlog

from tests.ray.test_cluster_runs import _config, _on
from tournament.config import load_config
from tournament.runner import run_tournament, schedule_for

TALKING_BOT = """
import sys


class Talker:
    def __init__(self, seed=0):
        print("hello from a worker")

    def decide(self, decision):
        print("thinking", file=sys.stderr)
        return 0
"""


def test_what_a_class_bot_prints_on_a_worker_is_logged_by_the_driver(
    cluster: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "talking_bots.py").write_text(TALKING_BOT)
    config = load_config(
        _config(
            folder,
            '[[bots]]\nname = "talker"\nclass = "talking_bots:Talker"\n'
            '[[bots]]\nname = "quiet"\nbuiltin = "random"\n',
            ["."],
        )
    )
    with structlog.testing.capture_logs() as logs:
        summary = run_tournament(
            config, database=str(tmp_path / "cup.sqlite"), executor=_on(cluster)
        )
    assert summary.played == 2
    printed = [entry for entry in logs if entry["event"] == "bot printed"]
    keys = sorted(game.key for game in schedule_for(config))
    assert sorted(entry["key"] for entry in printed) == keys
    for entry in printed:
        assert entry["bot"] == "talker" and "(node " in entry["node"], entry
        lines = entry["output"].splitlines()
        assert lines[0] == "hello from a worker" and set(lines[1:]) == {"thinking"}, entry
    assert "(raylet)" not in "".join(capfd.readouterr())
