"""The matches list, shared: every open list page (and every poll of
/api/matches) of one game filter shares one ListMatches call at a time and
at most one a POLL_SECONDS; its JSON, gzipped copy and event frame (plain and
gzipped) are built once per answer, not once per page."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sheepfold.v1 import arena_pb2

from web.frames import match_info_dict
from web.responses import deflate_event, event_frame

POLL_SECONDS = 1.0
LIMIT = 200  # the newest this many matches are listed; the page says so when capped
SETTLED_KEPT = 2000  # finished matches' list entries kept
_SETTLED = (arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_ABORTED)
_LIVE = (arena_pb2.MATCH_STATUS_RUNNING, arena_pb2.MATCH_STATUS_WAITING)
# What the list page shows of a match, and nothing else.
FIELDS = ("match_id", "game", "title", "players", "status", "moves", "to_move", "created_at")


@dataclass(frozen=True, slots=True)
class Listing:
    plain: bytes  # a JSON array of matches
    gzipped: bytes
    event: bytes  # the array as one Server-Sent Event
    # The event as a piece of a gzipped stream: 200 matches are 44 KB an update, 6 KB so.
    event_gzipped: bytes


def entry(info: arena_pb2.MatchInfo) -> dict[str, Any]:
    """One match as the list page shows it."""
    full = match_info_dict(info)
    slim = {key: full[key] for key in FIELDS}
    result = full["result"]
    slim["result"] = {"scores": result["scores"], "ranks": result["ranks"]} if result else None
    if result and result.get("solo_title"):
        slim["result"]["solo_title"] = result["solo_title"]
    # The seats the game server disqualified, by number: the list once read a
    # match whose seat missed its deadlines like any match played out.
    out = [seat["seat"] for seat in (result or {}).get("seats", ()) if seat.get("disqualified")]
    if out:
        slim["result"]["disqualified"] = out
    return slim


@dataclass
class MatchList:
    fetch: Callable[[str, int, arena_pb2.MatchStatus], Awaitable[list[arena_pb2.MatchInfo]]]
    poll_seconds: float = POLL_SECONDS
    limit: int = LIMIT
    # per game filter: (loop time answered, the listing)
    cached: dict[str, tuple[float, Listing]] = field(default_factory=dict)
    flights: dict[str, asyncio.Future[Listing]] = field(default_factory=dict)
    # A match that is over never changes: its JSON is built once.
    settled: OrderedDict[str, bytes] = field(default_factory=OrderedDict)

    async def get(self, game: str) -> Listing:
        loop = asyncio.get_running_loop()
        cached = self.cached.get(game)
        if cached is not None and loop.time() - cached[0] < self.poll_seconds:
            return cached[1]
        flight = self.flights.get(game)
        if flight is None:
            flight = asyncio.ensure_future(self._load(game))
            self.flights[game] = flight
            flight.add_done_callback(lambda done: self._landed(game, done))
        return await asyncio.shield(flight)

    async def _load(self, game: str) -> Listing:
        parts = []
        for info in await self._matches(game):
            part = self.settled.get(info.match_id)
            if part is None:
                part = json.dumps(entry(info), separators=(",", ":")).encode()
                if info.status in _SETTLED:
                    self.settled[info.match_id] = part
                    if len(self.settled) > SETTLED_KEPT:
                        self.settled.popitem(last=False)
            parts.append(part)
        plain = b"[" + b",".join(parts) + b"]"
        previous = self.cached.get(game)
        if previous is not None and previous[1].plain == plain:
            listing = previous[1]  # unchanged: the same object, so streams skip it
        else:
            event = event_frame(plain)
            listing = Listing(plain, gzip.compress(plain, 5), event, deflate_event(event))
        self.cached[game] = (asyncio.get_running_loop().time(), listing)
        return listing

    async def _matches(self, game: str) -> list[arena_pb2.MatchInfo]:
        """The newest `limit` matches, and every one still playing: a match
        started before the newest `limit` was in neither part of the page once
        they were cut, the page saying "no live match" while it played. Asked
        only when the list is cut (fewer came back: none is missing)."""
        found = await self.fetch(game, self.limit, arena_pb2.MATCH_STATUS_UNSPECIFIED)
        if len(found) < self.limit:
            return found
        listed = {info.match_id for info in found}
        for status in _LIVE:
            older = await self.fetch(game, self.limit, status)
            found += [info for info in older if info.match_id not in listed]
            listed.update(info.match_id for info in older)
        return found

    def _landed(self, game: str, done: asyncio.Future[Listing]) -> None:
        if self.flights.get(game) is done:
            del self.flights[game]
        if not done.cancelled():
            done.exception()  # retrieved: every waiter has its answer
