"""Ray's messages to the driver about its tasks, as lines of the run's own log.

Ray's driver prints what its raylets report (a worker that died mid-game, a
task it plays again) straight to the driver's output: yellow, several hundred
characters of ids, and between the run's JSON log lines. Caught here, each
becomes one line that the run writes as it writes its other notes.
"""

from __future__ import annotations

import contextlib
import importlib
import re
from collections.abc import Iterator
from queue import Empty, SimpleQueue
from typing import Any

from games.words import count

__all__ = ["RayMessages", "one_line", "worker_died"]

# The one module function Ray's error listener thread prints through, looked up
# by name at every message, so replacing it reaches a thread already running.
PRINTER = "print_to_stdstream"
RETRIED = re.compile(r"Task \S+ failed\. There (?:are|is) (?P<left>\d+) (?:oom )?retr")
# Ray's note on the dead worker itself: the retry line, or the run's "game not
# played ... its Ray worker died" line, says the same for the game.
WORKER_DIED = "A worker died or was killed while executing a task"
LONGEST = 300


class RayMessages:
    """Holds the raylet's messages from Ray's listener thread until the run,
    on its own thread, writes them (see `drain`)."""

    def __init__(self) -> None:
        self._lines: SimpleQueue[str] = SimpleQueue()

    @contextlib.contextmanager
    def caught(self) -> Iterator[None]:
        """While inside, the raylet's messages are kept here instead of printed
        (other output Ray prints, such as a worker's own, goes on as before)."""
        try:
            worker = importlib.import_module("ray._private.worker")
        except ImportError:  # no Ray: ray.init says so
            yield
            return
        original = getattr(worker, PRINTER, None)
        if not callable(original):  # another Ray's internals: its output stays as it was
            yield
            return

        def keep(data: dict[str, Any], ignore_prefix: bool) -> None:
            if data.get("pid") != "raylet":
                original(data, ignore_prefix)
                return
            for text in data.get("lines", ()):
                line = one_line(str(text))
                if line is not None:
                    self._lines.put(line)

        setattr(worker, PRINTER, keep)
        try:
            yield
        finally:
            setattr(worker, PRINTER, original)

    def drain(self) -> list[str]:
        """The lines caught since the last call, oldest first."""
        lines: list[str] = []
        while True:
            try:
                lines.append(self._lines.get_nowait())
            except Empty:
                return lines


def one_line(text: str) -> str | None:
    """What the run says for one of Ray's messages (None: nothing, as another
    line says it)."""
    retried = RETRIED.search(text)
    if retried:
        left = int(retried["left"])
        return (
            "a Ray worker died while playing a game: Ray plays it again "
            f"({left} {'retry' if left == 1 else 'retries'} left)"
        )
    if text.lstrip().startswith(WORKER_DIED):
        return None
    words = " ".join(text.split())
    if not words:
        return None
    if len(words) > LONGEST:
        words = words[: LONGEST - 3].rstrip() + "..."
    return f"Ray: {words}"


# Where a Ray node keeps its session's logs, unless Ray was started with another --temp-dir.
NODE_LOGS = "/tmp/ray/session_latest/logs"
GONE_LOGS = (
    "Ray's logs of this run went with the run's own Ray instance (to keep them, start Ray "
    "with `ray start --head` and run with `--ray auto`)"
)


def worker_died(error: BaseException, times: int, own_instance: bool, said: str) -> str:
    """Why a game whose Ray worker (WorkerCrashedError) or node (NodeDiedError)
    died `times` times is not played; `said` is Ray's own line for `error`.
    Ray's text points at log files ("Check python-core-worker-*.log files"),
    which a run's own Ray instance (`own_instance`) has removed by the time
    anyone reads it, and on a cluster are on the node that played the game,
    not here: said so instead."""
    from ray.exceptions import WorkerCrashedError  # only once Ray has run a game

    died = f"its Ray worker died {count(times, 'time')}"
    if isinstance(error, WorkerCrashedError):
        why = "its process ended mid-game: killed, out of memory, or a crash in native code"
        where = (
            GONE_LOGS
            if own_instance
            else "its python-core-worker-*.log files are in the Ray session's logs folder on "
            f"the node that played it ({NODE_LOGS} unless Ray was started with another "
            "--temp-dir)"
        )
        return f"{died} ({why}; {where})"
    if own_instance:
        return f"{died} (its Ray node died or could not be reached; {GONE_LOGS})"
    return f"{died}: {said}"  # Ray's pointers (`ray list nodes`, the GCS logs) hold on a cluster
