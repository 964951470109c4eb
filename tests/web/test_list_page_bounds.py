"""Pages of the matches list (`/api/matches/page`) cost the game server one
ListMatches of 200 matches each, about 20 ms of a `serve --web-port`
process's CPU, and were asked for every request: 20 clients asking them over
and over left the matches it played a third of their pace. Counted as the
game server receives them (its own handlers, wrapped to count)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.web.many_matches import many_matches
from tests.web.test_game_server_calls import _count_calls
from web.app import STATE
from web.older_pages import OlderPages
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


@pytest.fixture
def counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Showcase, Counter[str], OlderPages]]:
    """450 stored matches (three pages), the game server's read calls counted,
    and the viewer's pages, each answer kept an hour rather than a second, so
    that nothing here depends on how fast it runs."""
    calls = _count_calls(monkeypatch)
    with many_matches(tmp_path) as viewer:
        assert viewer.web is not None
        pages = viewer.web.runner.app[STATE].pages
        pages.keep_seconds = 3600.0
        yield viewer, calls, pages


def _tokens(viewer: Showcase) -> list[str]:
    """The tokens of the second and third page, as the game server makes them."""
    tokens = []
    with grpc.insecure_channel(viewer.server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        token = ""
        for _ in range(2):
            found = stub.ListMatches(
                arena_pb2.ListMatchesRequest(limit=200, page_token=token), timeout=10
            )
            token = found.next_page_token
            tokens.append(token)
    assert all(tokens)
    return tokens


async def _ask(
    url: str, times: int = 1, at_once: bool = False, source: str = "127.0.0.1"
) -> list[tuple[int, str, bytes]]:
    """`url` asked `times` times from `source`: status, Retry-After, body."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one() -> tuple[int, str, bytes]:
            async with session.get(url) as answer:
                return answer.status, answer.headers.get("Retry-After", ""), await answer.read()

        if at_once:
            return list(await asyncio.gather(*(one() for _ in range(times))))
        return [await one() for _ in range(times)]


def test_a_crowd_asking_one_page_of_the_list_costs_one_list_call(
    counted: tuple[Showcase, Counter[str], OlderPages],
) -> None:
    viewer, calls, _ = counted
    url = f"{viewer.url}/api/matches/page?page={_tokens(viewer)[0]}"
    before = calls["ListMatches"]
    answers = asyncio.run(_ask(url, 20, at_once=True)) + asyncio.run(_ask(url, 10))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1
    assert b'"next_page":"' in answers[0][2]  # the second page of three
    assert calls["ListMatches"] - before == 1


def test_a_page_of_the_list_whose_turn_is_far_off_is_a_503(
    counted: tuple[Showcase, Counter[str], OlderPages],
) -> None:
    """Different pages are fetched some time apart, for one address and in all
    (a quarter and an eighth of a second); a request whose turn is more than
    a few seconds off is refused. Here the gaps are an hour, so that the
    second fetch's turn is always far off."""
    viewer, calls, pages = counted
    pages.gap_seconds, pages.address_gap_seconds, pages.most_wait_seconds = 0.0, 3600.0, 10.0
    second, third = _tokens(viewer)
    api = f"{viewer.url}/api/matches/page"
    before = calls["ListMatches"]

    assert asyncio.run(_ask(api))[0][0] == 200
    # A second page for the same address: refused, said why and for how long.
    [(status, retry, body)] = asyncio.run(_ask(f"{api}?page={second}"))
    assert status == 503, body
    assert 3500 < int(retry) <= 3590
    assert b"for this address" in body and b'"status": 503' in body
    # A page already fetched is still answered, from what was kept.
    assert asyncio.run(_ask(api))[0][:2] == (200, "")
    # Another address has turns of its own, until every visitor's turn is far off.
    assert asyncio.run(_ask(f"{api}?page={second}", source="127.0.0.2"))[0][0] == 200
    pages.gap_seconds = 3600.0
    assert asyncio.run(_ask(f"{api}?page={third}", source="127.0.0.3"))[0][0] == 200
    [(status, retry, body)] = asyncio.run(_ask(f"{api}?game=stubborn-sheep", source="127.0.0.4"))
    assert status == 503 and 3500 < int(retry) <= 3590, body
    assert b"for every visitor" in body
    assert calls["ListMatches"] - before == 3

    # Once the turns have come, the refused page is fetched.
    pages.taken.clear()
    pages.next_turns.clear()
    [(status, _, body)] = asyncio.run(_ask(f"{api}?game=stubborn-sheep", source="127.0.0.4"))
    assert status == 200 and b'"game":"stubborn-sheep"' in body
    assert calls["ListMatches"] - before == 4
