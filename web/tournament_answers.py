"""The tournament pages' answers, shared by every client asking the same page
at about the same time (web.shared_answers)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

from web.shared_answers import PageAnswer, SharedAnswers
from web.turns import Turns

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Pages asking the same tournament page, its fragment or the list within this
# long share one answer: its database read, its "Now playing" and its gzip.
# Each cost the process that may run the game server several milliseconds a
# request, and 20 clients polling them at 192 requests a second took the
# matches it played from 1,134 decisions a second to 25.
KEEP_SECONDS = 1.0
KEPT = 8  # answers kept of each kind (a tournament's page is up to a megabyte)
# A load no other request shares (a tournament no one asked within the
# second, a name of no tournament) waits for its turn (web.turns): 20 clients
# asking a made-up name each time took 2 ms of CPU a request, 520 a second.
GAP_SECONDS = 1 / 32  # between two loads, in all
ADDRESS_GAP_SECONDS = 1 / 8  # between two loads for one client address


@dataclass(frozen=True, slots=True)
class FragmentAnswer:
    page: PageAnswer
    etag: str
    running: bool
    state_text: str


@dataclass
class TournamentAnswers(Turns):
    """The tournament pages' shared answers (web.shared_answers), loaded in
    turn (web.turns)."""

    what: str = field(default="tournament pages", kw_only=True)
    gap_seconds: float = field(default=GAP_SECONDS, kw_only=True)
    address_gap_seconds: float = field(default=ADDRESS_GAP_SECONDS, kw_only=True)
    keep_seconds: float = KEEP_SECONDS
    lists: SharedAnswers[None, PageAnswer] = field(default_factory=lambda: SharedAnswers(1))
    pages: SharedAnswers[tuple[int, str], PageAnswer] = field(
        default_factory=lambda: SharedAnswers(KEPT)
    )
    fragments: SharedAnswers[tuple[int, str], FragmentAnswer] = field(
        default_factory=lambda: SharedAnswers(KEPT)
    )

    async def get(
        self,
        shared: SharedAnswers[K, V],
        key: K,
        load: Callable[[], Awaitable[V]],
        address: str,
    ) -> V:
        """`shared`'s answer for `key`, loaded by `load` at `address`'s turn
        when no other request's is kept or under way at an earlier turn (a
        503 GatewayError when that turn is too far off)."""
        return await shared.get(key, load, self.keep_seconds, self, address)
