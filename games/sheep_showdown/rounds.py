"""The turn-order and end-of-round stage: who moves next, the last player's
extra steps, the turn cap, round scoring and the next round's first player."""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.decisions import (
    CHOOSE_DOG,
    LAST_STEPS,
    NO_ROCKETS,
    NONE,
    STEP,
)
from games.sheep_showdown.events import (
    DogOut,
    GameEnded,
    LastPlayer,
    PlayerOut,
    RoundEnded,
)
from games.sheep_showdown.fields import SheepShowdownFields


class Rounds(SheepShowdownFields):
    """Turn order and round ends; mixed into SheepShowdownState."""

    def _advance(self, previous: int) -> None:
        """Start the next turn after `previous`'s, or end the round.

        "The round is played until only one player can still move freely. That
        player must make two more moves": once at most one player still in has a
        dog with a step, the others are out at once (nobody blocked them: no
        steal). Left to the start of their own turns, the last player would
        first play a turn of their own, and make three moves."""
        players_in = [seat for seat in range(self.players) if self.out_at[seat] is None]
        if self.bonus_player is None:
            # A lone player with no step left (their own move blocked the others
            # and left them stuck) is out in this turn too, like players who are
            # stuck beside them: nobody can move freely, the round is over.
            free = [seat for seat in players_in if self._movable_dogs(seat)]
            if len(free) <= 1:
                for seat in players_in:
                    if seat not in free:
                        self._out_stuck(seat, self._alive_dogs(seat))
                players_in = free
        if not players_in:
            self._end_round("nobody_left")
            return
        if len(players_in) == 1:
            seat = players_in[0]
            if self.bonus_player is None:
                # The last player is the one who "can still move freely".
                self.bonus_player = seat
                self.bonus_left = LAST_STEPS
                self._emit(LastPlayer(seat, LAST_STEPS))
            elif self.bonus_left <= 0:
                self._end_round("last_steps")
                return
            self._start_turn(seat)
            return
        for offset in range(1, self.players + 1):
            seat = (previous + offset) % self.players
            if self.out_at[seat] is None:
                self._start_turn(seat)
                return

    def _start_turn(self, seat: int) -> None:
        if self.clock >= self.cap:
            self._end_round("turn_cap")
            return
        self.clock += 1
        movable = self._movable_dogs(seat)
        stuck = [dog for dog in self._alive_dogs(seat) if dog not in movable]
        if not movable:
            self._out_stuck(seat, stuck)
            if self.bonus_player == seat:
                self.bonus_left = 0
            self._advance(seat)
            return
        for dog in stuck:  # Double Trouble: a stuck dog is out, the other plays on
            self.out[dog] = True
            self._emit(DogOut(seat, dog, "no_step", None))
        self.turn_player = seat
        self.decider = seat
        self.rockets = NO_ROCKETS
        per = self.dogs_per
        free = 0
        for dog in range(len(self.pos)):
            if dog // per != seat and not self.out[dog] and self.has_step(dog):
                free |= 1 << dog
        self.began_free = free
        if len(movable) > 1:
            self.pending = CHOOSE_DOG
            self.moving = -1
        else:
            self.pending = STEP
            self.moving = movable[0]

    def _movable_dogs(self, seat: int) -> list[int]:
        return [dog for dog in self._alive_dogs(seat) if self.has_step(dog)]

    def _out_stuck(self, seat: int, dogs: list[int]) -> None:
        """`seat`, whose every dog left (`dogs`) has no step, is out (no steal)."""
        for dog in dogs:
            self.out[dog] = True
            self._emit(DogOut(seat, dog, "no_step", None))
        self.out_at[seat] = self.clock
        self._emit(PlayerOut(seat, self.clock))

    def _end_round(self, reason: str) -> None:
        self.pending = NONE
        self.moving = -1
        self.decider = -1
        self.turn_player = None
        records = []
        scores = []
        for seat in range(self.players):
            flock = self.flocks[seat]
            sheep = sum(C.SHEEP_POINTS.get(card, 0) for card in flock)
            wolves = flock.count(C.WOLF)
            score = sheep - wolves
            scores.append(score)
            self.totals[seat] += score
            records.append(
                {
                    "round": self.round,
                    "sheep_points": sheep,
                    "wolves": wolves,
                    "round_score": score,
                    "out_at_turn": self.out_at[seat],
                }
            )
        self.records.append(records)
        self._emit(RoundEnded(self.round, reason, tuple(scores), tuple(self.totals)))
        if self.round >= self.rounds:
            result = self.result()
            self._emit(GameEnded(tuple(self.totals), result.ranks))
            return
        self.first_player = self._next_first_player()
        self._start_round()

    def _next_first_player(self) -> int:
        best = None
        for offset in range(1, self.players + 1):
            seat = (self.first_player + offset) % self.players
            if best is None or self.totals[seat] < self.totals[best]:
                best = seat
        assert best is not None
        return best
