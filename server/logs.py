"""structlog set-up (readable lines on a terminal, JSON lines in production), and
how often an event a client can repeat is logged."""

from __future__ import annotations

import logging
import sys
from collections import OrderedDict
from typing import Any

import structlog

# Events a client can repeat at will (refusals, joins, watchers) are logged one
# by one this many times for a seat or a match, then one in a thousand, with the
# count so far: a client that keeps at it cannot fill the disk.
LOGGED_IN_FULL = 20


def worth_logging(count: int) -> bool:
    """Whether the `count`th of a repeatable event is logged."""
    return count <= LOGGED_IN_FULL or count % 1000 == 0


class Counts:
    """How often a repeatable event happened, per key (a match id), for the
    `keep` keys seen last: a client cycling through keys costs no more memory."""

    def __init__(self, keep: int = 4096) -> None:
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._keep = keep

    def add(self, key: str) -> int:
        """Count one more for `key`; returns its count so far."""
        count = self._counts.pop(key, 0) + 1
        self._counts[key] = count
        if len(self._counts) > self._keep:
            self._counts.popitem(last=False)
        return count


class LostLines:
    """Log lines that stderr would not take (a full disk under the log file, a
    closed pipe), counted until a line goes through again: a log that cannot be
    written costs its lines, never a call, a match or the server."""

    def __init__(self) -> None:
        self.count = 0
        self.error = ""

    def lost(self, error: BaseException) -> None:
        self.count += 1
        self.error = " ".join(f"{type(error).__name__}: {error}".split())[:200]

    def told(self) -> tuple[int, str] | None:
        """The lines lost since the last line written (and why), once."""
        if not self.count:
            return None
        told = (self.count, self.error)
        self.count, self.error = 0, ""
        return told


class StderrLogger:
    """Writes each line to whatever `sys.stderr` is at that moment.

    structlog's PrintLogger keeps the file object it was made with; a logger
    bound in a long-lived match would then keep writing to a stream that may be
    replaced and closed since (a test's captured stderr), and the failed write
    would take the match loop down with it. A write stderr refuses (no space
    left, a pipe whose reader has gone) loses that line and nothing else: the
    next line that goes through is followed by one saying how many were lost.
    """

    def __init__(self, lost: LostLines) -> None:
        self._lost = lost

    def msg(self, message: str) -> None:
        try:
            print(message, file=sys.stderr, flush=True)
        except (OSError, ValueError) as error:  # ValueError: stderr closed
            self._lost.lost(error)
            return
        told = self._lost.told()
        if told is not None:
            structlog.get_logger("sheepfold").warning(
                "log lines lost: stderr could not be written", lost=told[0], error=told[1]
            )

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg


class _StderrLoggers:
    """structlog's logger factory: every logger shares one count of lost lines."""

    def __init__(self) -> None:
        self._lost = LostLines()

    def __call__(self, *_args: Any) -> StderrLogger:
        return StderrLogger(self._lost)


def configure_logging(fmt: str = "auto", level: str = "info") -> None:
    """`fmt` is "console", "json" or "auto" (console on a terminal, else JSON)."""
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=_StderrLoggers(),
        cache_logger_on_first_use=False,
    )
    _route_library_logs(LIBRARY_LOGGERS)


# Libraries that log through the standard library: aiohttp (the web viewer)
# logs a traceback for every malformed request it refuses with a 400, which
# logging's last resort printed as plain text, ten lines each, into the JSON log.
LIBRARY_LOGGERS = ("aiohttp",)


class _IntoStructlog(logging.Handler):
    """A library's log records as structlog events: one line each, the error
    named without its traceback, and a message a client can repeat at will
    logged as often as `worth_logging` says."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._counts = Counts(keep=256)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        total = self._counts.add(f"{record.name}:{message}")
        if not worth_logging(total):
            return
        fields: dict[str, Any] = {"logger": record.name, "total": total}
        error = record.exc_info[1] if record.exc_info else None
        level = record.levelno
        if error is not None:
            fields["error"] = " ".join(f"{type(error).__name__}: {error}".split())[:500]
            if _clients_mistake(error):
                level = logging.WARNING
        log = structlog.get_logger(record.name)
        (log.error if level >= logging.ERROR else log.warning)(message, **fields)


def _clients_mistake(error: BaseException) -> bool:
    """aiohttp's refusal of a malformed request (named, not imported: the server
    package does not depend on the web viewer's framework)."""
    return any(cls.__name__ == "HttpProcessingError" for cls in type(error).__mro__)


def _route_library_logs(names: tuple[str, ...]) -> None:
    for name in names:
        logger = logging.getLogger(name)
        for handler in [h for h in logger.handlers if isinstance(h, _IntoStructlog)]:
            logger.removeHandler(handler)
        logger.addHandler(_IntoStructlog())
        logger.propagate = False
