"""`sheepfold bot` run by hand names the seat its failing bot plays.

The README and the bot guide run a class bot with `sheepfold bot --server ...
--match ID --token TOKEN`, no `--seat`: the server tells the seat from the
token. A bot that raised, or returned something that is no action index, was
then named "the bot in (mybot:Bot)", seat left out and the sentence broken,
where the guide promises "the bot in seat 1 (mybot:NoPassBot): ...". The seat
is in every decision the bot was given, so the line names it from there.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import command, sheepfold
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

RAISES = """
class Bot:
    def decide(self, decision) -> int:
        raise RuntimeError("thought too hard")
"""

RETURNS_NONE = """
class Bot:
    def decide(self, decision):
        return None
"""


def _play_seat_one(
    folder: Path, server: ServerProcess, spec: str
) -> subprocess.CompletedProcess[str]:
    """`spec` on seat 1 of a fresh match, joined without --seat or SHEEPFOLD_SEAT;
    `random` on seat 0."""
    created = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "2", "--server", server.address,
        "--json", "--decision-seconds", "1", timeout=60,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    match = json.loads(created.stdout)
    match_id, tokens = str(match["match_id"]), match["seat_tokens"]
    other = subprocess.Popen(
        command("bot", "--server", server.address, "--match", match_id, "--token", tokens[0]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return sheepfold(
            "bot", "--server", server.address, "--match", match_id, "--bot", spec,
            env={"SHEEPFOLD_TOKEN": tokens[1], "PYTHONPATH": str(ROOT)}, cwd=folder, timeout=120,
        )  # fmt: skip
    finally:
        other.wait(timeout=120)


def test_a_raising_bot_is_named_with_the_seat_it_plays(
    tmp_path: Path, server: ServerProcess
) -> None:
    (tmp_path / "raiser.py").write_text(RAISES)
    done = _play_seat_one(tmp_path, server, "raiser:Bot")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == (
        "sheepfold bot: the bot in seat 1 (raiser:Bot) raised RuntimeError: thought too hard"
    )


def test_a_bot_returning_no_index_is_named_with_the_seat_it_plays(
    tmp_path: Path, server: ServerProcess
) -> None:
    (tmp_path / "returns_none.py").write_text(RETURNS_NONE)
    done = _play_seat_one(tmp_path, server, "returns_none:Bot")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "sheepfold bot: the bot in seat 1 (returns_none:Bot): decide returned None,"
        " not an action index (a whole number)"
    ]
