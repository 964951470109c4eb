"""The servers a Ray run spreads its games over (`--server A,B`): which are
still in use, which were dropped and why, and which games wait for room.

A server that dies or cannot be reached any more is dropped for the rest of
the run, with its reason; its games in flight are played again on the others.
One that failed a game but answered its health check again (a hiccup: a reset
connection, a quick restart, see tournament.server_check) stays in use, and
the game is played again; a game whose servers hiccup MAX_HICCUPS times is
not played this run, so a server that fails every game yet says it is healthy
cannot keep a run going for ever.
Only when none is left does the run stop, in one line. Nothing of this is
stored: a resume uses every server given again. A server at its match limit
is not dropped: its games wait for room (tournament.room).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import words
from tournament.progress import Progress, note_on
from tournament.room import RoomWait, room_wait, waiting_line
from tournament.run_error import RunError
from tournament.server_check import MAX_HICCUPS

__all__ = ["ServerPool"]


@dataclass(slots=True)
class ServerPool:
    """Hands out the servers in turn, skipping dropped ones."""

    servers: tuple[str, ...]
    match_timeout_seconds: float = 600.0  # how long a game waits for room in all
    dropped: dict[str, str] = field(default_factory=dict)  # server -> why, in drop order
    turn: int = 0
    rooms: dict[str, RoomWait] = field(default_factory=dict)  # game key -> its waits
    full: set[str] = field(default_factory=set)  # servers said to be full (once a run)
    hiccups: dict[str, int] = field(default_factory=dict)  # game key -> hiccups so far
    shaky: set[str] = field(default_factory=set)  # servers said to hiccup, since their last game

    @property
    def live(self) -> tuple[str, ...]:
        return tuple(server for server in self.servers if server not in self.dropped)

    def next(self) -> str | None:
        """The next live server; None when the games host servers of their own."""
        live = self.live
        if not live:
            return None
        server = live[self.turn % len(live)]
        self.turn += 1
        return server

    def drop(self, progress: Progress, server: str, why: str) -> None:
        """Drop `server` for the rest of the run, saying so once; its game is
        then played again at once on another. RunError when none is left."""
        if server not in self.dropped:
            self.dropped[server] = why
            if self.live:
                note_on(
                    progress,
                    f"dropped the server at {server} for the rest of this run ({why}); "
                    f"its games are played on {', '.join(self.live)}",
                )
        if not self.live and len(self.servers) == 1:
            raise RunError(why)
        if not self.live:
            reasons = "; ".join(f"{address}: {reason}" for address, reason in self.dropped.items())
            raise RunError(f"no server left to play on, every --server was dropped ({reasons})")

    def hiccup(self, progress: Progress, key: str, server: str, why: str) -> str | None:
        """Game `key` failed on `server`, which answers again: None, the game is
        played again at once (the server stays in use); once the game has
        hiccuped MAX_HICCUPS times, why it is not played this run."""
        count = self.hiccups.get(key, 0) + 1
        self.hiccups[key] = count
        if count >= MAX_HICCUPS:
            del self.hiccups[key]
            return (
                f"{why}; its server answered again each time, but the game failed "
                f"{words.count(count, 'time')}: a resume plays it"
            )
        if server not in self.shaky:
            self.shaky.add(server)
            note_on(
                progress,
                f"the server at {server} failed a game but answers again ({why}): "
                "it stays in use, and its games that failed are played again",
            )
        return None

    def played(self, key: str, server: str | None) -> None:
        """Game `key` was played on `server`: it waits no more, and a later
        hiccup of that server is told again."""
        self.rooms.pop(key, None)
        self.hiccups.pop(key, None)
        self.shaky.discard(server or "")

    def wait_for_room(self, progress: Progress, key: str, server: str, details: str) -> float | str:
        """Seconds before game `key` tries again after `server` was full; once
        it waited its limit, why it is not played."""
        wait = self.rooms.setdefault(key, room_wait(self.match_timeout_seconds))
        delay = wait.next_delay()
        if delay is None:
            del self.rooms[key]
            return wait.gave_up(server, details)
        if server not in self.full:
            self.full.add(server)
            note_on(progress, waiting_line(server, details))
        return delay
