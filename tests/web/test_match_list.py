"""The shared matches list (web/listing.py) with a made-up ListMatches: what it
keeps from one answer to the next, and what it asks for when the list is cut."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

from web import listing
from web.listing import MatchList

RUNNING = arena_pb2.MATCH_STATUS_RUNNING
WAITING = arena_pb2.MATCH_STATUS_WAITING
FINISHED = arena_pb2.MATCH_STATUS_FINISHED
ANY = arena_pb2.MATCH_STATUS_UNSPECIFIED


def _info(match_id: str, status: arena_pb2.MatchStatus, moves: int = 0) -> arena_pb2.MatchInfo:
    return arena_pb2.MatchInfo(
        match_id=match_id, game="sheep-n-sheep", players=2, status=status, moves=moves
    )


def _listed(plain: bytes) -> list[tuple[str, str, int]]:
    return [(m["match_id"], m["status"], m["moves"]) for m in json.loads(plain)]


class _Answers:
    """ListMatches answered from a script: each call takes the next answer."""

    def __init__(self, *answers: list[arena_pb2.MatchInfo]) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, int, int]] = []

    async def __call__(self, game: str, limit: int, status: Any) -> list[arena_pb2.MatchInfo]:
        self.asked.append((game, limit, status))
        return self.answers.pop(0)


def test_a_live_match_is_listed_as_it_is_now_not_as_first_seen() -> None:
    """Only a match that is over is built once and kept: a running one's moves
    go on changing from one answer to the next."""
    fetch = _Answers([_info("a", RUNNING, 1)], [_info("a", RUNNING, 2)])

    async def scenario() -> tuple[bytes, bytes]:
        matches = MatchList(fetch, poll_seconds=0.0)
        return (await matches.get("")).plain, (await matches.get("")).plain

    first, second = asyncio.run(scenario())
    assert _listed(first) == [("a", "running", 1)]
    assert _listed(second) == [("a", "running", 2)]


def test_an_unchanged_answer_gives_the_same_listing_object() -> None:
    """Streams tell an unchanged list by its identity and send nothing."""
    fetch = _Answers([_info("a", FINISHED, 5)], [_info("a", FINISHED, 5)])

    async def scenario() -> tuple[listing.Listing, listing.Listing]:
        matches = MatchList(fetch, poll_seconds=0.0)
        return await matches.get(""), await matches.get("")

    first, second = asyncio.run(scenario())
    assert second is first


def test_a_cut_list_adds_older_live_matches_once_each() -> None:
    """The newest two (the limit) are all the first answer holds, so the live
    ones are asked for by status: the running match already listed is not
    listed twice, the older running and waiting ones are added."""
    fetch = _Answers(
        [_info("new", RUNNING, 3), _info("done", FINISHED, 9)],
        [_info("new", RUNNING, 3), _info("old", RUNNING, 40)],
        [_info("late", WAITING)],
    )

    async def scenario() -> bytes:
        return (await MatchList(fetch, poll_seconds=0.0, limit=2).get("")).plain

    plain = asyncio.run(scenario())
    assert fetch.asked == [("", 2, ANY), ("", 2, RUNNING), ("", 2, WAITING)]
    assert [match_id for match_id, _, _ in _listed(plain)] == ["new", "done", "old", "late"]


def test_the_finished_matches_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "SETTLED_KEPT", 3)
    fetch = _Answers([_info(f"m{n}", FINISHED, n) for n in range(5)])

    async def scenario() -> MatchList:
        matches = MatchList(fetch, poll_seconds=0.0)
        await matches.get("")
        return matches

    assert list(asyncio.run(scenario()).settled) == ["m2", "m3", "m4"]
