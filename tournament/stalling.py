"""Who holds a match up: each seat's time as the one to move, as the runner
polls the match, and the seat to blame when a match outlasts its time.

The server keeps no total of a seat's thinking time, so the runner keeps its
own, at the resolution of its polls. A bot answering slowly on purpose, every
answer inside its deadline, could otherwise make a game it is losing outlast
`match_timeout_seconds` and so void it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["STALLING_SHARE", "MoveClock"]

# The share of a match's time a seat must have been to move to be blamed for
# it running out; with nobody over it (a slow machine, a stuck server) nobody is.
STALLING_SHARE = 2 / 3


@dataclass
class MoveClock:
    """Seconds each seat was the one to move, summed over the polls."""

    seconds: dict[int, float] = field(default_factory=dict)
    _moving: int | None = None
    _since: float = 0.0

    def polled(self, now: float, moving: int | None) -> None:
        """A poll at `now` found `moving` to move (None: nobody, or not running)."""
        if self._moving is not None:
            self.seconds[self._moving] = self.seconds.get(self._moving, 0.0) + now - self._since
        self._moving, self._since = moving, now

    def staller(self, timeout: float) -> int | None:
        """The seat that was to move for more than STALLING_SHARE of `timeout`, if any."""
        if not self.seconds:
            return None
        seat, held = max(self.seconds.items(), key=lambda item: item[1])
        return seat if held > STALLING_SHARE * timeout else None
