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


class StderrLogger:
    """Writes each line to whatever `sys.stderr` is at that moment.

    structlog's PrintLogger keeps the file object it was made with; a logger
    bound in a long-lived match would then keep writing to a stream that may be
    replaced and closed since (a test's captured stderr), and the failed write
    would take the match loop down with it.
    """

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg


def _stderr_logger(*_args: Any) -> StderrLogger:
    return StderrLogger()


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
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
