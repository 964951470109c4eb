"""A viewer in front of a server whose database holds more matches than one
page of the list shows, all older than a match played during a test."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.server.stored_matches import fill
from web.app import WebConfig, start_web
from web.showcase import Showcase

STORED = 450


@contextmanager
def many_matches(folder: Path) -> Iterator[Showcase]:
    db = folder / "many.db"
    fill(db, STORED, time.time() - 3600)
    server = InProcessServer(ServerConfig(), SqliteStore(db))
    server.start()
    show = Showcase(server)
    try:
        show.web = server.run(start_web(WebConfig(server.address), "127.0.0.1", 0))
        yield show
    finally:
        show.stop()


def every_match(viewer: Showcase, game: str = "") -> list[str]:
    """Every match's id the server lists, newest first, in one call."""
    with grpc.insecure_channel(viewer.server.address) as channel:
        found = arena_pb2_grpc.ArenaStub(channel).ListMatches(
            arena_pb2.ListMatchesRequest(limit=1000, game=game), timeout=10
        )
    assert not found.next_page_token
    return [m.match_id for m in found.matches]
