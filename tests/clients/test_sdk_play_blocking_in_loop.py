"""`play_blocking` called from code that already runs an event loop (an async
function, a Jupyter notebook) said only "asyncio.run() cannot be called from a
running event loop", and Python then warned "coroutine 'play' was never
awaited". It now says what to write instead, and creates no coroutine."""

from __future__ import annotations

import asyncio
import warnings

import pytest

from clients.bots.random_bot import RandomBot
from clients.sdk import play_blocking


def test_play_blocking_inside_a_running_loop_says_to_await_play() -> None:
    async def inside() -> None:
        with pytest.raises(RuntimeError, match=r"await play\(") as raised:
            play_blocking(RandomBot(0), "127.0.0.1:1", "m", "t")
        assert "play_blocking" in str(raised.value)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine ... was never awaited" fails the test
        asyncio.run(inside())
        import gc

        gc.collect()
