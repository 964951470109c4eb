"""Operations: `ListMatches` filters by game and status, newest first, and
still lists finished matches after a restart (from the database).

(SIGTERM — exit 0, unfinished matches kept and restored — is in
test_crash_recovery.py; the end reasons in the logs in test_clocks.py.)
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.matchplay import play_match
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import Case, SlowBot, create_request, wait_until

pytestmark = pytest.mark.e2e

NSHEEP = Case("sheep-n-sheep", 2, {})
SHOWDOWN = Case("sheep-showdown", 2, {"rounds": "1"})


def _ids(stub: arena_pb2_grpc.ArenaStub, **fields: object) -> list[str]:
    response = stub.ListMatches(arena_pb2.ListMatchesRequest(**fields))
    return [m.match_id for m in response.matches]


def test_list_matches_filters_by_game_and_status_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "ops.db"
    with InProcessServer(ServerConfig(), SqliteStore(db)) as server:
        finished = {}
        for case in (NSHEEP, SHOWDOWN):
            outcome = server.run(
                play_match(
                    server.address,
                    case.game,
                    [SlowBot(0), SlowBot(1)],
                    seed=1,
                    options=case.options,
                )
            )
            finished[case.game] = outcome.match_id
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            waiting = stub.CreateMatch(create_request(NSHEEP, 2)).match_id
            FINISHED, WAITING = arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_WAITING
            wait_until(lambda: len(_ids(stub, status=FINISHED)) == 2)

            assert _ids(stub) == [waiting, finished["sheep-showdown"], finished["sheep-n-sheep"]]
            assert _ids(stub, game="sheep-n-sheep") == [waiting, finished["sheep-n-sheep"]]
            assert _ids(stub, game="sheep-showdown") == [finished["sheep-showdown"]]
            assert _ids(stub, status=WAITING) == [waiting]
            assert _ids(stub, game="sheep-showdown", status=WAITING) == []
            assert _ids(stub, game="sheep-n-sheep", status=FINISHED) == [finished["sheep-n-sheep"]]
            assert _ids(stub, limit=1) == [waiting]
            with pytest.raises(grpc.RpcError) as unknown:
                _ids(stub, game="no-such-game")
            assert unknown.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            listed = stub.ListMatches(arena_pb2.ListMatchesRequest(status=FINISHED)).matches
            assert all(m.HasField("seed") and m.result.scores for m in listed)

    # Restarted on the same database: the finished ones come from the store, the
    # unfinished one is restored and waits for its seats again.
    with (
        InProcessServer(ServerConfig(), SqliteStore(db)) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        assert _ids(stub, status=arena_pb2.MATCH_STATUS_WAITING) == [waiting]
        assert set(_ids(stub, status=arena_pb2.MATCH_STATUS_FINISHED)) == set(finished.values())
        assert _ids(stub, game="sheep-showdown") == [finished["sheep-showdown"]]
        assert _ids(stub, status=arena_pb2.MATCH_STATUS_RUNNING) == []
