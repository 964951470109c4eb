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

from collections import Counter
from collections.abc import Iterable

from tournament.schedule import ScheduledGame

__all__ = ["DealTurns"]


class DealTurns:
    """Pending games, taken in schedule order except that a game waits while one
    of its bots plays its deal elsewhere."""

    def __init__(self, pending: Iterable[ScheduledGame]) -> None:
        self._pending = list(pending)
        self._playing: Counter[tuple[int, str]] = Counter()

    @property
    def left(self) -> int:
        """Games not yet taken."""
        return len(self._pending)

    def take(self) -> ScheduledGame | None:
        """The first pending game that may start now, or None (none, or all must wait)."""
        for index, game in enumerate(self._pending):
            if not any((game.seed, bot) in self._playing for bot in game.seats):
                del self._pending[index]
                self._playing.update((game.seed, bot) for bot in game.seats)
                return game
        return None

    def done(self, game: ScheduledGame) -> None:
        """`game` has ended (played or not): its bots may play its deal again."""
        self._playing.subtract((game.seed, bot) for bot in game.seats)
        self._playing += Counter()  # drops the pairs now at zero
