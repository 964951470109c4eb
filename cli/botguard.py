"""A bot's own exception, shown with its own traceback.

When a `module:Class` bot raises in `decide`, the error is the author's code:
they need the traceback from their file, not `AttributeError: no_such_field`
from somewhere inside the SDK. `GuardedBot` wraps a bot and turns whatever it
raises into `BotRaised`, which names the seat and keeps the bot's frames only.
"""

from __future__ import annotations

import inspect
import traceback
from typing import Any

from clients.sdk import Bot, DecisionView, action_index


class BotRaised(Exception):
    """The bot of `seat` raised `error` while deciding (or, with `answer`, returned
    something that is no action index: `error` then says what)."""

    def __init__(
        self, seat: int | None, spec: str, error: BaseException, frames: str, answer: bool = False
    ) -> None:
        where = f"seat {seat} " if seat is not None else ""
        what = f": {error}" if answer else f" raised {type(error).__name__}: {error}"
        super().__init__(f"the bot in {where}({spec}){what}")
        self.seat = seat
        self.spec = spec
        self.error = error
        self.frames = frames

    def report(self, command: str) -> str:
        """What to print: one line naming the bot, then its own traceback."""
        return f"sheepfold {command}: {self}\n{self.frames}".rstrip()


class GuardedBot:
    def __init__(self, bot: Bot, seat: int | None, spec: str) -> None:
        self._bot = bot
        self._seat = seat
        self._spec = spec

    def __getattr__(self, name: str) -> Any:  # on_event and anything else the SDK looks up
        return getattr(self._bot, name)

    def decide(self, decision: DecisionView) -> Any:
        try:
            choice = self._bot.decide(decision)
        except Exception as error:
            raise self._raised(error) from None
        if inspect.isawaitable(choice):
            return self._wait(choice)
        return self._index(choice)

    async def _wait(self, choice: Any) -> int:
        try:
            chosen = await choice
        except Exception as error:
            raise self._raised(error) from None
        return self._index(chosen)

    def _index(self, choice: Any) -> int:
        """The bot's answer, or one line saying what it returned instead (no
        traceback: the mistake is the returned value, not a line of code)."""
        try:
            return action_index(choice)
        except (TypeError, ValueError) as error:
            raise BotRaised(self._seat, self._spec, error, "", answer=True) from None

    def _raised(self, error: Exception) -> BotRaised:
        # Drop this module's frame: what is left starts in the bot's own code.
        tb = error.__traceback__.tb_next if error.__traceback__ is not None else None
        frames = "".join(traceback.format_exception(type(error), error, tb))
        return BotRaised(self._seat, self._spec, error, frames)
