"""ListMatches pages through every match through a real server: pages of any
size add up to the whole listing, in order, each match once, while matches
finish (and leave the hosted ones for the store) between pages; a page token
that is not the server's, or is used with other filters, is INVALID_ARGUMENT."""

from __future__ import annotations

import base64
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.conftest import ROOT
from tests.integrity.helpers import wait_until
from tests.server.stored_matches import GAMES, fill

STORED = 450
LIVE = 30
START_TIMEOUT = 2.0
ADMIN = "admin"


def _fill(path: Path, now: float) -> None:
    fill(path, STORED, now)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[InProcessServer]:
    db = tmp_path / "paging.db"
    _fill(db, time.time())
    # With an admin token one address may create every live match (no fair share).
    config = ServerConfig(start_timeout=START_TIMEOUT, admin_token=ADMIN)
    with InProcessServer(config, SqliteStore(db)) as running:
        yield running


def _stub(server: InProcessServer) -> Iterator[arena_pb2_grpc.ArenaStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield arena_pb2_grpc.ArenaStub(channel)


@pytest.fixture
def stub(server: InProcessServer) -> Iterator[arena_pb2_grpc.ArenaStub]:
    yield from _stub(server)


def _create_live(stub: arena_pb2_grpc.ArenaStub) -> list[str]:
    """LIVE matches nobody joins: waiting, then aborted at the start timeout."""
    return [
        stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game=GAMES[n % 2], players=2, admin_token=ADMIN),
            timeout=10,
        ).match_id
        for n in range(LIVE)
    ]


def _pages(
    stub: arena_pb2_grpc.ArenaStub,
    size: int,
    between: list[tuple[int, object]] | None = None,
    **filters: object,
) -> tuple[list[str], int]:
    """Every listed id, `size` a page, and how many pages; `between` calls
    each (after page number, callable) between pages."""
    listed: list[str] = []
    token = ""
    pages = 0
    while True:
        page = stub.ListMatches(
            arena_pb2.ListMatchesRequest(limit=size, page_token=token, **filters),  # type: ignore[arg-type]
            timeout=10,
        )
        pages += 1
        listed += [m.match_id for m in page.matches]
        assert len(page.matches) == size or not page.next_page_token
        for after, call in between or ():
            if after == pages:
                call()  # type: ignore[operator]
        if not page.next_page_token:
            return listed, pages
        token = page.next_page_token


def _whole(stub: arena_pb2_grpc.ArenaStub, **filters: object) -> list[arena_pb2.MatchInfo]:
    found = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=1000, **filters), timeout=10)  # type: ignore[arg-type]
    assert not found.next_page_token
    return list(found.matches)


def _in_order(matches: list[arena_pb2.MatchInfo]) -> list[str]:
    return [m.match_id for m in sorted(matches, key=lambda m: (-m.created_at, m.match_id))]


def test_pages_of_stored_matches_add_up_to_the_whole_listing(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    whole = _whole(stub)
    assert len(whole) == STORED
    assert [m.match_id for m in whole] == _in_order(whole)
    for size in (100, 7, 449, 450, 1000):
        listed, pages = _pages(stub, size)
        assert listed == [m.match_id for m in whole], size
        assert pages == max(1, -(-STORED // size)), size
    for filters in ({"game": GAMES[1]}, {"status": arena_pb2.MATCH_STATUS_ABORTED}):
        wanted = [m.match_id for m in _whole(stub, **filters)]
        assert 0 < len(wanted) < STORED
        assert _pages(stub, 33, **filters)[0] == wanted, filters


def test_matches_finishing_between_pages_are_listed_once(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    live = _create_live(stub)
    first = _whole(stub)
    assert len(first) == STORED + LIVE
    at = [m.match_id for m in first]
    places = sorted(at.index(match_id) for match_id in live)
    assert places[0] >= 100 and places[-1] < 400, "the live matches fall among the stored"
    hosted = server.server.registry

    def all_over() -> None:  # every live match aborted, written, and no longer hosted
        wait_until(lambda: not any(True for _ in hosted.all()), timeout=START_TIMEOUT + 20)

    # The first pages list them waiting (hosted); after the second one they end
    # and leave for the store, among the pages still to come.
    listed, _ = _pages(stub, 100, between=[(2, all_over)])
    final = _whole(stub)
    assert {m.status for m in final if m.match_id in live} == {arena_pb2.MATCH_STATUS_ABORTED}
    assert listed == [m.match_id for m in final] == at
    assert len(set(listed)) == len(listed) == STORED + LIVE


def test_a_listing_of_aborted_matches_gains_those_that_end_after_its_place(
    server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    aborted = {"status": arena_pb2.MATCH_STATUS_ABORTED}
    live = set(_create_live(stub))
    before = [m.match_id for m in _whole(stub, **aborted)]
    assert not live & set(before)
    hosted = server.server.registry

    def all_over() -> None:
        wait_until(lambda: not any(True for _ in hosted.all()), timeout=START_TIMEOUT + 20)

    listed, _ = _pages(stub, 10, between=[(1, all_over)], **aborted)
    after = [m.match_id for m in _whole(stub, **aborted)]
    assert live <= set(after)
    # Those of the first page are the same; the rest of the listing is the new one.
    assert listed == before[:10] + after[after.index(before[9]) + 1 :]
    assert len(set(listed)) == len(listed)
    assert live & set(listed), "live matches ended past the first page, and are listed"


def _refused(stub: arena_pb2_grpc.ArenaStub, token: str, **filters: object) -> str:
    with pytest.raises(grpc.RpcError) as raised:
        stub.ListMatches(
            arena_pb2.ListMatchesRequest(limit=10, page_token=token, **filters),  # type: ignore[arg-type]
            timeout=10,
        )
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT, raised.value
    details = raised.value.details() or ""
    assert "page token" in details and "Traceback" not in details
    return details


def _encoded(fields: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(fields).encode()).decode().rstrip("=")


def test_a_page_token_not_made_for_the_call_is_invalid_argument(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    token = stub.ListMatches(
        arena_pb2.ListMatchesRequest(limit=10, game=GAMES[0]), timeout=10
    ).next_page_token
    assert token
    version, game, status, created_at, match_id = json.loads(
        base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    )
    assert (version, game, status) == (1, GAMES[0], 0)
    not_tokens = [
        "x",
        "!!!",
        "é",
        "A" * 10_000,
        "AAAA",
        token[:-4],  # cut short
        _encoded({"game": game}),
        _encoded([version, game, status, created_at]),
        _encoded([2, game, status, created_at, match_id]),
        _encoded([version, 7, status, created_at, match_id]),
        _encoded([version, game, "0", created_at, match_id]),
        _encoded([version, game, True, created_at, match_id]),
        _encoded([version, game, status, "soon", match_id]),
        _encoded([version, game, status, created_at, 12]),
        _encoded([version, game, status, created_at, "m" * 129]),
        base64.urlsafe_b64encode(b'[1,"' + GAMES[0].encode() + b'",0,1e999,"a"]').decode(),
    ]
    for garbage in not_tokens:
        assert "not one this server gave" in _refused(stub, garbage, game=GAMES[0]), garbage
    changed = _encoded([version, GAMES[1], status, created_at, match_id])
    assert "other game or status" in _refused(stub, changed, game=GAMES[0])
    assert "other game or status" in _refused(stub, token, game=GAMES[1])
    assert "other game or status" in _refused(stub, token)
    assert "other game or status" in _refused(
        stub, token, game=GAMES[0], status=arena_pb2.MATCH_STATUS_FINISHED
    )
    # Still good with its own filters, at any page size.
    page = stub.ListMatches(
        arena_pb2.ListMatchesRequest(limit=3, game=GAMES[0], page_token=token), timeout=10
    )
    assert len(page.matches) == 3 and page.next_page_token


def test_a_forged_token_past_a_float_or_utf8_is_invalid_argument(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    """JSON reads a whole number of 309 digits, past any float, and `\\ud800`,
    a lone surrogate no UTF-8 query carries: each once failed the call with
    INTERNAL and a traceback in the server's log."""

    def raw(text: bytes) -> str:
        return base64.urlsafe_b64encode(text).decode().rstrip("=")

    game = GAMES[0].encode()
    forged = [
        _encoded([1, GAMES[0], 0, 10**309, "a"]),
        raw(b'[1,"' + game + b'",0,1.5,"\\ud800"]'),
        raw(b'[1,"' + game + b'",0,1.5,"a\\udfff"]'),
        raw(b'[1,"\\ud800",0,1.5,"a"]'),
    ]
    for token in forged:
        assert len(token) <= 512, "the server reads no longer token"
        assert "not one this server gave" in _refused(stub, token, game=GAMES[0]), token
    assert "not one this server gave" in _refused(stub, forged[-1])


def test_a_token_lasts_across_a_restart_of_the_server(tmp_path: Path) -> None:
    """Nothing in a token belongs to one server run: a bookmarked older page of
    the web viewer still opens after the game server restarted."""
    db = tmp_path / "restart.db"
    _fill(db, time.time())
    pages: list[tuple[str, list[str]]] = []
    for _ in range(2):
        with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
            for stub in _stub(server):
                first = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=5), timeout=10)
                token = pages[0][0] if pages else first.next_page_token
                second = stub.ListMatches(
                    arena_pb2.ListMatchesRequest(limit=5, page_token=token), timeout=10
                )
                pages.append((first.next_page_token, [m.match_id for m in second.matches]))
    (token_before, listed_before), (token_after, listed_after) = pages
    assert token_before == token_after and len(listed_before) == 5
    assert listed_after == listed_before


def test_private_replays_still_need_the_admin_token_for_every_page(tmp_path: Path) -> None:
    db = tmp_path / "private.db"
    _fill(db, time.time())
    config = ServerConfig(admin_token="secret", private_replays=True)
    with InProcessServer(config, SqliteStore(db)) as server:
        for stub in _stub(server):
            first = stub.ListMatches(
                arena_pb2.ListMatchesRequest(limit=5, admin_token="secret"), timeout=10
            )
            with pytest.raises(grpc.RpcError) as raised:
                stub.ListMatches(
                    arena_pb2.ListMatchesRequest(limit=5, page_token=first.next_page_token),
                    timeout=10,
                )
            assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED, raised.value
            second = stub.ListMatches(
                arena_pb2.ListMatchesRequest(
                    limit=5, page_token=first.next_page_token, admin_token="secret"
                ),
                timeout=10,
            )
            assert len(second.matches) == 5


def test_the_bot_guides_loop_reads_every_match(stub: arena_pb2_grpc.ArenaStub) -> None:
    """The Python of docs/writing-a-bot.md that reads every page, run as written."""
    guide = (ROOT / "docs" / "writing-a-bot.md").read_text()
    after = guide.split("In Python, reading every match:\n\n```python\n", 1)[1]
    namespace: dict[str, Any] = {}
    exec(after.split("```", 1)[0], namespace)
    listed = [m.match_id for m in namespace["every_match"](stub)]
    assert listed == [m.match_id for m in _whole(stub)]
    assert len(listed) == STORED
    assert [m.game for m in namespace["every_match"](stub, GAMES[1])] == [GAMES[1]] * (STORED // 2)


def test_rows_that_cannot_be_read_back_do_not_end_the_listing(tmp_path: Path) -> None:
    """A damaged row is left out of a listing; a page it made one short had no
    next page token, and the matches after it were never listed."""
    db = tmp_path / "damaged.db"
    made = fill(db, 60, time.time())
    damaged = made[50:54] + made[3:4]
    with sqlite3.connect(db) as edit:
        edit.executemany(
            "UPDATE matches SET options_json = '{{{' WHERE match_id = ?", [(d,) for d in damaged]
        )
    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        for stub in _stub(server):
            listed, pages = _pages(stub, 10)
            wanted = _in_order(_whole(stub))
            assert len(wanted) == len(made) - len(damaged)
            assert listed == wanted and pages == 6
