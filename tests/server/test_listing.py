"""ListMatches reads only the matches its page shows: at 10,000 live matches it
once looked at every hosted match on every call (about 5 ms of the event loop
with the default limit), holding up every match's decisions while a client
listed in a loop. Its answers, their order included, are the same as before."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import AsyncIterator, Iterator

import pytest

import games
from server import registry as registry_module
from server.hosted import HostedMatches
from server.match import Match, Status
from server.page_tokens import Position
from server.records import ClockConfig, MatchRecord
from server.registry import MatchRegistry
from server.storage import StoreWorker
from server.store import ANY_OVER, MemoryStore

GAMES = ("sheep-showdown", "stubborn-sheep")


class _Clock:
    """`time.time()` for the registry: each new match gets the next of `times`."""

    def __init__(self, times: Iterator[float]) -> None:
        self.times = times

    def time(self) -> float:
        return next(self.times)


async def _registry() -> AsyncIterator[MatchRegistry]:
    worker = StoreWorker(MemoryStore())
    registry = MatchRegistry(worker, start_timeout=3600.0)
    try:
        yield registry
    finally:
        await registry.shutdown("test over")
        await worker.close()


async def _host(registry: MatchRegistry, count: int, game: str = GAMES[0]) -> list[Match]:
    players = games.get(game).min_players
    return [(await registry.create(game, players, {}, n, ClockConfig()))[0] for n in range(count)]


def _counting_record_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every read of a match's record counted (a listing that looks at a match
    reads its game, creation time or id there)."""
    reads = [0]

    def read(match: Match) -> MatchRecord:
        reads[0] += 1
        return match.__dict__["_record"]  # type: ignore[no-any-return]

    def write(match: Match, record: MatchRecord) -> None:
        match.__dict__["_record"] = record

    monkeypatch.setattr(Match, "record", property(read, write), raising=False)
    return reads


def test_a_listing_looks_at_no_more_matches_with_more_hosted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads = _counting_record_reads(monkeypatch)

    async def looks(hosted: int) -> list[int]:
        counts = []
        async for registry in _registry():
            matches = await _host(registry, hosted)
            for match in matches[::2]:
                match.status = Status.RUNNING
            for status in (None, *Status):
                for game in ("", GAMES[0]):
                    reads[0] = 0
                    found = await registry.listing(game, status, 5)
                    assert len(found) == (0 if status in (Status.FINISHED, Status.ABORTED) else 5)
                    counts.append(reads[0])
        return counts

    few, many = asyncio.run(looks(20)), asyncio.run(looks(400))
    assert few == many
    assert max(many) <= 5 * 10  # a few reads per listed match


def _expected(
    registry: MatchRegistry, hosted: list[Match], game: str, status: Status | None, limit: int
) -> list[str]:
    """The listing as the API promises it: newest `created_at` first, of equal
    ones the smaller match_id first; a stored row of a listed hosted match not
    again."""
    mine = [
        m
        for m in hosted
        if (not game or m.record.game == game) and (status is None or m.status == status)
    ]
    found = [(m.record.created_at, m.record.match_id) for m in mine]
    stored = {None: ANY_OVER, Status.FINISHED: "finished", Status.ABORTED: "aborted"}
    if status in stored:
        listed = {m.record.match_id for m in mine}
        for summary in registry.store.store.recent(game, stored[status], limit):
            if summary.record.match_id not in listed:
                found.append((summary.record.created_at, summary.record.match_id))
    found.sort(key=lambda pair: (-pair[0], pair[1]))
    return [match_id for _, match_id in found[:limit]]


def test_the_order_and_the_filters_are_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    # Creation times that tie and that go back (as a restored match's do).
    times = [5.0, 3.0, 5.0, 9.0, 1.0, 3.0, 7.0, 5.0, 2.0, 9.0, 4.0, 6.0]
    monkeypatch.setattr(registry_module, "time", _Clock(itertools.cycle(times)))

    async def check() -> None:
        async for registry in _registry():
            hosted = [m for game in GAMES for m in await _host(registry, 9, game)]
            statuses = itertools.cycle([Status.RUNNING, Status.WAITING, Status.FINISHED])
            for match, status in zip(hosted, statuses, strict=False):
                match.status = status
            hosted[0].status = Status.ABORTED
            hosted[3].status = Status.RUNNING  # moved back: its list changes again
            store = registry.store.store
            for match in hosted[::4]:  # written as over while still hosted
                store.finish_match(match.record.match_id, "finished", b"", "over")
            for number, created_at in enumerate((5.0, 9.0, 0.5, 3.0, 7.0)):
                record = dataclasses.replace(
                    hosted[number].record, match_id=f"stored{number}", created_at=created_at
                )
                store.create_match(record)
                store.finish_match(record.match_id, ("finished", "aborted")[number % 2], b"", "x")
            for game in ("", *GAMES):
                for status in (None, *Status):
                    for limit in (1, 3, 7, 40):
                        found = await registry.listing(game, status, limit)
                        wanted = _expected(registry, hosted, game, status, limit)
                        assert [info.match_id for info in found] == wanted, (game, status, limit)
                        assert await _paged(registry, game, status, limit) == _expected(
                            registry, hosted, game, status, 100
                        ), (game, status, limit)

    asyncio.run(check())


async def _paged(registry: MatchRegistry, game: str, status: Status | None, size: int) -> list[str]:
    """Every match of a listing, read `size` at a time, each page after the last
    one's last match."""
    listed: list[str] = []
    after = None
    while page := await registry.listing(game, status, size, after):
        listed += [info.match_id for info in page]
        after = Position.of(page[-1].created_at, page[-1].match_id)
    return listed


def test_a_match_dropped_when_over_is_listed_from_the_store_alone() -> None:
    async def check() -> None:
        async for registry in _registry():
            registry.start_timeout = 0.01  # nobody joins: aborted, then dropped
            matches = await _host(registry, 2)
            while any(True for _ in registry.all()):
                await asyncio.sleep(0.01)
            assert await registry.listing("", Status.WAITING, 10) == []
            found = await registry.listing("", None, 10)
            assert {info.match_id for info in found} == {m.record.match_id for m in matches}
            assert {info.status for info in found} == {Status.ABORTED.value}
            matches[0].status = Status.RUNNING  # no longer hosted: never listed again
            assert await registry.listing("", Status.RUNNING, 10) == []

    asyncio.run(check())


def test_a_match_replaced_under_its_id_no_longer_moves_its_successor() -> None:
    """The same id hosted again (a second Match for it): the first one's later
    status changes and its removal are its own, and leave the one hosted now
    where it is."""
    game = games.get(GAMES[0])
    record = MatchRecord("again", GAMES[0], 2, {}, 1, ClockConfig(), ("a", "b"), 1.0)
    store = MemoryStore()
    first, second = Match(record, game, store), Match(record, game, store)
    hosted = HostedMatches()
    hosted.add(first)
    hosted.add(second)
    first.status = Status.FINISHED
    assert hosted.newest("", None, 10) == [second]
    assert hosted.newest("", Status.WAITING, 10) == [second]
    hosted.remove(first)
    assert hosted.newest("", None, 10) == [second]
    second.status = Status.RUNNING
    assert hosted.newest("", Status.RUNNING, 10) == [second]
    hosted.remove(second)
    assert hosted.newest("", None, 10) == []
