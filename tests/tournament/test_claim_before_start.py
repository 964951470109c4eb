"""Two runs of one tournament started together: the one that loses is refused
before it starts anything. The claim was taken only once the run's in-process
server was up, and the look before it saw only a holder already playing, so a
run started a moment after another passed that look, started its server
(`server started`, then `server stopped`, logged around the refusal) and only
then was refused. Run as a user runs it: real processes, real SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.tournament.test_run_claims import GATE_BOT, _finished

pytestmark = pytest.mark.e2e


REFUSAL_START = "sheepfold tournament: tournament 'cup' in {db} is in use by process {pid} ("
REFUSAL_END = "; wait for it to finish (or stop it), then try again"


def _config(folder: Path) -> Path:
    """Sheep Showdown, one round, two games: the gate bot against random."""
    (folder / "gate.py").write_text(GATE_BOT)
    path = folder / "cup.toml"
    path.write_text(
        'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\n'
        "games_per_pairing = 2\nconcurrency = 1\ndecision_seconds = 60\n"
        'bootstrap = 20\ndatabase = "cup.sqlite"\npython_path = ["."]\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "gate"\nclass = "gate:Bot"\n'
        '[[bots]]\nname = "quick"\nbuiltin = "random"\n'
    )
    return path


def _start(folder: Path, *args: str, gate_import: bool = False) -> subprocess.Popen[str]:
    path = os.pathsep.join([str(ROOT), str(ROOT / "proto")])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    if gate_import:
        env["GATE_IMPORT"] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", *args],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(what: Callable[[], bool], runners: list[subprocess.Popen[str]], why: str) -> None:
    deadline = time.monotonic() + 60
    while not what():
        for runner in runners:
            assert runner.poll() is None, runner.communicate()[1]
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


@contextmanager
def _killed_at_the_end(*runners: subprocess.Popen[str]) -> Iterator[None]:
    try:
        yield
    finally:
        for runner in runners:
            if runner.poll() is None:
                runner.kill()
                runner.communicate()


def _assert_refused(stderr: str, runner: subprocess.Popen[str], holder: int, db: Path) -> None:
    """Exit 1 and the one refusal line, naming `holder`: no server started."""
    assert runner.returncode == 1, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(REFUSAL_START.format(db=db, pid=holder)), stderr
    assert lines[0].endswith(REFUSAL_END), stderr
    assert "server started" not in stderr


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_run_past_the_look_is_refused_before_its_server_starts(
    tmp_path: Path, command: str
) -> None:
    """The second run (or SPRT) is held in its checks after the look for a
    holder found none; the first then takes the tournament and plays. Let go, the second
    is refused in one line and starts no server."""
    config = _config(tmp_path)
    args = [str(config)] + (["--no-report"] if command == "run" else ["--max-games", "2"])
    (tmp_path / "hold-import").touch()
    late = _start(tmp_path, command, *args, gate_import=True)
    first: subprocess.Popen[str] | None = None
    with _killed_at_the_end(late):
        _wait_for(lambda: (tmp_path / "importing").exists(), [late], "the late run did not start")
        (tmp_path / "hold").touch()
        first = _start(tmp_path, command, *args)
        with _killed_at_the_end(first):
            _wait_for(lambda: (tmp_path / "asked").exists(), [late, first], "no game began")
            (tmp_path / "hold-import").unlink()
            late_stderr = _finished(late)
            (tmp_path / "hold").unlink()
            first_stderr = _finished(first)
    _assert_refused(late_stderr, late, first.pid, tmp_path / "cup.sqlite")
    if command == "run":
        assert first.returncode == 0, first_stderr
        assert first_stderr.strip().splitlines()[-1].endswith(", 4/4 done"), first_stderr
    else:
        assert first.returncode in (0, 3, 4), first_stderr  # H1, H0, or undecided


def test_two_runs_started_at_once_end_with_one_playing(tmp_path: Path) -> None:
    config = _config(tmp_path)
    (tmp_path / "hold").touch()  # whichever plays is held in its first game
    runs = [_start(tmp_path, "run", str(config), "--no-report") for _ in range(2)]
    with _killed_at_the_end(*runs):
        _wait_for(
            lambda: (tmp_path / "asked").exists() and any(r.poll() is not None for r in runs),
            [],
            "neither run began a game and was refused",
        )
        refused = next(r for r in runs if r.poll() is not None)
        playing = next(r for r in runs if r is not refused)
        refused_stderr = _finished(refused)
        (tmp_path / "hold").unlink()
        playing_stderr = _finished(playing)
    _assert_refused(refused_stderr, refused, playing.pid, tmp_path / "cup.sqlite")
    assert playing.returncode == 0, playing_stderr
    assert playing_stderr.strip().splitlines()[-1].endswith(", 4/4 done"), playing_stderr
