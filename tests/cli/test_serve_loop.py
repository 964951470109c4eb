"""`sheepfold serve` runs on uvloop by default (less CPU per decision) and on
asyncio's own loop with `--loop asyncio`; whole matches play on either."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from server import loops
from server.launch import ServerProcess
from tests.cli.test_commands import sheepfold
from tests.conftest import ROOT, start_server_process, stop_server_process


def _started(server: ServerProcess) -> dict[str, object]:
    return next(
        entry
        for line in server.log_lines
        if (entry := json.loads(line)).get("event") == "server started"
    )


@pytest.mark.parametrize("flags", [(), ("--loop", "asyncio")], ids=["default", "asyncio"])
def test_a_match_plays_on_either_event_loop(flags: tuple[str, ...]) -> None:
    server = start_server_process(*flags)
    try:
        expected = flags[-1] if flags else "uvloop"
        assert _started(server)["loop"] == expected
        done = sheepfold(
            "match",
            "--game",
            "stubborn-sheep",
            "--players",
            "3",
            "--bots",
            "random,greedy,random",
            "--seed",
            "5",
            "--server",
            server.address,
            "--json",
        )
        assert done.returncode == 0, done.stderr
        assert len(json.loads(done.stdout)["scores"]) == 3
    finally:
        assert stop_server_process(server) == 0


def test_uvloop_is_installed_where_it_is_the_default() -> None:
    assert loops.default_loop() == "uvloop", "uvloop is a dependency on this platform"


def test_an_unknown_loop_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="uvloop, asyncio"):
        loops.loop_factory("trio")


def test_serve_says_so_when_the_loop_asked_for_is_missing(tmp_path: Path) -> None:
    # A Python that cannot import uvloop: the flag's check runs before anything starts.
    (tmp_path / "uvloop.py").write_text("raise ImportError('no uvloop here')\n")
    done = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--loop", "uvloop", "--port", "0"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "--loop uvloop" in done.stderr and "not installed" in done.stderr
    assert "Traceback" not in done.stderr
