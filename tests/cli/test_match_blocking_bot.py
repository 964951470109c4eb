"""`sheepfold match` plays every seat on one event loop (and, without --server,
its server too): a bot whose plain `decide` blocked for longer than the
deadline made the other seats miss theirs, so an innocent seat was struck and
disqualified with it."""

from __future__ import annotations

import json

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import sheepfold


@pytest.mark.parametrize("elsewhere", [False, True], ids=["own-server", "--server"])
def test_a_blocking_bot_costs_only_its_own_seat(elsewhere: bool, server: ServerProcess) -> None:
    where = ["--server", server.address] if elsewhere else []
    done = sheepfold(
        "match",
        *where,
        "--game",
        "sheep-showdown",
        "--players",
        "2",
        "--bots",
        "random,tests.cli.bots.blocking_bot:SleepyBot",
        "--decision-seconds",
        "1",
        "--seed",
        "5",
        "--json",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["disqualified"] == [1]
    assert summary["strikes"][0] == 0, summary
