"""A run a script starts in the background (`sheepfold tournament run cup.toml &`
in a shell without job control) starts with SIGINT ignored, as such a shell
starts every background job. `serve` takes SIGINT all the same, as the shared
list of stop signals says (sheepfold.stop_signals: an operator's own stop), but
the commands kept ignoring it: `kill -INT` left the run playing game after
game, where the docs say Ctrl-C (SIGINT) stops it, exit 130, its finished games
stored."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stored_games(database: Path) -> int:
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:  # not made yet, or its schema not written yet
        return 0


def test_a_run_started_with_sigint_ignored_stops_on_sigint(tmp_path: Path) -> None:
    database = tmp_path / "cup.sqlite"
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-n-sheep"\ngames_per_pairing = 5000\nbootstrap = 0\n'
        f'database = "{database}"\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", "run", str(config), "--no-report"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint,  # as a shell without job control starts `... &`
    )
    try:
        deadline = time.monotonic() + 60
        while _stored_games(database) < 1 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.2)
        assert _stored_games(database) >= 1
        process.send_signal(signal.SIGINT)
        try:
            _, stderr = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("SIGINT left the run playing")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == (
        "sheepfold tournament: interrupted; finished games are stored, "
        "run the same command again to resume"
    )
    assert 1 <= _stored_games(database) < 10_000
