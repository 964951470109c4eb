"""The end-of-chain stage: dogs the mover blocked go out, players with no dog
left go out, and the mover may steal from each player who lost a dog."""

from __future__ import annotations

from games.sheep_showdown.actions import (
    Steal,
)
from games.sheep_showdown.decisions import (
    NO_ROCKETS,
    NONE,
    STEAL,
)
from games.sheep_showdown.events import (
    CardStolen,
    DogOut,
    PlayerOut,
    StealDeclined,
)
from games.sheep_showdown.fields import SheepShowdownFields


class Stealing(SheepShowdownFields):
    """Blocking and stealing after a chain; mixed into SheepShowdownState."""

    def _chain_done(self) -> None:
        """The turn's whole chain is over: blocked dogs, then the mover's steals.

        Only a dog that could step when the turn began and cannot now was blocked
        by the mover; one already stuck goes out at the start of its own turn."""
        self.pending = NONE
        self.moving = -1
        self.exclude = -1
        self.rockets = NO_ROCKETS
        mover = self.turn_player
        assert mover is not None
        self.decider = mover
        per = self.dogs_per
        lost = list(self.bomb_out)
        self.bomb_out = []
        free = self.began_free
        for dog in range(len(self.pos)):
            if (
                not self.out[dog]
                and dog // per != mover
                and free >> dog & 1
                and not self.has_step(dog)
            ):
                self.out[dog] = True
                lost.append(dog)
                self._emit(DogOut(dog // per, dog, "blocked", mover))
        self._mark_players_out()
        self.steal_queue = [dog // per for dog in lost if dog // per != mover]
        self._next_steal()

    def _next_steal(self) -> None:
        """Ask the mover about the next victim with a non-empty flock, or end the turn.

        Every victim whose flock is empty now leaves the queue, not only the
        first: the queue is the observation's `steal_from`, the seats that will
        still be asked (a flock only shrinks while the mover steals)."""
        queue = self.steal_queue
        queue[:] = [victim for victim in queue if self.flocks[victim]]
        if queue:
            self.pending = STEAL
            self.moving = -1
            return
        self.pending = NONE
        mover = self.turn_player
        assert mover is not None
        if self.bonus_player is not None and mover == self.bonus_player:
            self.bonus_left -= 1
        self._advance(mover)

    def _do_steal(self, action: Steal) -> None:
        thief = self.decider
        victim = self.steal_queue.pop(0)
        if action.take:
            self._steal(thief, victim)
        else:
            self._emit(StealDeclined(thief, victim))
        self._next_steal()

    def _steal(self, thief: int, victim: int) -> None:
        flock = self.flocks[victim]
        card = flock.pop(self.rng.randrange(len(flock)))
        self.flocks[thief].append(card)
        full = CardStolen(thief, victim, card)
        self._emit(full, seat=thief, redacted=CardStolen(thief, victim, None))
        self._emit(full, seat=victim, redacted=None)

    def _mark_players_out(self) -> None:
        for seat in range(self.players):
            if self.out_at[seat] is None and not self._alive_dogs(seat):
                self.out_at[seat] = self.clock
                self._emit(PlayerOut(seat, self.clock))
