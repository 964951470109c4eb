"""Who holds a match up, and the seat to blame when a match outlasts its time.

While the match runs, the server counts how long each seat's decisions wait
for it (`SeatInfo.thinking_seconds`), to the instant. While the match waits
for its seats to join, the runner charges the wait to the seats not there yet,
at the resolution of its polls. A bot answering slowly on purpose, every
answer inside its deadline, could otherwise make a game it is losing outlast
`match_timeout_seconds` and so void it; one joining late could spend the start
of the match's time unseen. (The runner once sampled the seat to move at each
poll instead: a bot that answered just before each poll would have had its own
time charged to its opponent.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["STALLING_SHARE", "MoveClock"]

# The share of a match's time a seat must have been to move to be blamed for
# it running out; with nobody over it (a slow machine, a stuck server) nobody is.
STALLING_SHARE = 2 / 3


@dataclass
class MoveClock:
    """Seconds each seat held the match up: the server's count of its thinking
    time, plus the waits for it to join that the polls saw."""

    waiting: dict[int, float] = field(default_factory=dict)
    thinking: dict[int, float] = field(default_factory=dict)
    _absent: tuple[int, ...] = ()
    _since: float = 0.0

    def polled(self, now: float, absent: Sequence[int], thinking: Mapping[int, float]) -> None:
        """A poll at `now`: the match waits for `absent` to join (none once it
        runs), and the server has counted `thinking` so far."""
        # Shared out: two seats late together hold the match up together.
        for seat in self._absent:
            share = (now - self._since) / len(self._absent)
            self.waiting[seat] = self.waiting.get(seat, 0.0) + share
        self._absent, self._since = tuple(absent), now
        self.thinking = dict(thinking)

    @property
    def seconds(self) -> dict[int, float]:
        seats = self.waiting.keys() | self.thinking.keys()
        return {s: self.waiting.get(s, 0.0) + self.thinking.get(s, 0.0) for s in seats}

    def staller(self, timeout: float) -> int | None:
        """The seat that held the match up for more than STALLING_SHARE of `timeout`,
        and for longer than any other seat (a tie blames nobody)."""
        ranked = sorted(self.seconds.items(), key=lambda item: item[1], reverse=True)
        if not ranked or ranked[0][1] <= STALLING_SHARE * timeout:
            return None
        if len(ranked) > 1 and ranked[1][1] >= ranked[0][1]:
            return None
        return ranked[0][0]
