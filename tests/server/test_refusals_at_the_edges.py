"""Bad input just past each bound, and a join in the moment a match ends: each
is refused with the status docs/writing-a-bot.md gives, and just inside the
bound is taken. Over the wire the bounds were checked only far away (a bank of
1e308, 99 players, a page of 1,000 asked for), and a join to a match being
ended only by a race a test sometimes lost: a bound off by one, or such a join
told INVALID_ARGUMENT instead of FAILED_PRECONDITION, passed every test."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.records import ClockConfig, MatchRecord
from server.sqlite_store import SqliteStore
from tests.raw_stream import RawSeat
from tests.sqlite_locks import write_locked

pytestmark = pytest.mark.e2e

NO_SEAT_JOINED = "no seat joined within the start timeout"
# The bounds docs/writing-a-bot.md gives, written out rather than imported, so
# that a bound moved in the code is caught too.
MOST_BANK_SECONDS = 86_400.0
MOST_A_PAGE = 1_000
DEFAULT_PAGE = 100  # a ListMatches with no limit


def _refusal(call: grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    return call.code(), call.details() or ""


@pytest.mark.parametrize("name", games.names())
def test_one_player_too_few_or_too_many_is_invalid_argument(
    stub: arena_pb2_grpc.ArenaStub, name: str
) -> None:
    game = games.get(name)
    takes = f"{name} takes {game.min_players} to {game.max_players} players"
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateMatch(arena_pb2.CreateMatchRequest(game=name, players=players))
        assert _refusal(refused.value) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            f"{takes}, not {players}",
        )
    for players in (game.min_players, game.max_players):
        created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game=name, players=players))
        assert len(created.seat_tokens) == players


def test_a_time_bank_just_over_a_day_is_invalid_argument(
    stub: arena_pb2_grpc.ArenaStub,
) -> None:
    over = MOST_BANK_SECONDS + 0.5
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="sheep-n-sheep",
                players=2,
                clock=arena_pb2.ClockSettings(time_bank_seconds=over),
            )
        )
    assert _refusal(refused.value) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "time_bank_seconds must be 0 (none) to 86,400, not 86400.5",
    )
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(
            game="sheep-n-sheep",
            players=2,
            clock=arena_pb2.ClockSettings(time_bank_seconds=MOST_BANK_SECONDS),
        )
    )
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
    assert info.clock.time_bank_seconds == MOST_BANK_SECONDS


def test_a_join_while_the_match_is_being_ended_is_told_it_is_over(tmp_path: Path) -> None:
    """A match aborted at its start timeout is over from the moment it is
    aborted, while its end is still being written (here held up by another
    connection's lock on the database): a join with a good token is then
    FAILED_PRECONDITION with the reason, as a join after the write is."""
    db = tmp_path / "ending.db"
    config = ServerConfig(start_timeout=0.3)
    with (
        InProcessServer(config, SqliteStore(db, busy_timeout=60)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2))
        with write_locked(db):
            deadline = time.monotonic() + 20
            while (
                stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id)).status
                != arena_pb2.MATCH_STATUS_ABORTED
            ):
                assert time.monotonic() < deadline, "the match was never aborted"
                time.sleep(0.02)
            assert _join_refusal(stub, created) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                f"the match was aborted: {NO_SEAT_JOINED}",
            )
        # Once written, the same join is refused the same way.
        assert _join_refusal(stub, created) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"the match was aborted: {NO_SEAT_JOINED}",
        )


def _join_refusal(
    stub: arena_pb2_grpc.ArenaStub, created: arena_pb2.CreateMatchResponse
) -> tuple[grpc.StatusCode, str]:
    """The refusal of a join of seat 1 of `created`, with its good token."""
    seat = RawSeat(stub, timeout=20)
    seat.join(created.match_id, created.seat_tokens[1])
    with pytest.raises(grpc.RpcError) as refused:
        seat.next("joined")
    seat.close()
    return _refusal(refused.value)


def _finished_matches(db: Path, count: int) -> None:
    """`count` finished matches in the store at `db`, match ids 0 to count - 1
    in hex, each made a second after the one before (the last is the newest)."""
    store = SqliteStore(db)
    now = time.time()
    result = arena_pb2.MatchResult(end_reason="game over").SerializeToString()
    try:
        for number in range(count):
            record = MatchRecord(
                match_id=f"{number:016x}",
                game="sheep-and-garden",
                players=1,
                options={},
                seed=number,
                clock=ClockConfig(),
                token_hashes=("a",),
                created_at=now - count + number,
            )
            store.create_match(record)
            store.finish_match(record.match_id, "finished", result, "game over")
    finally:
        store.close()


@contextmanager
def _listing_of(db: Path) -> Iterator[arena_pb2_grpc.ArenaStub]:
    """A client of a server in this process serving the matches in `db`."""
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        yield arena_pb2_grpc.ArenaStub(channel)


def test_a_limit_past_a_thousand_gets_a_thousand(tmp_path: Path) -> None:
    """`limit` is 1,000 at most: one more asked for is a page of 1,000 with a
    token for the rest, not 1,001."""
    db = tmp_path / "many.db"
    _finished_matches(db, MOST_A_PAGE + 1)
    with _listing_of(db) as stub:
        for limit in (MOST_A_PAGE + 1, 2**31 - 1):
            page = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=limit), timeout=30)
            assert len(page.matches) == MOST_A_PAGE
            assert page.next_page_token
            rest = stub.ListMatches(
                arena_pb2.ListMatchesRequest(limit=limit, page_token=page.next_page_token),
                timeout=30,
            )
            assert [m.match_id for m in rest.matches] == [f"{0:016x}"]
            assert not rest.next_page_token


def test_no_limit_gets_the_default_page_of_a_hundred(tmp_path: Path) -> None:
    """`limit` 0 (left out) is the server's default, 100 (arena.proto): a page
    of the newest 100 and a token for the rest, not one match fewer or more."""
    db = tmp_path / "some.db"
    _finished_matches(db, DEFAULT_PAGE + 5)
    with _listing_of(db) as stub:
        page = stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=30)
        newest_first = [f"{number:016x}" for number in range(DEFAULT_PAGE + 4, -1, -1)]
        assert [m.match_id for m in page.matches] == newest_first[:DEFAULT_PAGE]
        rest = stub.ListMatches(
            arena_pb2.ListMatchesRequest(page_token=page.next_page_token), timeout=30
        )
        assert [m.match_id for m in rest.matches] == newest_first[DEFAULT_PAGE:]
        assert not rest.next_page_token
