"""ListMatches builds and encodes its page on a reader thread, not on the event
loop. A page of a thousand stored matches is a few MB: their sizes, their copy
into the response and its encoding once took 10 to 25 ms of the loop's CPU a
call, during which no match's decision was sent or timed, and clients listing
in a loop held every match's clock up so, call after call."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server import match_reads
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.records import ClockConfig, MatchRecord
from server.sqlite_store import SqliteStore
from server.unread_answers import UnreadAnswers

MATCHES = 30


def _stored(path: Path) -> list[str]:
    store = SqliteStore(path)
    result = arena_pb2.MatchResult(
        scores=[1.0, 0.0], ranks=[1, 2], winners=[0], end_reason="game over"
    ).SerializeToString()
    now = time.time()
    made = []
    try:
        for number in range(MATCHES):
            record = MatchRecord(
                match_id=f"{number:016x}",
                game="sheep-n-sheep",
                players=2,
                options={},
                seed=number,
                clock=ClockConfig(),
                token_hashes=("a", "b"),
                created_at=now - MATCHES + number,
            )
            store.create_match(record)
            store.finish_match(record.match_id, "finished", result, "game over")
            made.append(record.match_id)
    finally:
        store.close()
    return made


def _on_the_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_the_page_is_made_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "server.db"
    made = _stored(path)
    fitted_on_loop: list[bool] = []
    fitting = match_reads._fitting

    def watched(matches: Sequence[arena_pb2.MatchInfo], most: int) -> list[arena_pb2.MatchInfo]:
        fitted_on_loop.append(_on_the_loop())
        return fitting(list(matches), most)

    monkeypatch.setattr(match_reads, "_fitting", watched)
    with (
        InProcessServer(ServerConfig(), SqliteStore(path)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        first = stub.ListMatches(arena_pb2.ListMatchesRequest(limit=20), timeout=30)
        rest = stub.ListMatches(
            arena_pb2.ListMatchesRequest(limit=20, page_token=first.next_page_token),
            timeout=30,
        )
    assert fitted_on_loop == [False, False]
    # The same answer as ever: newest first, every match once, the last page tokenless.
    listed = [info.match_id for info in [*first.matches, *rest.matches]]
    assert listed == made[::-1]
    assert first.next_page_token and not rest.next_page_token
    assert all(info.status == arena_pb2.MATCH_STATUS_FINISHED for info in first.matches)


class _Context:
    """What UnreadAnswers asks of a call's context: its peer and its end."""

    def __init__(self) -> None:
        self.ended: list[object] = []

    def peer(self) -> str:
        return "ipv4:203.0.113.7:5000"

    def add_done_callback(self, callback: object) -> None:
        self.ended.append(callback)


def test_an_answer_encoded_ahead_counts_its_bytes_as_unread() -> None:
    """ListMatches now answers with bytes: the bound on answers a client has
    not read counts them by their length, as it counts a message by its size
    (bytes have no ByteSize, and a page of megabytes counted 0)."""
    page = arena_pb2.ListMatchesResponse(
        matches=[arena_pb2.MatchInfo(match_id="x" * 16, game="sheep-n-sheep")] * 50
    ).SerializeToString()

    async def answer(request: object, context: object) -> bytes:
        return page

    unread = UnreadAnswers()
    handler = grpc.unary_unary_rpc_method_handler(answer)
    bounded = unread.rewrite(handler, match_reads.LIST_MATCHES_METHOD).unary_unary
    assert asyncio.run(bounded(None, _Context())) == page
    assert unread.unread("ipv4:203.0.113.7") == (len(page), 1)
