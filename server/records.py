"""Plain data the server keeps about a match, shared by the stores."""

from __future__ import annotations

import enum
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from google.protobuf.message import DecodeError
from sheepfold.v1 import arena_pb2

if TYPE_CHECKING:
    from games.contract import Action, State

# The clock's bounds live apart so the command line checks them without protobuf.
from server.clock_limits import MAX_DECISION_SECONDS as MAX_DECISION_SECONDS
from server.clock_limits import MAX_STRIKES as MAX_STRIKES
from server.clock_limits import MAX_TIME_BANK_SECONDS as MAX_TIME_BANK_SECONDS
from server.clock_limits import MIN_DECISION_SECONDS as MIN_DECISION_SECONDS
from server.clock_limits import ClockConfig as ClockConfig


class Status(enum.Enum):
    """A hosted match's status, as the API gives it."""

    WAITING = arena_pb2.MATCH_STATUS_WAITING
    RUNNING = arena_pb2.MATCH_STATUS_RUNNING
    FINISHED = arena_pb2.MATCH_STATUS_FINISHED
    ABORTED = arena_pb2.MATCH_STATUS_ABORTED


class DamagedRecord(ValueError):
    """A stored match whose row cannot be read back (edited or damaged by hand);
    `game` is its game where the row still names one (for the log), else None."""

    def __init__(self, match_id: str, why: str, game: str | None = None) -> None:
        super().__init__(f"match {match_id}: its stored row is damaged ({why})")
        self.match_id = match_id
        self.game = game


def stored_result(match_id: str, blob: bytes | None) -> arena_pb2.MatchResult | None:
    """A stored match's result blob read back; DamagedRecord if it does not parse."""
    if blob is None:
        return None
    try:
        return arena_pb2.MatchResult.FromString(blob)
    except DecodeError as error:
        raise DamagedRecord(match_id, f"its result does not parse: {error}") from None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """What is fixed when a match is created: enough to rebuild it from scratch."""

    match_id: str
    game: str
    players: int
    options: dict[str, str]
    seed: int
    clock: ClockConfig
    token_hashes: tuple[str, ...]
    created_at: float
    rules_version: int = 1  # the game's Game.rules_version when the match was created


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One applied action. `forced` is "", "timeout" or "disqualified".

    `bank` is what was left of the moving seat's time bank after the move, so a
    restored match gives each seat back the bank it had, not a full one.
    """

    move: int
    seat: int
    index: int
    label: str
    forced: str = ""
    bank: float | None = None

    def action(self, state: State) -> Action:
        """The action this move played, as `state` (the game just before it)
        offers it; ValueError for one it does not offer (a row damaged or
        edited by hand): a negative index was once taken as Python takes one,
        the last action offered, replaying another game without a word."""
        actions = state.legal_actions()
        if self.seat != state.to_move or not 0 <= self.index < len(actions):
            raise ValueError(f"move {self.move} is not one the game offered")
        return actions[self.index]


@dataclass(slots=True)
class StoredMatch:
    record: MatchRecord
    moves: list[RecordedMove] = field(default_factory=list)
    status: str = "running"  # running | finished | aborted
    result: bytes | None = None  # serialized arena_pb2.MatchResult
    end_reason: str = ""
    # Whether any seat ever joined. Where that is not known (a match stored
    # before it was recorded) it counts as joined: see Match.ever_joined.
    seat_joined: bool = True
    # The seats whose join was stored (none known for a match stored before
    # they were: its seats that answered a decision joined, see Match.replay).
    joined_seats: frozenset[int] = frozenset()


def new_match_seed() -> int:
    """A match seed nobody can guess: it fixes every hidden card and the engines
    are public, so a range small enough to try (32 bits) gives a bot its deal."""
    return secrets.randbits(63)


def new_seat_token() -> str:
    """A fresh seat token (32 URL-safe characters, 192 random bits) that never
    starts with "-", which command lines would read as an option."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match without its moves: what GetMatch and ListMatches show of a
    match this server no longer hosts, read without replaying the game."""

    record: MatchRecord
    status: str  # running | finished | aborted
    result: bytes | None
    end_reason: str
    moves: int


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
