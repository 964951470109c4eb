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


def _in_a_deleted_folder(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`sheepfold ARGS` run by a shell whose working folder was removed."""
    gone = tmp_path / "gone"
    gone.mkdir()
    program = shlex.join([sys.executable, "-m", "cli", *args])
    script = f"cd {shlex.quote(str(gone))} && rmdir {shlex.quote(str(gone))} && exec {program}"
    return subprocess.run(
        ["sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


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
    done = _in_a_deleted_folder(tmp_path, *args)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == f"sheepfold {args[0]}: {SAID}"


def test_help_still_works_in_a_deleted_working_folder(tmp_path: Path) -> None:
    done = _in_a_deleted_folder(tmp_path, "match", "--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: sheepfold match")
