"""The standard streams of the `sheepfold` program, made safe before a command runs.

A command started with one of them closed (`2>&-`, `>&-`, a supervisor that
closes them) once stopped at its first line of log with exit 1 and nothing said
(Python leaves `sys.stderr` None), and the first file it opened took the free
descriptor, so that whatever wrote to "stderr" (gRPC's core writes its errors
to descriptor 2 itself) wrote into that file. A stdout that refuses a write
(`>/dev/full`) stopped it with a traceback, and one on stderr (`2>/dev/full`)
stopped it at its first line there, whatever it had done.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["OutputFailed", "discard_output", "errors_to", "hold_standard_streams"]


class OutputFailed(OSError):
    """stdout refused what the command wrote: a full disk, a closed descriptor.
    An OSError still, for the callers that already take a lost line in stride."""


def hold_standard_streams() -> None:
    """Open each of descriptors 0, 1 and 2 that is closed on /dev/null, and route
    stdout's write errors through OutputFailed.

    A closed stderr then takes the command's lines and drops them; the command
    runs as it would otherwise. A closed stdout is opened read-only, so that
    output the command has no way to deliver fails as on a full disk instead of
    vanishing with exit 0."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_RDONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            opened = os.open(os.devnull, mode)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
    if sys.stdin is None:
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 (for the whole run)
    if sys.stderr is None:
        sys.stderr = open(2, "w", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 (for the whole run)
    sys.stdout = _GuardedOutput(sys.stdout)
    sys.stderr = _LossyErrors(sys.stderr)


def discard_output() -> None:
    """Point stdout at /dev/null: what is still buffered for a reader that left,
    or a disk that is full, goes nowhere instead of failing again at exit."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class _GuardedOutput:
    """A text stream whose write errors are OutputFailed; BrokenPipeError (a
    reader that left, `| head`) stays itself, as main tells that one apart."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _refusals():
            return self._stream.write(text)

    def flush(self) -> None:
        with _refusals():
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _LossyErrors:
    """stderr, whose write errors (a full disk, a reader that left) lose the
    line and nothing else: a tournament whose summary line could not be written
    once exited 1 after playing every game, its report never printed. `serve`
    and the tournament runner write their logs to the descriptor themselves
    (server.logs), and count the lines lost."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    try:
        yield
    except (BrokenPipeError, OutputFailed):
        raise
    except OSError as error:
        raise OutputFailed(error.errno, error.strerror or str(error)) from None


def errors_to(fd: int) -> None:
    """`sys.stderr` writes to descriptor `fd` from now on (its write errors lost
    as before), while descriptor 2 is left to whoever holds it."""
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    stream = open(fd, "w", encoding=encoding, errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    sys.stderr = _LossyErrors(stream)
