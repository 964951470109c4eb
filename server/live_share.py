"""Live-match places, shared between the client addresses that create matches
on a server without an admin token.

There anyone may create matches, and a match holds its place until its end is
written: one client creating `--max-live-matches` matches with the longest
clocks, joining a seat of each and staying silent, held every place for days
while everyone else was refused. So the places are shared by the fair-share
rule of server/fair_share.py, with no bound of its own per address and the cap
at half the places (rounded up): while the server is less than half full anyone creates;
past that an address is let in only while it holds less than its share of
what is left. A client alone on a quiet server gets half the places (the
benchmarks' 500 matches from one address against the default 10,000 are never
refused), and a second address still finds room once the first stops. A
server with an admin token does not share them: only its admin creates.

A match counts against its creator's address (IPv6 by its /64 network, as in
server/unplayed.py) from the moment its CreateMatch is let in, so creates
waiting on a locked database count too (those whose callers gave up on them
as well), until its end is written. The address is then recorded on the
match (`Match.creator`), where the bound on matches nobody plays reads it
too. Matches restored at start count against nobody: their creators are not
stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.words import counted
from server.fair_share import FairShare, Over, Tally

if TYPE_CHECKING:
    from server.match import Match


def full_server(places: int) -> str:
    """Why nobody may create a match on a server hosting its `places` live ones."""
    return f"the server already hosts {counted(places, 'live match', 'live matches')}"


class LiveShares:
    """The live matches each creating address holds, within its fair share."""

    def __init__(self, max_live_matches: int) -> None:
        self.max_live_matches = max_live_matches
        # Half rounded up, and the places themselves the ceiling (`refusal`): the
        # bound's own is twice its cap, and of an odd count rounded down to
        # half that left the last place to nobody.
        half = max(1, (max_live_matches + 1) // 2)
        self.bound = FairShare(max(1, max_live_matches), half)
        self._held = Tally()

    def held(self, address: str) -> int:
        return self._held[address]

    def refusal(self, address: str) -> str | None:
        """Why `address` may not create a match now, or None if it may."""
        held, total = self._held[address], self._held.total
        if total >= self.max_live_matches:
            return full_server(self.max_live_matches)
        # Its other bounds (per address, the ceiling) are the places or more: met above.
        if self.bound.over(held, total, self._held.sharing(address)) is not Over.SHARE:
            return None
        return (
            f"the server is crowded ({total:,} of its {self.max_live_matches:,} live-match "
            f"places are taken) and this address holds its share of them ({held:,}); "
            f"try again once some of its matches have ended"
        )

    def place(self, address: str) -> tuple[Callable[[Match], None], Callable[[], None]]:
        """A place taken for `address` as its match is created; what the
        registry then calls (`MatchRegistry.add`): once the match is hosted
        (`address` is recorded as its creator, and the place is the match's
        until `ended`), or once it will not be (the place is given back). A
        create its caller gave up on while its row
        waited for a locked database keeps its place until the write ends: it
        may still be hosted, and a client cancelling every create once took
        places past its share."""
        self._held.add(address)

        def hosted(match: Match) -> None:
            match.creator = address

        def given_up() -> None:
            self._held.remove(address)

        return hosted, given_up

    def ended(self, match: Match) -> None:
        """`match`'s loop has ended (over, or failed): its place is free. Told
        once for each hosted match (`MatchRegistry.match_done`)."""
        if match.creator is not None:
            self._held.remove(match.creator)
