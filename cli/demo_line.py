"""`sheepfold demo`'s progress line on a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping

from tournament.progress import Ending, Progress, format_eta, rewrite_line
from tournament.store import GameRecord


class GamesLine(Progress):
    """On a terminal, one line on stderr counting a game's round robin,
    `[done/total] ETA mm:ss`, blanked before its table is printed."""

    def __init__(self) -> None:
        self.stream = sys.stderr
        self.width = 0
        self.total = self.done = 0
        self.started = time.monotonic()

    def start(self, tournament: str, total: int, done: int) -> None:
        self.total, self.done = total, done
        self.started = time.monotonic()
        self._show()

    def game_started(self, key: str) -> None:
        return None

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        self.done += 1
        self._show()

    def game_error(self, key: str, error: str) -> None:
        return None

    def note(self, text: str) -> None:
        return None

    def finish(self, played: int, ending: Ending) -> None:
        self.width = rewrite_line(self.stream, "", self.width)
        self.stream.write("\r")
        self.stream.flush()

    def _show(self) -> None:
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        text = f"[{self.done}/{self.total}] games played, ETA {format_eta(eta)}"
        self.width = rewrite_line(self.stream, text, self.width)
