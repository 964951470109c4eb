"""An in-process tournament bot whose `decide` returns an awaitable is awaited,
as `sheepfold match` and the SDK await one: it was awaited only when it was a
coroutine, so a bot returning any other awaitable crashed in every game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tournament.seats import _ThreadedBot

BOT = """\
class Ready:
    def __init__(self, value):
        self.value = value

    def __await__(self):
        return self.value
        yield


class AwaitableBot:
    def decide(self, decision):
        return Ready(1)


class AsyncBot:
    async def decide(self, decision):
        return 2
"""


@pytest.mark.parametrize(("spec", "index"), [("AwaitableBot", 1), ("AsyncBot", 2)])
def test_an_awaitable_answer_is_awaited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str, index: int
) -> None:
    (tmp_path / "awaiting_bots.py").write_text(BOT)
    monkeypatch.syspath_prepend(str(tmp_path))

    async def decide() -> object:
        bot = _ThreadedBot()
        try:
            await bot.build(f"awaiting_bots:{spec}", 0)
            return await bot.decide(object())  # type: ignore[arg-type]
        finally:
            bot.close()

    assert asyncio.run(decide()) == index
