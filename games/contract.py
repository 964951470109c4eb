"""The engine contract every game implements.

An engine is a pure function of state and action: no I/O, no clocks, no logging.
All randomness comes from the one seeded generator that the state owns, so the
same seed, options and action sequence give the same game on any machine.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

from games.errors import IllegalAction, InvalidOptions, RulesChanged
from games.options import OptionSpec, brief, parse_options
from games.positions import whole_number

__all__ = [
    "Action",
    "Codec",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "Result",
    "RulesChanged",
    "State",
    "listed",
    "viewer",
]


@runtime_checkable
class Action(Protocol):
    """A game action: an immutable, hashable value with a short human label."""

    @property
    def label(self) -> str: ...


A = TypeVar("A", bound=Action)


def listed(legal: Sequence[A], action: object, index: Mapping[Any, A] | None = None) -> A | None:
    """The entry of `legal` that `action` names, for `State.apply` to play; None
    when there is none (apply then raises IllegalAction).

    That is `action` itself, or an equal value of the same class: one rebuilt
    from its fields, even with a field of another type that compares equal (1.0
    or True for 1), plays exactly as the listed one does. Nothing else names an
    entry: not another class, not a tuple or dict of the same fields, not an
    object that claims to equal everything. `index` (each entry mapped to
    itself) finds it in a long list without a scan.
    """
    if index is not None:
        try:
            found = index.get(action)
        except TypeError:  # unhashable, so equal to no action
            return None
        return found if type(found) is type(action) else None
    try:
        found = legal[legal.index(action)]  # by identity first, then by ==
    except ValueError:
        return None
    if type(found) is type(action):
        return found
    kind = type(action)
    for candidate in legal:
        if type(candidate) is kind and candidate == action:
            return candidate
    return None


def viewer(players: int, seat: object) -> int | None:
    """`seat` checked for `State.observation`: a seat of the game or None (a
    spectator); anything else raises ValueError (-1 would index the last seat's
    private view)."""
    if seat is None:
        return None
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    raise ValueError(
        f"no seat {brief(seat)} in a {players}-player game: "
        f"seats are 0 to {players - 1}, or None for a spectator"
    )


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as the engine reports it from `State.apply`.

    `payload` is a game-specific frozen dataclass with hashable fields (the
    server memoises event encodings by value). When `seat` is None the event
    is public. Otherwise only that seat may see `payload`; every other seat and
    every spectator sees `redacted` instead (or nothing when `redacted` is None).
    """

    payload: Any
    seat: int | None = None
    redacted: Any | None = None

    def visible_to(self, viewer: int | None) -> Any | None:
        """The payload that `viewer` (a seat, or None for a spectator) may see."""
        if self.seat is None or (viewer is not None and viewer == self.seat):
            return self.payload
        return self.redacted


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game.

    `ranks` start at 1 and are shared by tied players (competition ranking:
    1, 1, 3). `details` is JSON-serialisable and explains every score.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


class State(abc.ABC):
    """One game in progress. Mutable; `clone()` gives an independent copy."""

    players: int

    @property
    @abc.abstractmethod
    def to_move(self) -> int | None:
        """The seat that must decide now, or None when the game is over."""

    @property
    def terminal(self) -> bool:
        return self.to_move is None

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """The actions `to_move` may take, in a deterministic order; never empty
        while the game is not over."""

    @abc.abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened.

        Raises IllegalAction (and leaves the state unchanged) for an action that
        is not among `legal_actions()`: neither one of them nor an equal value
        of the same class (`listed` finds the entry to play), and for any
        action once the game is over.
        """

    @abc.abstractmethod
    def observation(self, seat: int | None) -> Any:
        """What `seat` may see now; `seat=None` is a spectator (public only).

        Raises ValueError for anything else, such as -1 (see `viewer`)."""

    @abc.abstractmethod
    def result(self) -> Result:
        """The result of a finished game (raises ValueError before the end)."""

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent deep copy, including the random generator."""

    def prompt(self) -> str:
        """A short description of the decision `to_move` faces now."""
        return ""

    def render(self) -> str:
        """A plain-text picture of the public state, for replays and test messages."""
        return repr(self)


class Codec(Protocol):
    """A game's protobuf conversion (lives in games/<game>/wire.py).

    `field` is the name of the game's member in the `oneof game` of the common
    wire messages (`Observation`, `GameAction`, `GameEvent`).
    """

    field: str

    def observation_to_proto(self, observation: Any) -> Any: ...

    def observation_bytes(self, observation: Any) -> bytes:
        """The encoding of `observation_to_proto(observation)`, what the server sends
        (`games.encoding` has the shared implementations)."""
        ...

    def action_to_proto(self, action: Action) -> Any: ...

    def event_to_proto(self, payload: Any) -> Any: ...

    # Hashable: the server keys each game's encoding memos on its codec.
    def __hash__(self) -> int: ...


class Game(abc.ABC):
    """A game definition: metadata, options and the factory for new states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # Bumped whenever a rules change makes the same seed and actions play a
    # different game; stored with every match so an old record is never replayed
    # under new rules.
    rules_version: ClassVar[int] = 1

    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game for `players` seats, deterministic from `seed` (any int).

        `options` may hold typed values or their string forms (as they arrive on
        the wire or the command line); unknown or invalid ones raise InvalidOptions.
        """
        if not whole_number(players):
            raise InvalidOptions(f"players must be a whole number, not {brief(players)}")
        if not whole_number(seed):
            # None would seed from the operating system: a game no record replays.
            raise InvalidOptions(f"seed must be a whole number, not {brief(seed)}")
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}"
            )
        # None alone means no options: `or {}` let [], '', 0 and False through as none.
        parsed = parse_options(self.option_specs, {} if options is None else options)
        self.check_options(players, parsed)
        return self._new_state(players, seed, parsed)

    def check_rules_version(self, recorded: int) -> None:
        """Raise RulesChanged unless a record made under `recorded` plays the same here."""
        if recorded != self.rules_version:
            raise RulesChanged(
                f"recorded under {self.name} rules version {recorded}, but this sheepfold "
                f"plays version {self.rules_version}: replaying it would give a different game"
            )

    def lowest_score(self, players: int) -> float | None:
        """The lowest score a seat can end a game of `players` with, where the
        rules set one (None: they set none this knows of). A report never shows
        a mean score's interval reaching below it."""
        return None

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        """Reject option combinations that do not fit the player count (none by default)."""
        return None

    @abc.abstractmethod
    def _new_state(self, players: int, seed: int, options: Mapping[str, Any]) -> State: ...

    @property
    @abc.abstractmethod
    def codec(self) -> Codec: ...
