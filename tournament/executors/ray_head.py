"""Is the Ray cluster's head still there? Asked every second during a run.

Ray's own client in the driver waits 60 s for a head that went away (its GCS
stopped answering: `ray stop` there, a crash, the machine gone), then ends the
process with its own log lines and no summary; meanwhile the run waits for
games that can no longer end. Here, the head's GCS is asked the first call
Ray's client makes (as the address check before joining does), on a thread of
its own; when it has not answered for HEAD_LOST_SECONDS (the config's
`[executor] head_timeout_seconds`, `--ray-head-timeout`), the run stops with one
line. Every game that ended before is stored, so the same command resumes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from tournament.executors.ray_address import GCS_PROBE, probe_channel

__all__ = ["HEAD_LOST_SECONDS", "HeadWatch"]

HEAD_LOST_SECONDS = 5.0
EVERY_SECONDS = 1.0
# An answer slower than this is no answer (the next call is a second later).
CALL_SECONDS = 2.0
GONE = ("UNAVAILABLE", "DEADLINE_EXCEEDED")


class HeadWatch:
    """Calls the GCS at `address` every EVERY_SECONDS; `lost()` says when it has
    not answered for `lost_after` seconds. Any reply counts as an answer, even a
    refusal: something of Ray's is there."""

    def __init__(
        self,
        address: str,
        lost_after: float = HEAD_LOST_SECONDS,
        ask: Callable[[str], str | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.lost_after = lost_after
        self._ask = ask or _ask_gcs
        self._clock = clock
        self._answered = clock()
        self._why = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> HeadWatch:
        """Watch from now on (again, for the next batch of games)."""
        self._answered = self._clock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="ray-head-watch", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(CALL_SECONDS + EVERY_SECONDS)

    def check(self) -> None:
        """Ask once: remember when the head last answered, or why it did not."""
        why = self._ask(self.address)
        if why is None:
            self._answered = self._clock()
        else:
            self._why = why

    def lost(self) -> str | None:
        """Why the run cannot go on (None: the head answered lately)."""
        silent = self._clock() - self._answered
        if silent < self.lost_after:
            return None
        return (
            f"lost the Ray cluster's head: its GCS at {self.address} has not answered "
            f"for {silent:.0f} s ({self._why or 'no answer'}); the games that ended are "
            "stored: run the same command again to resume"
        )

    def _watch(self) -> None:
        stop = self._stop
        while not stop.wait(EVERY_SECONDS):
            self.check()


def _ask_gcs(address: str) -> str | None:
    """None when the GCS at `address` answers (or refuses) the call, else why not."""
    import grpc

    channel, _token_auth = probe_channel(address)
    if channel is None:  # it cannot be asked (see probe_channel): Ray's client judges
        return None
    try:
        channel.unary_unary(GCS_PROBE.method)(GCS_PROBE.request, timeout=CALL_SECONDS)
    except grpc.RpcError as error:
        code = error.code() if callable(getattr(error, "code", None)) else None
        if code is not None and code.name in GONE:
            details = error.details() if callable(getattr(error, "details", None)) else ""
            return _reason(code.name, str(details or ""))
    except Exception:  # anything else is not the head's silence
        return None
    finally:
        channel.close()
    return None


def _reason(code: str, details: str) -> str:
    """A few words for why a call got no answer."""
    if "refused" in details.lower():
        return "connection refused"
    if code == "DEADLINE_EXCEEDED":
        return f"no reply within {CALL_SECONDS:g} s"
    return details.splitlines()[0][:120] if details else "unavailable"
