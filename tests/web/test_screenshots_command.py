"""`python -m web.screenshots` (what `make screenshots` runs) reads its one
argument as a folder: a flag must not become one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def _screenshots(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "web.screenshots", *args],
        cwd=tmp_path,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'proto'}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_describes_the_command_and_draws_nothing(tmp_path: Path) -> None:
    ran = _screenshots(tmp_path, "--help")
    assert ran.returncode == 0, ran.stderr
    assert "usage: python -m web.screenshots [-h] [folder]" in ran.stdout
    assert "where the pictures go" in ran.stdout
    assert list(tmp_path.iterdir()) == []  # once a folder named "--help"


def test_a_second_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    ran = _screenshots(tmp_path, "one", "two")
    assert ran.returncode == 2
    assert "unrecognized arguments: two" in ran.stderr
    assert "Traceback" not in ran.stderr
    assert list(tmp_path.iterdir()) == []
