"""Without Ray: what the reaper of a run's own Ray instance ends when the run
does, killed too (tests/ray runs it with Ray)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tournament.executors import ray_reaper


def test_the_reaper_ends_what_has_the_folder_open_and_removes_it(tmp_path: Path) -> None:
    """Ray renames its agents' command lines ("ray::DashboardAgent"), but their
    output goes to log files in the instance's folder; the driver, which has
    them open too, is spared."""
    folder = tmp_path / "sheepfold-ray-x"
    (folder / "logs").mkdir(parents=True)
    other = tmp_path / "other"
    other.mkdir()
    sleep = [sys.executable, "-c", "import time; time.sleep(60)"]
    with (folder / "logs" / "agent.out").open("w") as log, (other / "out").open("w") as elsewhere:
        agent = subprocess.Popen(sleep, stdout=log)
        driver = subprocess.Popen(sleep, stdout=log)
        stranger = subprocess.Popen(sleep, stdout=elsewhere)
    try:
        killed = ray_reaper.reap(str(folder), spare=driver.pid)
        assert agent.wait(10) == -9
        assert killed == [agent.pid]
        assert driver.poll() is None and stranger.poll() is None
        assert not folder.exists() and other.exists()
    finally:
        for process in (agent, driver, stranger):
            process.kill()
            process.wait()
