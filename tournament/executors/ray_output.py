"""What the class bots of a game print on a Ray worker, sent back to the driver.

A run without Ray shows what a class bot prints (to stdout or stderr) on the
run's stderr. A Ray worker's output goes to Ray's log files on its node, which
the run does not forward (`log_to_driver=False`: Ray's own lines would come
with it), and a run's own Ray instance removes them at its end, so a bot's
`print` was lost. While a game plays on a worker, what its bots write through
`sys.stdout` and `sys.stderr` from their own threads (where their constructor,
`decide` and `on_event` run) is kept here instead, per bot, and travels back
with the game's outcome; the driver logs it (see `log_printed`). Anything else
written there (Ray's, the game's server's log lines) goes where it went.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

import structlog

from tournament.seats import BOT_THREAD

__all__ = ["KEPT_CHARACTERS", "BotOutput", "Printed", "bots_printing", "log_printed"]

# What is kept of each bot's output in one game: its last characters. A bot
# that prints a line per move would otherwise send megabytes back per game.
KEPT_CHARACTERS = 20_000

# (bot, the last KEPT_CHARACTERS it printed, how many characters before them were left out)
Printed = tuple[str, str, int]


class BotOutput:
    """Each bot's output, from any number of threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._text: dict[str, str] = {}
        self._written: dict[str, int] = {}

    def add(self, bot: str, text: str) -> None:
        with self._lock:
            kept = self._text.get(bot, "") + text
            self._text[bot] = kept[-KEPT_CHARACTERS:] if len(kept) > 2 * KEPT_CHARACTERS else kept
            self._written[bot] = self._written.get(bot, 0) + len(text)

    def printed(self) -> tuple[Printed, ...]:
        with self._lock:
            return tuple(
                (bot, text[-KEPT_CHARACTERS:], self._written[bot] - len(text[-KEPT_CHARACTERS:]))
                for bot, text in self._text.items()
                if text
            )


class _BotsApart:
    """A stream that keeps what bots' threads write, and passes the rest on."""

    def __init__(self, original: TextIO, output: BotOutput) -> None:
        self._original = original
        self._output = output

    def write(self, text: str) -> int:
        name = threading.current_thread().name
        if name.startswith(f"{BOT_THREAD} ") and isinstance(text, str):
            self._output.add(name.removeprefix(f"{BOT_THREAD} "), text)
            return len(text)
        return self._original.write(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._original.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._original, name)


@contextlib.contextmanager
def bots_printing() -> Iterator[BotOutput]:
    """While inside, what bots' threads write to sys.stdout or sys.stderr is
    kept in the BotOutput yielded."""
    output = BotOutput()
    saved = sys.stdout, sys.stderr
    sys.stdout = _BotsApart(saved[0], output)
    sys.stderr = _BotsApart(saved[1], output)
    try:
        yield output
    finally:
        sys.stdout, sys.stderr = saved


def log_printed(printed: tuple[Printed, ...], key: str, node: str, match_id: str = "") -> None:
    """One log line for each bot that printed in game `key`, with what it printed.
    A warning, so that a run on a terminal (which logs warnings only) shows it,
    as it shows a class bot's print without Ray."""
    log = structlog.get_logger("sheepfold.tournament")
    for bot, text, left_out in printed:
        log.warning(
            "bot printed",
            bot=bot,
            key=key,
            **({"match_id": match_id} if match_id else {}),
            node=node,
            output=text,
            **({"left_out_characters": left_out} if left_out else {}),
        )
