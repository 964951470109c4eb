"""A bot whose `decide` gives a coroutine where an action index belongs (an
`async def decide` that calls an async helper and returns its coroutine
without awaiting it) is refused with the SDK's one line, "decide returned
<coroutine ...>, not an action index". Python then added its own
"RuntimeWarning: coroutine ... was never awaited" when the coroutine was
collected: the SDK now closes the coroutine it refuses."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

SCRIPT = textwrap.dedent(
    """
    import asyncio
    import gc

    from clients.bots.random_bot import RandomBot
    from clients.matchplay import create_match
    from clients.sdk import play
    from server.app import ServerConfig
    from server.inprocess import serving_here


    async def think(decision):
        return 0


    class Forgetful:
        async def decide(self, decision):
            return think(decision)  # not awaited


    async def scenario():
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=4)
            other = asyncio.ensure_future(
                play(RandomBot(1), address, created.match_id, created.seat_tokens[1])
            )
            try:
                await play(Forgetful(), address, created.match_id, created.seat_tokens[0])
            except TypeError as error:
                print("refused:", error)
            other.cancel()
            await asyncio.gather(other, return_exceptions=True)


    asyncio.run(scenario())
    gc.collect()
    """
)


def test_a_coroutine_returned_as_the_answer_is_closed_without_never_awaited() -> None:
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", SCRIPT],
        cwd=ROOT, capture_output=True, text=True, timeout=90,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "refused: decide returned <coroutine" in done.stdout, done.stdout + done.stderr
    assert "not an action index" in done.stdout
    assert "never awaited" not in done.stderr, done.stderr
