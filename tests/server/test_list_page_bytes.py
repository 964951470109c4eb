"""ListMatches at its largest page (limit 1000) on a server holding many
matches with big results: a 4-seat Sheep'n'Sheep's result is about 5 KB, so a
thousand of them are past gRPC's 4 MiB. The page stops short of what the
server may send and what a client takes by default, and its next_page_token
reads on: every match is listed once, and none of it is an error."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.records import ClockConfig, MatchRecord
from server.settings import MIN_MAX_MESSAGE_BYTES
from server.sqlite_store import SqliteStore
from tests.conftest import ServerProcess, start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

MATCHES = 1000
CLIENT_RECEIVE_BYTES = 4 * 1024 * 1024  # a gRPC client's default


def _big_result(seats: int) -> bytes:
    """A finished match's result about as big as a 4-seat Sheep'n'Sheep's."""
    details = {f"seat {seat}": {"scored": ["a card"] * 120} for seat in range(seats)}
    return arena_pb2.MatchResult(
        scores=[float(seat) for seat in range(seats)],
        ranks=list(range(seats, 0, -1)),
        details_json=json.dumps(details),
        seats=[arena_pb2.SeatInfo(seat=seat, joined=True) for seat in range(seats)],
        end_reason="game over",
    ).SerializeToString()


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[str]]]:
    path = tmp_path_factory.mktemp("big-results") / "server.db"
    store = SqliteStore(path)
    result = _big_result(4)
    now = time.time()
    made = []
    try:
        for number in range(MATCHES):
            record = MatchRecord(
                match_id=f"{number:016x}",
                game="sheep-n-sheep",
                players=4,
                options={},
                seed=number,
                clock=ClockConfig(),
                token_hashes=("a", "b", "c", "d"),
                created_at=now - MATCHES + number,
            )
            store.create_match(record)
            store.finish_match(record.match_id, "finished", result, "game over")
            made.append(record.match_id)
    finally:
        store.close()
    yield path, made


def _listed_whole(server: ServerProcess, page_bytes: int) -> list[str]:
    """Every match listed, 1000 at a time asked; each page within `page_bytes`."""
    listed: list[str] = []
    token = ""
    with grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        while True:
            page = stub.ListMatches(
                arena_pb2.ListMatchesRequest(limit=1000, page_token=token), timeout=60
            )
            assert page.ByteSize() <= page_bytes
            assert page.matches, "a page that is not the last holds a match"
            assert all(info.result.details_json for info in page.matches)
            listed.extend(info.match_id for info in page.matches)
            if not (token := page.next_page_token):
                return listed


@pytest.mark.parametrize(
    ("flags", "page_bytes"),
    [
        ((), CLIENT_RECEIVE_BYTES),
        # The server may send more, but a client takes 4 MiB unless told otherwise.
        (("--max-message-bytes", str(16 * 1024 * 1024)), CLIENT_RECEIVE_BYTES),
        # The least a server may be allowed: a page of about 200 of these matches.
        (("--max-message-bytes", str(MIN_MAX_MESSAGE_BYTES)), MIN_MAX_MESSAGE_BYTES),
    ],
    ids=["default", "larger-messages", "smaller-messages"],
)
def test_a_page_of_big_matches_stops_short_of_the_message_limit(
    database: tuple[Path, list[str]], flags: tuple[str, ...], page_bytes: int
) -> None:
    path, made = database
    server = start_server_process("--db", str(path), *flags)
    try:
        listed = _listed_whole(server, page_bytes)
    finally:
        assert stop_server_process(server) == 0
    assert listed == made[::-1], "every match once, newest first"
    assert not [line for line in server.log_lines if '"level": "warning"' in line]
