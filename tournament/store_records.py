"""The plain records a tournament database holds: its tournaments, their
games and each game's seats, and the entries of its replay list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatRecord:
    bot: str
    score: float
    rank: int  # the rank the tournament counts (failed seats ranked last)
    server_rank: int  # the rank the server reported
    strikes: int
    disqualified: bool
    failure: str | None  # None, "crash", "timeout", "disqualified" or "slow"


@dataclass(frozen=True, slots=True)
class GameRecord:
    key: str
    match_id: str
    seed: int
    group: int
    rotation: int
    seats: tuple[SeatRecord, ...]
    end_reason: str
    details_json: str
    duration_seconds: float
    finished_at: float
    node: str = ""  # where it was played: "host (node 1a2b3c4d)" on Ray, "" here

    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(seat.bot for seat in self.seats)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(seat.rank for seat in self.seats)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(seat.score for seat in self.seats)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    name: str
    game: str
    players: int
    options: dict[str, str]
    anchor: str | None
    scheduled: int
    config: dict[str, Any]
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class ReplayEntry:
    """One stored game whose full record can be read with `Store.replay(match_id)`."""

    tournament: str
    key: str
    match_id: str
    game: str
    players: int
    bots: tuple[str, ...]
    finished_at: float


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The runner of a tournament as the database last heard of it
    (tournament.heartbeat)."""

    command: str  # "tournament run" or "tournament sprt"
    started_at: float
    beat_at: float  # its last heartbeat
    ended_at: float | None  # None: still at work, or killed
    decided: bool  # it ended with its SPRT over (decided, or at its game limit)


@dataclass(frozen=True, slots=True)
class InPlay:
    """A game being played now: its match created, the game not yet stored."""

    key: str
    match_id: str
    seats: tuple[str, ...]  # the seats' bots, in seat order
    node: str  # where it plays: a Ray node, "" for the runner's own process
    started_at: float
