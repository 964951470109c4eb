"""An `async` decide that awaits for ever, run on its bot's thread (as
`sheepfold match`, `bot` and a tournament run every SDK bot), left that
thread behind after its match: the match ended (the seat struck and
disqualified), the command returned, and the thread went on awaiting. The end
of the match now cancels what the thread still awaits, and the thread ends."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from cli.main import main

pytestmark = pytest.mark.e2e

STUCK = (
    "import asyncio\n\n\n"
    "class Bot:\n"
    "    def __init__(self, seed=0):\n"
    "        pass\n\n"
    "    async def decide(self, decision):\n"
    "        await asyncio.Event().wait()\n"
)


def _bot_threads() -> list[str]:
    return [
        t.name for t in threading.enumerate() if t.name.startswith(("bot-seat-", "tournament-bot"))
    ]


def test_match_leaves_no_bot_thread_behind_a_decide_awaiting_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "stuck_for_ever_async.py").write_text(STUCK)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _bot_threads() == []
    code = main(
        ["match", "--game", "stubborn-sheep", "--players", "2",
         "--bots", "stuck_for_ever_async:Bot,random", "--seed", "2",
         "--decision-seconds", "0.5", "--json"]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert '"disqualified": [0]' in capsys.readouterr().out
    assert _bot_threads() == []


def test_a_tournament_seat_leaves_no_bot_thread_behind_a_decide_awaiting_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sheepfold.v1 import arena_pb2

    from clients.bots.random_bot import RandomBot
    from clients.matchplay import create_match
    from clients.sdk import play
    from server.app import ServerConfig
    from server.inprocess import serving_here
    from tournament.seats import InProcessSeat

    (tmp_path / "stuck_for_ever_async_seat.py").write_text(STUCK)
    monkeypatch.syspath_prepend(str(tmp_path))

    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(
                address, "stubborn-sheep", 2, seed=2,
                clock=arena_pb2.ClockSettings(decision_seconds=0.5),
            )  # fmt: skip
            seat = InProcessSeat(
                "stuck_for_ever_async_seat:Bot", 1, address, created.match_id,
                created.seat_tokens[0],
            )  # fmt: skip
            await asyncio.wait_for(
                asyncio.gather(
                    seat.run(),
                    play(RandomBot(1), address, created.match_id, created.seat_tokens[1]),
                ),
                timeout=60,
            )

    asyncio.run(scenario())
    deadline = time.monotonic() + 5
    while _bot_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _bot_threads() == []


def test_the_bot_thread_cancels_what_it_awaits_when_closed() -> None:
    from clients.bot_thread import BotThread

    async def scenario() -> None:
        worker = BotThread("bot-seat-9")
        started = threading.Event()

        async def for_ever() -> int:
            started.set()
            await asyncio.Event().wait()
            return 0

        answer = worker.run(lambda: worker.awaited(for_ever()))
        while not started.is_set():
            await asyncio.sleep(0.01)
        worker.close()
        assert worker.join(5.0)
        answer.cancel()

    asyncio.run(scenario())
    deadline = time.monotonic() + 5
    while _bot_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _bot_threads() == []


def test_what_the_bot_thread_awaits_is_cancelled_once_its_cleanup_runs_whole() -> None:
    """The match's end drops the decide (its future cancelled), and `match` and
    `bot` then close the bot: the second cancellation once reached the decide
    inside its own `finally`, cutting short an `await` there (a connection
    to close, a file to flush)."""
    from clients.bot_thread import BotThread

    cleaned: list[str] = []

    async def scenario() -> None:
        worker = BotThread("bot-seat-9")
        started = threading.Event()

        async def decide() -> int:
            started.set()
            try:
                await asyncio.Event().wait()
            finally:
                await asyncio.sleep(0.2)
                cleaned.append("whole")
            return 0

        answer = worker.run(lambda: worker.awaited(decide()))
        while not started.is_set():
            await asyncio.sleep(0.01)
        answer.cancel()  # the match is over: nobody waits for this answer
        await asyncio.sleep(0.05)
        worker.close()  # then the command closes its bots
        assert worker.join(5.0)

    asyncio.run(scenario())
    assert cleaned == ["whole"]
