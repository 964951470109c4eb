"""Watch streams counted per match, per match and client address, per client
address over every match, and on the whole server, for live and finished
matches alike.

A client that keeps reading is never dropped as too slow, so without a bound
per address one client could take every place a match has and shut out every
other spectator; and, watching enough matches, every place the server has.
An address is `peer_address`'s: an IPv4 address, an IPv6 /64, or "unix:" for
every Unix socket client together (gRPC names them all so), as for fair turns
and pending joins: a tournament's sandboxed bots share one address's places,
and cannot take the rest from spectators on TCP. Clients behind a proxy on the
server's host share its address too. The web viewer needs one place per match
whoever watches it: it shares one stream among its visitors.
"""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

from games.words import count
from server.seats import MatchLimits

K = TypeVar("K")


class WatchPlaces:
    """Open Watch streams, per match, per (match, address), per address and in all."""

    def __init__(self) -> None:
        self._per_match: Counter[str] = Counter()
        self._per_address: Counter[tuple[str, str]] = Counter()  # (match id, address)
        self._per_client: Counter[str] = Counter()  # address, over every match
        self.total = 0

    def refusal(self, match_id: str, address: str, limits: MatchLimits) -> tuple[str, str] | None:
        """Why a watcher of `match_id` from `address` is refused, and the key its
        refusal is counted under for the log; None when it may watch."""
        if self._per_match[match_id] >= limits.max_watchers:
            return f"this match already has {count(limits.max_watchers, 'watcher')}", match_id
        if self._per_address[match_id, address] >= limits.max_watchers_per_address:
            watchers = count(limits.max_watchers_per_address, "watcher")
            return f"this address already has {watchers} of this match", match_id
        if self.total >= limits.max_watch_streams:
            # The server's limit, not the match's: counted and logged once for
            # every match id. Refused before the match is read, the id may be
            # anyone's invention: counted by id, each new (up to 16 KB) one was
            # a log line of its own.
            return f"this server already has {count(limits.max_watch_streams, 'watcher')}", ""
        if self._per_client[address] >= limits.max_watch_streams_per_address:
            # Counted under the address, not the (perhaps invented) match id.
            watchers = count(limits.max_watch_streams_per_address, "watcher")
            return f"this address already has {watchers} on this server", address
        return None

    def take(self, match_id: str, address: str) -> None:
        self._per_match[match_id] += 1
        self._per_address[match_id, address] += 1
        self._per_client[address] += 1
        self.total += 1

    def give_back(self, match_id: str, address: str) -> bool:
        """A watcher left; whether it was the match's last."""
        self.total -= 1
        _decrement(self._per_address, (match_id, address))
        _decrement(self._per_client, address)
        return _decrement(self._per_match, match_id)


def _decrement(counts: Counter[K], key: K) -> bool:
    """One less for `key`, forgotten at none; whether it reached none."""
    counts[key] -= 1
    if counts[key]:
        return False
    del counts[key]
    return True
