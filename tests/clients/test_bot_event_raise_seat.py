"""`sheepfold bot` names the seat of a bot whose `on_event` raises before its
first decision.

Run as the README and the bot guide show it (no `--seat`), the seat was named
from the bot's decisions only: a bot whose `on_event` raised on the events
that come before its first decision was "the bot (evbot:Bot) raised ...",
where the same mistake in `decide` is "the bot in seat 1 (evbot:Bot) raised
...". The server says the seat when it answers the join, before any event.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

RAISES_ON_EVENT = """
class Bot:
    def on_event(self, event) -> None:
        raise RuntimeError("could not read the event")

    def decide(self, decision) -> int:
        return 0
"""

RAISES_ON_EVENT_ASYNC = """
class Bot:
    async def on_event(self, event) -> None:
        raise RuntimeError("could not read the event")

    def decide(self, decision) -> int:
        return 0
"""


def _run(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


def _first_line_for_seat_one(folder: Path, server: ServerProcess, spec: str) -> str:
    """The first line `sheepfold bot --bot spec` prints on seat 1 of a fresh
    two-seat match, joined without --seat (random plays seat 0), exit 1."""
    created = _run(
        folder, "create", "--game", "sheep-n-sheep", "--players", "2", "--server",
        server.address, "--json", "--decision-seconds", "1",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    match = json.loads(created.stdout)
    match_id, tokens = str(match["match_id"]), match["seat_tokens"]
    other = subprocess.Popen(
        [sys.executable, "-m", "cli", "bot", "--server", server.address, "--match", match_id],
        cwd=ROOT,
        env={**os.environ, "SHEEPFOLD_TOKEN": tokens[0]},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        done = _run(
            folder, "bot", "--server", server.address, "--match", match_id, "--bot", spec,
            env={"SHEEPFOLD_TOKEN": tokens[1]},
        )  # fmt: skip
    finally:
        other.wait(timeout=120)
    assert done.returncode == 1, done.stderr
    return done.stderr.splitlines()[0]


@pytest.mark.parametrize("source", [RAISES_ON_EVENT, RAISES_ON_EVENT_ASYNC], ids=["plain", "async"])
def test_an_on_event_that_raises_before_the_first_decision_is_named_with_its_seat(
    tmp_path: Path, server_process: ServerProcess, source: str
) -> None:
    (tmp_path / "evbot.py").write_text(source)
    assert _first_line_for_seat_one(tmp_path, server_process, "evbot:Bot") == (
        "sheepfold bot: the bot in seat 1 (evbot:Bot) raised RuntimeError: could not read the event"
    )
