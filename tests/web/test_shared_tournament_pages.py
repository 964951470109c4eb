"""The tournament pages cost the process that may run the game server a
database read and a render for every request: with a finished tournament of
2,400 games, its page, its fragment and `/tournaments` each took 5-8 ms of
CPU a request, and 20 clients polling them took the match played beside them
from 1,134 decisions a second to 25. Pages asking the same page at about the
same time share one read and one answer now (web.shared_answers), for at most
a second. Counted at the database reads themselves."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.web.test_adversarial import _viewer_of_a_copy
from tournament.store import GameRecord, Store
from web import reports, tournaments
from web.app import STATE
from web.showcase import Showcase
from web.tournament_answers import KEEP_SECONDS, TournamentAnswers

pytestmark = pytest.mark.e2e

PAGES = ("/tournaments", "/tournaments/0/showcase", "/tournaments/0/showcase/fragment")


@dataclass
class Viewer:
    base: str
    copy: Path
    taken: GameRecord  # the game to store again
    reads: Counter[str]
    answers: TournamentAnswers


@pytest.fixture
def viewer(showcase: Showcase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Viewer]:
    """A viewer of a copy of the showcase's tournament with its last game
    taken out (stored again by the tests), and the reads of the copy counted:
    the list's, and each tournament page's poll of what changed."""
    copy = tmp_path / "shared.db"
    _, running = _viewer_of_a_copy(showcase, copy)
    with Store(copy) as store:
        tid = store.tournament("showcase").id
        taken = store.games(tid)[-1]
        assert store.forget(tid, {taken.key}) == 1
    reads: Counter[str] = Counter()

    def counted(name: str, real: Any) -> Any:
        def read(*args: Any) -> Any:
            reads[name] += 1
            return real(*args)

        return read

    monkeypatch.setattr(
        tournaments, "listed_tournaments", counted("list", tournaments.listed_tournaments)
    )
    monkeypatch.setattr(reports.tournaments, "polled", counted("poll", tournaments.polled))
    try:
        answers = running.runner.app[STATE].tournament_answers
        yield Viewer(f"http://127.0.0.1:{running.port}", copy, taken, reads, answers)
    finally:
        showcase.server.run(running.stop())


async def _ask(url: str, times: int, source: str = "127.0.0.1") -> list[tuple[int, str, str]]:
    """`url` asked `times` times at once from `source`: status, ETag (or
    Retry-After), body."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one() -> tuple[int, str, str]:
            async with session.get(url) as answer:
                header = answer.headers.get("ETag", answer.headers.get("Retry-After", ""))
                return answer.status, header, await answer.text()

        return list(await asyncio.gather(*(one() for _ in range(times))))


def test_a_crowd_asking_the_tournament_pages_costs_one_read_of_each(viewer: Viewer) -> None:
    viewer.answers.keep_seconds = 3600.0  # nothing here depends on how fast it runs
    for path in PAGES:
        answers = asyncio.run(_ask(viewer.base + path, 20))
        assert {status for status, _, _ in answers} == {200}
        assert len({body for _, _, body in answers}) == 1, path
    # One read of the list, one poll for the page and one for its fragment
    # (each request read the database once: 20, 20 and 20).
    assert viewer.reads == {"list": 1, "poll": 2}


def _one(viewer: Viewer, path: str) -> tuple[str, str]:
    ((status, etag, body),) = asyncio.run(_ask(viewer.base + path, 1))
    assert status == 200
    return etag, body


def test_a_game_stored_shows_once_the_shared_answer_is_a_second_old(viewer: Viewer) -> None:
    """A shared answer is reused for KEEP_SECONDS at most (docs/web.md): the
    answers are aged by that much rather than waited for."""
    viewer.answers.keep_seconds = 3600.0
    game = viewer.taken.match_id
    before = {path: _one(viewer, path) for path in PAGES}
    assert not any(game in body for _, body in before.values())
    with Store(viewer.copy) as store:
        assert store.record_game(store.tournament("showcase").id, viewer.taken)
    # Within the bound, every page is the answer shared before.
    assert {path: _one(viewer, path) for path in PAGES} == before
    viewer.answers.keep_seconds = KEEP_SECONDS
    for shared in (viewer.answers.lists, viewer.answers.pages, viewer.answers.fragments):
        for key, (landed, answer) in list(shared.kept.items()):
            shared.kept[key] = (landed - KEEP_SECONDS, answer)
    after = {path: _one(viewer, path) for path in PAGES}
    assert game in after["/tournaments/0/showcase"][1]
    assert game in after["/tournaments/0/showcase/fragment"][1]
    fragment_tag = after["/tournaments/0/showcase/fragment"][0]
    assert fragment_tag and fragment_tag != before["/tournaments/0/showcase/fragment"][0]
    # The list counts the game again.
    assert after["/tournaments"][1] != before["/tournaments"][1]


def test_a_client_asking_page_after_page_waits_its_turn(viewer: Viewer) -> None:
    """Pages no other request shares (here names of no tournament, each a read
    of the database and a 404) are loaded in turn, for one address and in
    all: 20 clients asking a made-up name each time cost 2 ms of CPU a
    request, 520 a second. Here the gaps are an hour, so that the next
    load's turn is always far off."""
    answers = viewer.answers
    answers.keep_seconds = 3600.0
    answers.gap_seconds, answers.address_gap_seconds, answers.most_wait_seconds = 0, 3600, 10
    fragment = viewer.base + "/tournaments/0/{}/fragment"
    assert asyncio.run(_ask(fragment.format("made-up-1"), 1))[0][0] == 404
    # Another name from the same address: refused, said why and for how long.
    [(status, retry, body)] = asyncio.run(_ask(fragment.format("made-up-2"), 1))
    assert status == 503, body
    assert 3500 < int(retry) <= 3590
    assert "many tournament pages for this address" in body
    # Another address has turns of its own, until every visitor's turn is far off.
    assert asyncio.run(_ask(fragment.format("showcase"), 1, "127.0.0.2"))[0][0] == 200
    answers.gap_seconds = 3600
    assert asyncio.run(_ask(viewer.base + "/tournaments", 1, "127.0.0.3"))[0][0] == 200
    [(status, retry, body)] = asyncio.run(_ask(fragment.format("made-up-3"), 1, "127.0.0.4"))
    assert status == 503 and 3500 < int(retry) <= 3590, body
    assert "for every visitor" in body
    # An answer kept is given without a turn: the showcase's fragment, asked again.
    assert asyncio.run(_ask(fragment.format("showcase"), 1, "127.0.0.4"))[0][0] == 200
    assert viewer.reads == {"list": 1, "poll": 2}


def _asked_while_one_address_waits(viewer: Viewer, queued: str) -> tuple[int, str]:
    """127.0.0.1 asks a made-up name, then the fragment of `queued`, its turn
    for that one 200 s off; once the gap in all is past, 127.0.0.2 asks the
    showcase's fragment (within 30 s, or TimeoutError): its status and body."""
    answers = viewer.answers
    answers.gap_seconds, answers.address_gap_seconds, answers.most_wait_seconds = 0.5, 200, 250
    fragment = viewer.base + "/tournaments/0/{}/fragment"

    async def scenario() -> tuple[int, str]:
        assert (await _ask(fragment.format("made-up-1"), 1))[0][0] == 404
        waiting = asyncio.ensure_future(_ask(fragment.format(queued), 1))
        await asyncio.sleep(0.6)  # past the first load's gap in all
        try:
            async with asyncio.timeout(30):
                [(status, _, body)] = await _ask(fragment.format("showcase"), 1, "127.0.0.2")
        finally:
            waiting.cancel()
        return status, body

    return asyncio.run(scenario())


def test_one_address_queueing_loads_does_not_hold_every_visitors_turn(viewer: Viewer) -> None:
    """A turn taken far ahead by one address (its own gap makes it wait) held
    the turns in all until then: one client asking 40 made-up names at once
    (within its 64 connections) made every other visitor wait 5 s, then 503.
    Here the address's second load is 200 s off; another address, asking
    after the gap in all, is answered at once."""
    status, body = _asked_while_one_address_waits(viewer, "made-up-2")
    assert status == 200, body


def test_a_page_one_address_waits_its_turn_for_is_not_held_for_others(viewer: Viewer) -> None:
    """A request waiting its address's turn for a page held that page for
    everyone: others asking it joined its load and waited its turn (up to 5 s,
    whenever the shared answer was a second old and that client asked it
    first). Here the address's turn is 200 s off; another address asking the
    same page, after the gap in all, is answered at once."""
    status, body = _asked_while_one_address_waits(viewer, "showcase")
    assert status == 200, body
    assert viewer.reads["poll"] == 2  # the made-up name and the page, once
