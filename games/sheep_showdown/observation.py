"""What a seat or a spectator sees (the observation record) and the text views
of the state: prompt and render."""

from __future__ import annotations

from dataclasses import dataclass

from games.contract import viewer
from games.sheep_showdown import cards as C
from games.sheep_showdown import decisions
from games.sheep_showdown.fields import SheepShowdownFields


@dataclass(frozen=True, slots=True)
class DogView:
    dog: int
    owner: int
    row: int | None  # None before the dog is placed
    col: int | None
    out: bool


@dataclass(frozen=True, slots=True)
class SheepShowdownObservation:
    """What one seat (or a spectator, seat None) may see."""

    seat: int | None
    players: int
    double_trouble: bool
    size: int
    round: int
    rounds: int
    first_player: int
    to_move: int | None
    turn_player: int | None
    decision: str  # one of DECISIONS
    decision_dog: int | None  # the dog the pending decision is about
    grid: tuple[int, ...]  # card code per cell, row by row; BLOCKED for covered cards
    dogs: tuple[DogView, ...]
    flock_sizes: tuple[int, ...]
    own_flock: tuple[int, ...]  # sorted card codes; empty for a spectator
    totals: tuple[int, ...]  # sum of finished rounds
    round_scores: tuple[tuple[int, ...], ...]  # per finished round, per seat
    players_in: tuple[bool, ...]
    turn: int  # turns started this round
    turn_cap: int
    last_player: int | None  # the one player left, making the last steps
    last_steps_left: int
    # Public, and needed to rebuild the exact decision (search bots sample from it):
    out_at_turn: tuple[int, ...] = ()  # per seat: the turn it went out (0 while still in)
    used_rockets: tuple[tuple[int, int], ...] = ()  # rockets the moving dog's chain used
    # The opponents' dogs that had a legal step when this turn began: only those
    # can be blocked by this turn's mover.
    free_at_turn_start: tuple[int, ...] = ()
    steal_from: tuple[int, ...] = ()  # STEAL: the victims still to decide, first is now
    entered_direction: int | None = None  # USE_CARD: the direction the pushed dog moved


class Views(SheepShowdownFields):
    """Observation, prompt and render; mixed into SheepShowdownState."""

    def _public_grid(self) -> tuple[int, ...]:
        return tuple(C.BLOCKED if card >= C.BLOCKED_FLAG else card for card in self.grid)

    def observation(self, seat: object) -> SheepShowdownObservation:
        seat = viewer(self.players, seat)
        size = self.size
        per = self.dogs_per
        dogs = tuple(
            DogView(
                dog,
                dog // per,
                cell // size if cell >= 0 else None,
                cell % size if cell >= 0 else None,
                self.out[dog],
            )
            for dog, cell in enumerate(self.pos)
        )
        over = self.pending == decisions.NONE
        return SheepShowdownObservation(
            seat=seat,
            players=self.players,
            double_trouble=self.dt,
            size=size,
            round=self.round,
            rounds=self.rounds,
            first_player=self.first_player,
            to_move=self.to_move,
            turn_player=self.turn_player,
            decision=decisions.DECISIONS[self.pending],
            decision_dog=None if over or self.moving < 0 else self.moving,
            grid=self._public_grid(),
            dogs=dogs,
            flock_sizes=tuple(len(flock) for flock in self.flocks),
            own_flock=tuple(sorted(self.flocks[seat])) if seat is not None else (),
            totals=tuple(self.totals),
            round_scores=tuple(
                tuple(rec["round_score"] for rec in per_round) for per_round in self.records
            ),
            players_in=tuple(at is None for at in self.out_at),
            turn=self.clock,
            turn_cap=self.cap,
            last_player=self.bonus_player,
            last_steps_left=self.bonus_left if self.bonus_player is not None else 0,
            out_at_turn=tuple(at if at is not None else 0 for at in self.out_at),
            used_rockets=tuple(divmod(cell, size) for cell in sorted(self.rockets)),
            free_at_turn_start=tuple(
                dog for dog in range(len(self.pos)) if self.began_free >> dog & 1
            ),
            steal_from=tuple(self.steal_queue) if self.pending == decisions.STEAL else (),
            entered_direction=self.entered if self.pending == decisions.USE_CARD else None,
        )

    def prompt(self) -> str:
        kind = self.pending
        dog = self.moving
        if kind == decisions.NONE:
            return "the game is over"
        if kind == decisions.PLACE:
            return f"choose a shepherd card for dog {dog}"
        if kind == decisions.CHOOSE_DOG:
            return "choose which of your dogs moves"
        if kind == decisions.STEP:
            return f"choose where dog {dog} steps"
        if kind == decisions.SHEPHERD:
            return f"choose the shepherd card dog {dog} moves to"
        if kind == decisions.ROCKET:
            return f"choose the direction dog {dog} rockets"
        if kind == decisions.BLOCKER:
            return "choose the sheep card to cover with the blocking sheep"
        if kind == decisions.WOLF_DOG:
            return "choose the opponent dog your wolf moves"
        if kind == decisions.STEAL:
            return f"steal a random card from seat {self.steal_queue[0]}'s flock or decline"
        if kind == decisions.USE_CARD:
            card = C.CARD_NAMES[self.grid[self.pos[dog]]]
            return f"carry out the {card} with dog {dog} or decline"
        return f"choose where the wolf moves dog {dog}"

    def render(self) -> str:
        size = self.size
        lines = [
            f"Sheep Showdown round {self.round}/{self.rounds}, turn {self.clock}, "
            f"first player {self.first_player}, totals {self.totals}"
        ]
        public = self._public_grid()
        header = "   " + " ".join(chr(ord("a") + col) + " " for col in range(size))
        lines.append(header)
        for row in range(size):
            cells = []
            for col in range(size):
                cell = row * size + col
                dog = self.occ[cell]
                mark = str(dog) if dog >= 0 else " "
                if dog >= 0 and self.out[dog]:
                    mark = "x"
                cells.append(C.CARD_CHARS[public[cell]] + mark)
            lines.append(f"{row + 1:>2} " + " ".join(cells))
        lines.append("flock sizes: " + ", ".join(str(len(f)) for f in self.flocks))
        if self.pending != decisions.NONE:
            lines.append(f"seat {self.decider}: {self.prompt()}")
        return "\n".join(lines)
