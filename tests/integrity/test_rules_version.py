"""Rules versions: every match is stored with its game's rules version, the
replay shows it, and a match recorded under other rules is never replayed or
resumed as if it were the same game: its stored record is still served, tagged
with its version, but nothing replays it through today's engine (a clear
error), and an unfinished one is aborted with the reason on restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from cli.main import main as sheepfold
from clients.matchplay import play_match
from games.errors import RulesChanged
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.records import MatchRecord
from server.sqlite_schema import migrate
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import Case, SlowBot, create_request

pytestmark = pytest.mark.e2e

SHOWDOWN = Case("sheep-showdown", 2, {"rounds": "1"})


def _server(db: Path) -> InProcessServer:
    return InProcessServer(ServerConfig(), SqliteStore(db))


def _set_rules_version(db: Path, match_id: str, version: int) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE matches SET rules_version = ? WHERE match_id = ?", (version, match_id)
        )


def _stored_status(db: Path, match_id: str) -> tuple[str, str]:
    with sqlite3.connect(db) as connection:
        row = connection.execute(
            "SELECT status, end_reason FROM matches WHERE match_id = ?", (match_id,)
        ).fetchone()
    return str(row[0]), str(row[1])


def test_the_games_whose_rules_changed_carry_a_new_version() -> None:
    assert games.get("sheep-showdown").rules_version == 7
    assert games.get("stubborn-sheep").rules_version == 9
    assert games.get("sheep-n-sheep").rules_version == 5
    games.get("sheep-showdown").check_rules_version(7)
    # Version 6 put a lone stuck player out a turn later (a tie-break could
    # differ), version 5 had no diagonal push: their records are other games now.
    for old in (6, 5):
        with pytest.raises(RulesChanged, match=f"sheep-showdown rules version {old}"):
            games.get("sheep-showdown").check_rules_version(old)


def test_a_finished_match_of_other_rules_is_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "v.db"
    with _server(db) as server:
        outcome = server.run(
            play_match(
                server.address,
                SHOWDOWN.game,
                [SlowBot(seat) for seat in range(2)],
                seed=7,
                options=SHOWDOWN.options,
            )
        )
        with grpc.insecure_channel(server.address) as channel:
            replay = arena_pb2_grpc.ArenaStub(channel).GetReplay(
                arena_pb2.GetReplayRequest(match_id=outcome.match_id)
            )
    assert replay.rules_version == 7
    assert sheepfold(["replay", outcome.match_id, "--db", str(db)]) == 0
    capsys.readouterr()

    # The same record, as if it had been played before the rules changed.
    _set_rules_version(db, outcome.match_id, 1)
    assert sheepfold(["replay", outcome.match_id, "--db", str(db)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"sheepfold replay: match {outcome.match_id} was recorded under sheep-showdown rules "
        "version 1, but this sheepfold plays version 7: replaying it would give a different game"
    ]
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        # The stored record is served as it was recorded, tagged with its version.
        old = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=outcome.match_id))
        assert old.rules_version == 1 and old.actions == replay.actions
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=outcome.match_id))
        assert info.status == arena_pb2.MATCH_STATUS_FINISHED
        # Watching replays the game through the engine: refused, with the reason.
        with pytest.raises(grpc.RpcError) as refused:
            next(stub.Watch(arena_pb2.WatchRequest(match_id=outcome.match_id)))
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "sheep-showdown rules version 1" in refused.value.details()


def test_an_unfinished_match_of_other_rules_is_aborted_on_restart(tmp_path: Path) -> None:
    db = tmp_path / "u.db"
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(create_request(SHOWDOWN, 4))
    assert _stored_status(db, created.match_id)[0] == "running"
    _set_rules_version(db, created.match_id, 1)

    with (
        structlog.testing.capture_logs() as logs,
        _server(db) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id))
        assert info.status == arena_pb2.MATCH_STATUS_ABORTED
        assert "rules version 1" in info.result.end_reason
        # Every seat is listed, as for any match that ended.
        assert [seat.seat for seat in info.seats] == [0, 1]
        assert [seat.seat for seat in info.result.seats] == [0, 1]
    status, reason = _stored_status(db, created.match_id)
    assert status == "aborted"
    assert reason.startswith("not restored: recorded under sheep-showdown rules version 1")
    # The log says so on a line naming the match and its game, as every line about a match does.
    refusals = [line for line in logs if line["event"] == "cannot restore match"]
    assert [(line["match_id"], line.get("game")) for line in refusals] == [
        (created.match_id, "sheep-showdown")
    ]

    # A match of the current rules is restored as before.
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        current = arena_pb2_grpc.ArenaStub(channel).CreateMatch(create_request(SHOWDOWN, 5))
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        info = arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=current.match_id)
        )
    assert info.status in (arena_pb2.MATCH_STATUS_WAITING, arena_pb2.MATCH_STATUS_RUNNING)


def test_matches_stored_before_versions_existed_count_as_version_1(tmp_path: Path) -> None:
    """The migration gives every older match version 1: the rules they were played under."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, upto=2)
    db.execute(
        "INSERT INTO matches (match_id, game, players, options_json, seed, decision_seconds,"
        " time_bank_seconds, max_strikes, token_hashes_json, created_at, status)"
        " VALUES ('old', 'sheep-showdown', 2, '{}', '5', 10.0, 0.0, 3, '[]', 1.0, 'finished')"
    )
    db.close()
    store = SqliteStore(path)
    stored = store.load("old")
    assert stored is not None and stored.record.rules_version == 1
    record = MatchRecord(**{**_fields(stored.record), "match_id": "new", "rules_version": 2})
    store.create_match(record)
    again = store.load("new")
    assert again is not None and again.record.rules_version == 2
    store.close()


def _fields(record: MatchRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in MatchRecord.__dataclass_fields__}
