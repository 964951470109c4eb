"""Who holds a match up: each seat's time as the one to move (or as a seat the
match is still waiting for), as the runner polls the match, and the seat to
blame when a match outlasts its time.

The server keeps no total of a seat's thinking time, so the runner keeps its
own, at the resolution of its polls. A bot answering slowly on purpose, every
answer inside its deadline, could otherwise make a game it is losing outlast
`match_timeout_seconds` and so void it; one joining late is charged for the
wait, or it could spend the start of the match's time unseen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["STALLING_SHARE", "MoveClock"]

# The share of a match's time a seat must have been to move to be blamed for
# it running out; with nobody over it (a slow machine, a stuck server) nobody is.
STALLING_SHARE = 2 / 3


@dataclass
class MoveClock:
    """Seconds each seat held the match up, summed over the polls: as the seat to
    move while it runs, or as a seat not yet there while it waits for its seats."""

    seconds: dict[int, float] = field(default_factory=dict)
    _holding: tuple[int, ...] = ()
    _since: float = 0.0

    def polled(self, now: float, holding: Sequence[int]) -> None:
        """A poll at `now` found `holding` holding the match up (none: nobody)."""
        for seat in self._holding:
            self.seconds[seat] = self.seconds.get(seat, 0.0) + now - self._since
        self._holding, self._since = tuple(holding), now

    def staller(self, timeout: float) -> int | None:
        """The seat that held the match up for more than STALLING_SHARE of `timeout`."""
        if not self.seconds:
            return None
        seat, held = max(self.seconds.items(), key=lambda item: item[1])
        return seat if held > STALLING_SHARE * timeout else None
