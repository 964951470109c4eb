"""Waiting for room on a server at its match limit.

A server started with `serve --max-live-matches N` answers CreateMatch with
RESOURCE_EXHAUSTED while it hosts N live matches. That is no fault of the game:
room comes back as the server's other matches end. So a game waits and tries
again, after doubling delays (FIRST_WAIT, twice that, ... at most LONGEST_WAIT
each), and is not played only after waiting `match_timeout_seconds` in all (a
match still running that long is itself cut short). The runner (local) and the
Ray driver keep one `RoomWait` per waiting game; nothing is counted until the
game is played.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FIRST_WAIT", "LONGEST_WAIT", "RoomWait", "ServerFull", "room_wait", "waiting_line"]

FIRST_WAIT = 0.5
LONGEST_WAIT = 15.0
WAIT_LIMIT: float | None = None  # seconds in all; None: the config's match_timeout_seconds


class ServerFull(Exception):
    """CreateMatch answered RESOURCE_EXHAUSTED: the server hosts its limit of matches."""

    def __init__(self, address: str, details: str) -> None:
        super().__init__(f"the server at {address} is full: {details}")
        self.address = address
        self.details = details


@dataclass(slots=True)
class RoomWait:
    """One game's waits for room: doubling delays, at most `limit` seconds in all."""

    limit: float
    first: float = FIRST_WAIT
    longest: float = LONGEST_WAIT
    waited: float = 0.0
    delay: float = 0.0

    def next_delay(self) -> float | None:
        """Seconds to wait before trying again; None once the limit is spent."""
        if self.waited >= self.limit:
            return None
        self.delay = self.first if self.delay == 0 else min(2 * self.delay, self.longest)
        delay = min(self.delay, self.limit - self.waited)
        self.waited += delay
        return delay

    def gave_up(self, address: str, details: str) -> str:
        """Why the game is not played after all."""
        return (
            f"the server at {address} stayed full for {self.waited:g} s ({details}); "
            "a resume plays the game"
        )


def room_wait(match_timeout_seconds: float) -> RoomWait:
    limit = WAIT_LIMIT if WAIT_LIMIT is not None else match_timeout_seconds
    return RoomWait(limit, FIRST_WAIT, LONGEST_WAIT)


def waiting_line(address: str, details: str) -> str:
    """The progress line, once a run, when games first wait for room on `address`."""
    return (
        f"waiting for room on the server at {address} ({details}): its games "
        "try again as its matches end"
    )
