"""A bot whose `decide` never comes back must not keep its seat's `play` (and
`sheepfold match`, `bot`, a tournament's seat) waiting once the match is over.

The server plays the seat's missed decisions at random, strikes it and
disqualifies it; the match ends and its result is sent. `play` used to await
the bot's answer before it read the stream again, so it never saw that result:
`sheepfold match` with a bot stuck in `decide` hung after its match had ended.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from sheepfold.v1 import arena_pb2

from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match
from clients.sdk import DecisionView, play
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


class _Stuck:
    """An async decide that never returns; records the events it is given."""

    def __init__(self) -> None:
        self.events = 0
        self.asked = 0

    async def decide(self, decision: DecisionView) -> int:
        self.asked += 1
        await asyncio.Event().wait()
        return 0

    def on_event(self, event: object) -> None:
        self.events += 1


def test_play_returns_the_result_while_decide_is_still_thinking() -> None:
    stuck = _Stuck()

    async def scenario() -> arena_pb2.MatchResult:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(
                address,
                "sheep-n-sheep",
                2,
                seed=4,
                # Room for the random bot, which must not be disqualified: at
                # 0.1 s it missed its deadlines too on a slowed CPU.
                clock=arena_pb2.ClockSettings(decision_seconds=0.5),
            )
            mine, _ = await asyncio.wait_for(
                asyncio.gather(
                    play(stuck, address, created.match_id, created.seat_tokens[0]),
                    play(RandomBot(1), address, created.match_id, created.seat_tokens[1]),
                ),
                timeout=60,
            )
            return mine

    result = asyncio.run(scenario())
    assert result.end_reason == "game over"
    assert [seat.disqualified for seat in result.seats] == [True, False]
    assert stuck.asked == 1, "the one decision it never answered"


BLOCKED = "import time\n\n\nclass Bot:\n    def decide(self, decision):\n        time.sleep(3600)\n"


def test_match_ends_when_its_match_is_over_though_a_bot_is_stuck(tmp_path: Path) -> None:
    (tmp_path / "blocked.py").write_text(BLOCKED)
    # 0.5 s deadlines: room for the random bot, which must not be disqualified.
    done = subprocess.run(
        [sys.executable, "-m", "cli", "match", "--game", "stubborn-sheep", "--players", "2",
         "--bots", "blocked:Bot,random", "--seed", "2", "--decision-seconds", "0.5", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=90,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"disqualified": [0]' in done.stdout
