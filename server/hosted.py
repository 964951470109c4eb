"""The hosted matches, kept in the order ListMatches answers in, per game and
status: a listing reads only the first matches of the few lists it asks for.

ListMatches once looked at every hosted match on every call: about 5 ms of the
event loop a call at 10,000 live matches (16 ms with `limit=1000`), so a client
listing in a loop from a few connections held up every match's decisions.

The order is the listing's: newest `created_at` first, and of matches created
at the same instant by `match_id` (server/page_tokens.py), the order the store
answers in too, so that a page of a listing starts where the last one ended
whichever list a match is in by then. A match moves between its game's
lists as its status changes (`Match.status_changed`).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import operator

from server.match import Match, Status
from server.page_tokens import Position

# A match and where it stands in its list: lists are sorted ascending, so newest first.
_Entry = tuple[Position, Match]
_List = tuple[str, Status]  # a game and a status
_place = operator.itemgetter(0)


class HostedMatches:
    def __init__(self) -> None:
        self._lists: dict[_List, list[_Entry]] = {}
        # Each hosted match id's place, list, and the match hosted under it.
        self._places: dict[str, tuple[Position, _List, Match]] = {}

    def add(self, match: Match) -> None:
        held = self._places.get(match.record.match_id)
        if held is not None:  # hosted again under its id: it keeps its place, as in a dict
            place, key, replaced = held
            self._take_out(place, key)
            # The match it replaces no longer moves it (nor takes it out).
            replaced.status_changed = None
        else:
            place = Position.of_record(match.record)
        self._put(match, place)
        match.status_changed = self._moved

    def remove(self, match: Match) -> None:
        held = self._places.get(match.record.match_id)
        if held is not None and held[2] is match:
            del self._places[match.record.match_id]
            self._take_out(held[0], held[1])
        match.status_changed = None

    def newest(
        self, game: str, status: Status | None, limit: int, after: Position | None = None
    ) -> list[Match]:
        """Up to `limit` hosted matches of `game` (every game when empty) and
        `status` (any when None), newest first; only those that come after
        `after` in that order when it is given."""
        lists = [
            itertools.islice(entries, _start(entries, after), None)
            for (its_game, its_status), entries in self._lists.items()
            if (not game or its_game == game) and (status is None or its_status == status)
        ]
        merged = heapq.merge(*lists, key=_place)
        return [match for _, match in itertools.islice(merged, limit)]

    def _moved(self, match: Match) -> None:
        held = self._places.get(match.record.match_id)
        if held is None or held[2] is not match or held[1] == (match.record.game, match.status):
            return
        self._take_out(held[0], held[1])
        self._put(match, held[0])

    def _put(self, match: Match, place: Position) -> None:
        key = (match.record.game, match.status)
        bisect.insort(self._lists.setdefault(key, []), (place, match), key=_place)
        self._places[match.record.match_id] = (place, key, match)

    def _take_out(self, place: Position, key: _List) -> None:
        entries = self._lists[key]
        del entries[bisect.bisect_left(entries, place, key=_place)]


def _start(entries: list[_Entry], after: Position | None) -> int:
    return 0 if after is None else bisect.bisect_right(entries, after, key=_place)
