"""Event payloads of Sheep Showdown. Each has a one-sentence `text`."""

from __future__ import annotations

from dataclasses import dataclass

from games.sheep_showdown.actions import cell_name
from games.sheep_showdown.cards import CARD_NAMES
from games.words import count, noun, seats


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new round: the meadow (face up, public) and the first player."""

    round: int
    first_player: int
    size: int
    grid: tuple[int, ...]  # public card codes, row by row

    @property
    def text(self) -> str:
        size = f"{self.size}x{self.size}"
        return f"round {self.round} starts on a {size} meadow; seat {self.first_player} is first"


@dataclass(frozen=True, slots=True)
class DogPlaced:
    seat: int
    dog: int
    row: int
    col: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} placed dog {self.dog} on {cell_name(self.row, self.col)}"


# How a dog moved: HOW[i] for DogMoved.how.
MOVE_HOWS = ("step", "wolf", "rocket", "slide", "shepherd")


@dataclass(frozen=True, slots=True)
class DogMoved:
    """`dog` went from one cell to another; `by` is the seat that decided."""

    seat: int
    dog: int
    from_row: int
    from_col: int
    to_row: int
    to_col: int
    how: str  # one of MOVE_HOWS
    by: int

    @property
    def text(self) -> str:
        source = cell_name(self.from_row, self.from_col)
        target = cell_name(self.to_row, self.to_col)
        verbs = {
            "step": "stepped",
            "wolf": f"was pushed by seat {self.by}",
            "rocket": "rocketed",
            "slide": "slid",
            "shepherd": "jumped shepherd to shepherd",
        }
        return f"dog {self.dog} (seat {self.seat}) {verbs[self.how]} from {source} to {target}"


@dataclass(frozen=True, slots=True)
class CardTaken:
    """A sheep or wolf card went from the grid into `seat`'s flock (public: the
    grid is face up)."""

    seat: int
    dog: int
    card: int
    row: int
    col: int

    @property
    def text(self) -> str:
        where = cell_name(self.row, self.col)
        return f"seat {self.seat} took the {CARD_NAMES[self.card]} at {where} into the flock"


@dataclass(frozen=True, slots=True)
class ShepherdStays:
    """A shepherd card with no other free shepherd card: the dog stays."""

    seat: int
    dog: int

    @property
    def text(self) -> str:
        return f"dog {self.dog} found no free shepherd card and stays"


@dataclass(frozen=True, slots=True)
class BlockerPlaced:
    seat: int
    row: int
    col: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} blocked {cell_name(self.row, self.col)} with the blocking sheep"


@dataclass(frozen=True, slots=True)
class BlockerDiscarded:
    """A blocking sheep with no free sheep card to cover leaves the game."""

    seat: int

    @property
    def text(self) -> str:
        return f"seat {self.seat}'s blocking sheep had nowhere to go and leaves the round"


@dataclass(frozen=True, slots=True)
class BombExploded:
    seat: int  # owner of the dog that stepped on the bomb
    dog: int
    row: int
    col: int
    removed: int  # cards removed, the bomb included

    @property
    def text(self) -> str:
        removed = count(self.removed, "card")
        return f"BOOM: the bomb at {cell_name(self.row, self.col)} removed {removed}"


@dataclass(frozen=True, slots=True)
class WolfNoTarget:
    """A wolf with no opponent dog that can move: nothing more happens."""

    seat: int

    @property
    def text(self) -> str:
        return f"seat {self.seat}'s wolf finds no opponent dog to move"


# Why a dog went out: DogOut.reason.
OUT_REASONS = ("blocked", "bomb", "no_step")


@dataclass(frozen=True, slots=True)
class DogOut:
    """`blocked`: an opponent's turn left it without a step; `bomb`: blown up;
    `no_step`: it had no step at the start of its owner's turn."""

    seat: int
    dog: int
    reason: str
    by: int | None  # the seat whose turn blocked or bombed it (None for no_step)

    @property
    def text(self) -> str:
        why = {"blocked": "is blocked", "bomb": "was blown up", "no_step": "cannot move"}
        tail = f" by seat {self.by}" if self.by is not None and self.reason != "no_step" else ""
        return f"dog {self.dog} (seat {self.seat}) {why[self.reason]}{tail} and is out"


@dataclass(frozen=True, slots=True)
class PlayerOut:
    seat: int
    turn: int  # the round's turn count when the player went out

    @property
    def text(self) -> str:
        return f"seat {self.seat} is out of the round"


@dataclass(frozen=True, slots=True)
class CardStolen:
    """`thief` took a random face-down card from `victim`'s flock. `card` is None
    in the public (redacted) version; only thief and victim see it."""

    thief: int
    victim: int
    card: int | None

    @property
    def text(self) -> str:
        what = "a card" if self.card is None else f"a {CARD_NAMES[self.card]}"
        return f"seat {self.thief} stole {what} from seat {self.victim}'s flock"


@dataclass(frozen=True, slots=True)
class StealDeclined:
    """`thief` could steal from `victim`'s flock and chose not to."""

    thief: int
    victim: int

    @property
    def text(self) -> str:
        return f"seat {self.thief} declined to steal from seat {self.victim}"


@dataclass(frozen=True, slots=True)
class CardDeclined:
    """A wolf pushed `dog` onto an action card and `by` chose not to carry it out."""

    seat: int  # the dog's owner
    dog: int
    card: int
    by: int

    @property
    def text(self) -> str:
        return f"seat {self.by} did not carry out the {CARD_NAMES[self.card]} with dog {self.dog}"


@dataclass(frozen=True, slots=True)
class LastPlayer:
    """Only `seat` is still in: they make up to `steps` more steps."""

    seat: int
    steps: int

    @property
    def text(self) -> str:
        return f"seat {self.seat} is the last one in and makes {count(self.steps, 'more step')}"


# Why a round ended: RoundEnded.reason, and the words its text gives each.
END_REASONS = ("last_steps", "nobody_left", "turn_cap")
END_REASON_WORDS = {
    "last_steps": "the last one in has made their last steps",
    "nobody_left": "nobody is left in",
    "turn_cap": "the round reached its turn limit",
}


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    reason: str
    round_scores: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def text(self) -> str:
        scores = ", ".join(f"seat {seat} {score}" for seat, score in enumerate(self.round_scores))
        why = END_REASON_WORDS.get(self.reason, self.reason)
        return f"round {self.round} ends: {why}; scores this round: {scores}"


@dataclass(frozen=True, slots=True)
class GameEnded:
    totals: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def text(self) -> str:
        winners = [seat for seat, rank in enumerate(self.ranks) if rank == 1]
        return f"the game is over; {noun(len(winners), 'winner')}: {seats(winners)}"


SheepShowdownEvent = (
    RoundStarted
    | DogPlaced
    | DogMoved
    | CardTaken
    | ShepherdStays
    | BlockerPlaced
    | BlockerDiscarded
    | BombExploded
    | WolfNoTarget
    | DogOut
    | PlayerOut
    | CardStolen
    | StealDeclined
    | CardDeclined
    | LastPlayer
    | RoundEnded
    | GameEnded
)
