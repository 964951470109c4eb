"""A finished match whose stored moves no longer replay (a damaged database):
the viewer says so, and says it again without fetching and replaying the
record for every page that asks."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.web.test_adversarial import get
from web.app import WebConfig, start_web
from web.showcase import Showcase

pytestmark = pytest.mark.e2e


@pytest.fixture
def damaged(tmp_path: Path) -> Iterator[tuple[Showcase, str]]:
    """A viewer in front of a server whose one finished match has a move the
    engine never offers in its database."""
    db = tmp_path / "server.db"
    with InProcessServer(ServerConfig(), SqliteStore(db)) as first:
        bots = [RandomBot(seat) for seat in range(2)]
        match_id = first.run(play_match(first.address, "sheep-showdown", bots, seed=3)).match_id
    with sqlite3.connect(db) as connection:
        changed = connection.execute(
            "UPDATE moves SET action_index = 9999 WHERE match_id = ? AND move = 2", (match_id,)
        ).rowcount
    connection.close()
    assert changed == 1
    server = InProcessServer(ServerConfig(), SqliteStore(db))
    server.start()
    viewer = Showcase(server)
    try:
        viewer.web = server.run(start_web(WebConfig(server.address), "127.0.0.1", 0))
        yield viewer, match_id
    finally:
        viewer.stop()


def test_a_damaged_record_is_fetched_and_replayed_once(
    damaged: tuple[Showcase, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its failure was not kept: every request for its frames fetched the whole
    record again (GetReplay) and replayed it in the replay process, so a page
    left retrying, or anyone asking in a loop, cost a replay each."""
    viewer, match_id = damaged
    registry = viewer.server.server.registry
    fetched: list[str] = []
    real = registry.replay

    async def counting(wanted: str) -> Any:
        fetched.append(wanted)
        return await real(wanted)

    monkeypatch.setattr(registry, "replay", counting)
    url = f"{viewer.url}/api/match/{match_id}/frames"
    answers = [get(url) for _ in range(4)] + [get(f"{url}?view=all") for _ in range(2)]
    assert {status for status, _, _ in answers} == {500}
    for _, content_type, body in answers:
        assert content_type.startswith("application/json")
        assert "the match record does not replay: move 2: action index 9999" in body
    # One fetch (and replay) per view, as for a record that replays.
    assert fetched == [match_id, match_id]
    # The match's page still opens: it is the replay that says what is wrong.
    assert get(f"{viewer.url}/match/{match_id}")[0] == 200
