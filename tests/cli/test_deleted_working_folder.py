"""A command typed in a shell whose working folder was deleted (a temporary
folder cleaned up under it): `match` ended in a FileNotFoundError traceback
from os.getcwd(), and `serve` in one from os.path.abspath while it reported
that it could not open its database. Every command now says so in one line."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SAID = "the working folder was deleted (or moved) from under this shell: cd to a folder that exists"


@pytest.mark.parametrize(
    "args",
    [
        ("match", "--game", "sheep-showdown", "--players", "2", "--bots", "random,random"),
        ("serve", "--port", "0"),
        ("replay", "some-match"),
    ],
    ids=["match", "serve", "replay"],
)
def test_a_deleted_working_folder_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    program = shlex.join([sys.executable, "-m", "cli", *args])
    script = f"cd {shlex.quote(str(gone))} && rmdir {shlex.quote(str(gone))} && exec {program}"
    done = subprocess.run(
        ["sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == f"sheepfold {args[0]}: {SAID}"


def test_help_still_works_in_a_deleted_working_folder(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    program = shlex.join([sys.executable, "-m", "cli", "match", "--help"])
    script = f"cd {shlex.quote(str(gone))} && rmdir {shlex.quote(str(gone))} && exec {program}"
    done = subprocess.run(
        ["sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: sheepfold match")
