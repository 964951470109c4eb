"""A server at its match limit (`serve --max-live-matches N`) answers
CreateMatch with RESOURCE_EXHAUSTED: the run waits for room and tries again,
saying so, rather than counting the games as not played."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from tests.conftest import start_server_process, stop_server_process
from tests.tournament.quick_cup import Recorder, quick_cup
from tournament import room
from tournament.runner import run_tournament
from tournament.store import Store

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("flags", "filled", "said"),
    [
        (("--max-live-matches", "1"), 0, "the server already hosts 1 live match"),
        # Without an admin token an address gets its fair share of the
        # live-match places: past half full, one holding its share is refused as
        # if the server were full. Here matches nobody joins, made from the
        # runner's own address, hold its share until the start timeout aborts them.
        (
            ("--max-live-matches", "4", "--start-timeout", "2"),
            2,
            "the server is crowded (2 of its 4 live-match places are taken) and this "
            "address holds its share of them (2)",
        ),
    ],
    ids=["full", "crowded"],
)
def test_a_full_server_makes_games_wait_for_room(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    flags: tuple[str, ...],
    filled: int,
    said: str,
) -> None:
    monkeypatch.setattr(room, "FIRST_WAIT", 0.05)
    config = quick_cup(tmp_path, 3, concurrency=3)
    server = start_server_process(*flags)
    progress = Recorder()
    try:
        for _ in range(filled):
            _fill(server.address)
        summary = run_tournament(
            config, server=server.address, database=str(tmp_path / "cup.sqlite"),
            progress=progress,
        )  # fmt: skip
    finally:
        stop_server_process(server)
    assert progress.errors == []
    assert summary.errors == 0
    assert summary.played == summary.scheduled == 6
    assert sorted(progress.keys) == sorted(set(progress.keys))  # each counted once
    # Said once, not once for every game that found the server full.
    (note,) = progress.notes
    assert note.startswith(f"waiting for room on the server at {server.address} ({said}"), note
    with Store(str(tmp_path / "cup.sqlite")) as store:
        (tournament,) = store.tournaments()
        assert len(store.done_keys(tournament.id)) == 6


def test_a_server_that_stays_full_gives_up_on_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A server with no room at all: each game waits its bounded time, then is
    # not played, saying why.
    monkeypatch.setattr(room, "FIRST_WAIT", 0.05)
    monkeypatch.setattr(room, "WAIT_LIMIT", 0.3)
    config = quick_cup(tmp_path, 1, concurrency=1)
    server = start_server_process("--max-live-matches", "1", "--start-timeout", "600")
    progress = Recorder()
    try:
        _fill(server.address)  # a match nobody joins holds the one place
        summary = run_tournament(
            config, server=server.address, database=str(tmp_path / "cup.sqlite"),
            progress=progress,
        )  # fmt: skip
    finally:
        stop_server_process(server)
    assert summary.played == 0
    assert summary.errors == 2  # both seatings of the one deal
    assert all("stayed full" in error for error in progress.errors), progress.errors


def _fill(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2), timeout=10
        )
