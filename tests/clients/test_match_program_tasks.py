"""`sheepfold match` with command bots: a second Ctrl-C while a bot program is
being killed left "Task exception was never retrieved ... BotFailure" after the
"interrupted" line."""

from __future__ import annotations

import asyncio
import gc

from clients.launch.process import BotFailure
from clients.matchplay import run_until_match_over


class _Program:
    """A bot program that fails once killed; killing it takes a while."""

    def __init__(self) -> None:
        self.killed = asyncio.Event()

    async def run(self) -> None:
        await self.killed.wait()
        raise BotFailure("killed by SIGKILL")

    async def kill(self) -> None:
        self.killed.set()
        await asyncio.Event().wait()  # interrupted here by the second Ctrl-C


def test_a_program_killed_while_the_match_is_interrupted_twice_reports_nothing() -> None:
    reported: list[str] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _loop, context: reported.append(context["message"])
        )
        program = _Program()
        running = asyncio.create_task(
            run_until_match_over(program, "127.0.0.1:1", "m")  # type: ignore[arg-type]
        )
        await asyncio.sleep(0.01)
        running.cancel()  # the first Ctrl-C: the program is being killed
        await asyncio.sleep(0.01)
        running.cancel()  # the second, while kill() waits
        await asyncio.gather(running, return_exceptions=True)
        await asyncio.sleep(0.01)
        gc.collect()

    asyncio.run(main())
    gc.collect()
    assert reported == []
