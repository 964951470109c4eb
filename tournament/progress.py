"""Live progress: one rewritten line on a terminal, structlog lines otherwise."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal, Protocol, TextIO

import structlog

from games.words import count
from tournament.ratings import rounded, signed_elo, strongest_first
from tournament.store import GameRecord

__all__ = [
    "Ending",
    "LogProgress",
    "ProblemsProgress",
    "Progress",
    "SampleProgress",
    "TerminalProgress",
    "choose_progress",
    "draws_a_line",
    "format_eta",
    "note_on",
    "terminal_line",
]


# How a run ended: every game it was to play played (or an SPRT decided),
# Ctrl-C or SIGTERM, or an error or a batch of failed games before the end.
Ending = Literal["finished", "interrupted", "stopped"]


class Progress(Protocol):
    def start(self, tournament: str, total: int, done: int) -> None: ...

    def game_started(self, key: str) -> None: ...

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        """`elo`: each bot's figure so far, the one the report ranks by: the Elo,
        or for a solo game (one seat) the mean score (see `figure_of`)."""
        ...

    def game_error(self, key: str, error: str) -> None: ...

    def note(self, text: str) -> None:
        """A line about the run itself (games waiting for room on a full server,
        a server dropped), not about one game."""
        ...

    def finish(self, played: int, ending: Ending) -> None: ...


def note_on(progress: Progress, text: str) -> None:
    """`progress.note(text)`, or a warning in the log for a Progress written
    before there were notes (one of a program's own, say)."""
    note = getattr(progress, "note", None)
    if callable(note):
        note(text)
    else:
        structlog.get_logger("sheepfold.tournament").warning(text)


def figure_of(game: GameRecord) -> str:
    """What the figures given with `game` are: a solo tournament has no Elo,
    and its report ranks by mean score."""
    return "mean score" if len(game.seats) == 1 else "Elo"


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class _Rate:
    def __init__(self) -> None:
        self.total = 0
        self.done = 0
        self.played = 0
        self.started = time.monotonic()

    def begin(self, total: int, done: int) -> None:
        """The run's games start now: what came before (starting Ray, its checks:
        tens of seconds) is not in the games per second, nor in the ETA."""
        self.total, self.done = total, done
        self.started = time.monotonic()

    def step(self) -> tuple[float, float | None]:
        self.done += 1
        self.played += 1
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.played / elapsed
        remaining = self.total - self.done
        return rate, (remaining / rate if rate > 0 else None)


class LogProgress:
    """One structlog line per finished game, with the report's figure so far:
    `elo` (the report's fit), or solo `mean_score`. `game`: the tournament's
    game, which each line names beside the match id (as every line about a
    match does)."""

    def __init__(self, game: str = "", tournament: str = "") -> None:
        self.game = game
        self.log = structlog.get_logger("sheepfold.tournament")
        self.rate = _Rate()
        # Known before `start` when given: a note (a lock waited for) can come first.
        self.tournament = tournament

    def start(self, tournament: str, total: int, done: int) -> None:
        self.tournament = tournament
        self.rate.begin(total, done)
        self.log.info("tournament started", tournament=tournament, games=total, already_done=done)

    def game_started(self, key: str) -> None:
        return None

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        rate, eta = self.rate.step()
        self.log.info(
            "game finished",
            tournament=self.tournament,
            match_id=game.match_id,
            **({"game": self.game} if self.game else {}),
            key=game.key,
            bots=list(game.bots),
            scores=list(game.scores),
            ranks=list(game.ranks),
            failures=[seat.failure for seat in game.seats],
            done=self.rate.done,
            total=self.rate.total,
            games_per_second=round(rate, 3),
            eta_seconds=None if eta is None else round(eta, 1),
            **_logged_figures(game, elo),
            **({"node": game.node} if game.node else {}),
        )

    def game_error(self, key: str, error: str) -> None:
        self.log.error("game not played", tournament=self.tournament, key=key, error=error)

    def note(self, text: str) -> None:
        self.log.warning(text, tournament=self.tournament)

    def finish(self, played: int, ending: Ending) -> None:
        log = self.log.info if ending == "finished" else self.log.warning
        log(
            f"tournament {ending}",
            tournament=self.tournament,
            played=played,
            done=self.rate.done,
            total=self.rate.total,
        )


def _logged_figures(game: GameRecord, figures: Mapping[str, float]) -> dict[str, Any]:
    if figure_of(game) == "Elo":
        return {"elo": {bot: rounded(value, 1) for bot, value in figures.items()}}
    return {"mean_score": {bot: rounded(value, 2) for bot, value in figures.items()}}


class TerminalProgress:
    """A single status line, rewritten after every game. A line of its own
    (a failed game, a note) ends it first and has it drawn again under it, and
    so do the log's lines, written by a thread of their own (`lines_between`)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.rate = _Rate()
        self.width = 0
        self.status = ""  # the status line last drawn, "" before the first and after the end
        self._lock = threading.RLock()  # this line's writes, and the log's between them

    @contextmanager
    def lines_between(self) -> Iterator[None]:
        """Lines written to the same terminal meanwhile (by the log's writer
        thread, server.logs.QueuedStderr) start where the status line was,
        blanked, and it is drawn again under them. A server's warning (a
        deadline missed, a bot crashed) once began at the end of the status
        line, and the next status was drawn at the end of the warning's line."""
        with self._lock:
            shown = self.status
            if shown:
                self._line("")
                self.stream.write("\r")
                self.stream.flush()
            try:
                yield
            finally:
                if shown:
                    self._line(shown)

    def start(self, tournament: str, total: int, done: int) -> None:
        with self._lock:
            self.rate.begin(total, done)
            self.stream.write(f"{tournament}: {count(total, 'game')}, {done} already played\n")
            self._line(f"[{done}/{total}]")

    def game_started(self, key: str) -> None:
        return None

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        with self._lock:
            self._game_done(game, elo)

    def _game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        rate, eta = self.rate.step()
        failed = [f"{seat.bot} {seat.failure}" for seat in game.seats if seat.failure]
        if failed:  # a line of its own, with the id `sheepfold replay` takes
            self._apart(f"game {game.key} (match {game.match_id}): {', '.join(failed)}")
        figure = figure_of(game)
        bots, values = list(elo), list(elo.values())
        leaders = [(bots[i], values[i]) for i in strongest_first(bots, values)[:3]]
        board = "  ".join(
            f"{bot} {signed_elo(value) if figure == 'Elo' else f'{value:.2f}'}"
            for bot, value in leaders
        )
        self._line(
            f"[{self.rate.done}/{self.rate.total}] {rate:.2f} games/s  "
            f"ETA {format_eta(eta)}  {figure} {board}  last match {game.match_id}"
        )

    def game_error(self, key: str, error: str) -> None:
        with self._lock:
            self._apart(f"game {key} not played: {error}")
            self._line(self.status)

    def note(self, text: str) -> None:
        """Also what says, mid-run, that a write waits for another process's lock."""
        with self._lock:
            self._apart(text)
            self._line(self.status)

    def finish(self, played: int, ending: Ending) -> None:
        with self._lock:
            self.stream.write(f"\n{ending}: {count(played, 'game')} played this run\n")
            self.stream.flush()
            self.status = ""  # no line to draw again under later ones

    def _line(self, text: str) -> None:
        self.status = text
        self.width = rewrite_line(self.stream, text, self.width)

    def _apart(self, text: str) -> None:
        """`text` on a line of its own where the status line was (blanked; "\r"
        then writes from its start); the status is kept to be drawn again."""
        status = self.status
        self._line("")
        self.stream.write(f"\r{text}\n")
        self.status = status


class SilentProgress:
    def start(self, tournament: str, total: int, done: int) -> None:
        return None

    def game_started(self, key: str) -> None:
        return None

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        return None

    def game_error(self, key: str, error: str) -> None:
        return None

    def note(self, text: str) -> None:
        return None

    def finish(self, played: int, ending: Ending) -> None:
        return None


class ProblemsProgress(SilentProgress):
    """Silent but for what went wrong: a game not played (and why), a line about
    the run (a server full, or failing a game). `tournament sprt` prints its
    own line after every look, so finished games need none."""

    def __init__(self, tournament: str = "") -> None:
        self.log = structlog.get_logger("sheepfold.tournament")
        self.tournament = tournament  # a note (a lock waited for) can come before `start`

    def start(self, tournament: str, total: int, done: int) -> None:
        self.tournament = tournament

    def game_error(self, key: str, error: str) -> None:
        self.log.error("game not played", tournament=self.tournament, key=key, error=error)

    def note(self, text: str) -> None:
        self.log.warning(text, tournament=self.tournament)


class SampleProgress:
    """Follows a long bootstrap: `on_samples(done, total)` for `rate`.

    On a terminal one line, rewritten at most five times a second and blanked
    at the end; elsewhere a line every `every` seconds once the work has taken
    `quiet` seconds, so a quick report prints nothing extra.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        prefix: str = "bootstrap",
        quiet: float = 2.0,
        every: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.prefix = prefix
        self.clock = clock
        self.started = clock()
        self.quiet = quiet
        self.next_line = self.started + (0.2 if self.terminal else quiet)
        self.interval = 0.2 if self.terminal else every
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if done == 0:
            # The bootstrap starts now: the time before it (reading the database,
            # waiting for another process's lock) is no part of its ETA.
            self.started = self.clock()
            self.next_line = self.started + (0.2 if self.terminal else self.quiet)
            return
        if done >= total:
            if self.width:
                rewrite_line(self.stream, "", self.width)
                self.stream.write("\r")
                self.stream.flush()
            return
        now = self.clock()
        if now < self.next_line:
            return
        self.next_line = now + self.interval
        elapsed = now - self.started
        eta = format_eta(elapsed / done * (total - done)) if done else "--:--"
        text = f"{self.prefix}: {done:,} of {total:,} samples, ETA {eta}"
        if self.terminal:
            self.width = rewrite_line(self.stream, text, self.width)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()


def rewrite_line(stream: TextIO, text: str, width: int) -> int:
    """Write `text` over the terminal line last written `width` wide, blanking
    what is left of it; returns the new width."""
    stream.write("\r" + text + " " * max(width - len(text), 0))
    stream.flush()
    return len(text)


def draws_a_line(progress: Progress) -> bool:
    """Whether `progress` (or the Progress a TournamentMetrics wraps) draws a
    live line, which a line of the command's own must go through (its note)."""
    return terminal_line(progress) is not None


def terminal_line(progress: Progress | None) -> TerminalProgress | None:
    """The TerminalProgress `progress` is (or wraps), whose line the log's
    lines must go around; None for one that draws no line."""
    inner = getattr(progress, "inner", progress)
    return inner if isinstance(inner, TerminalProgress) else None


def choose_progress(stream: TextIO | None = None, game: str = "", tournament: str = "") -> Progress:
    """A live line on a terminal, else log lines (naming `game` and `tournament`)."""
    stream = stream or sys.stderr
    return TerminalProgress(stream) if stream.isatty() else LogProgress(game, tournament)
