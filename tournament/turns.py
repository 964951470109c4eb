"""The order games are handed out in while a tournament plays: no bot ever
plays two games of one deal at the same time.

Every group plays the same deals, and a 2-player pair plays each deal twice,
seats swapped, one game right after the other in the schedule. Played at the
same time, two copies of one bot could tell each other what they hold through
the kernel they share (a file lock on a file every sandbox sees is enough), and
each would then know its opponent's hand. Played one after the other, the
first copy is gone before the second starts, and a sandboxed bot keeps nothing.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from tournament.schedule import ScheduledGame

__all__ = ["DealTurns"]


def _claims(game: ScheduledGame) -> tuple[tuple[int, str], ...]:
    """What a game holds while it is played: its deal, for each of its bots."""
    return tuple((game.seed, bot) for bot in game.seats)


class DealTurns:
    """Pending games, taken in schedule order except that a game waits while one
    of its bots plays its deal elsewhere."""

    def __init__(self, pending: Iterable[ScheduledGame]) -> None:
        # A deque: the game taken is nearly always one of the first, and a million
        # games would make every removal from the front of a list a long copy.
        self._pending = deque((game, _claims(game)) for game in pending)
        self._playing: Counter[tuple[int, str]] = Counter()

    @property
    def left(self) -> int:
        """Games not yet taken."""
        return len(self._pending)

    def take(self) -> ScheduledGame | None:
        """The first pending game that may start now, or None (none, or all must wait)."""
        playing = self._playing.keys()
        for index, (game, claims) in enumerate(self._pending):
            if playing.isdisjoint(claims):
                del self._pending[index]
                self._playing.update(claims)
                return game
        return None

    def done(self, game: ScheduledGame) -> None:
        """`game` has ended (played or not): its bots may play its deal again."""
        for claim in _claims(game):
            self._playing[claim] -= 1
            if self._playing[claim] <= 0:
                del self._playing[claim]
