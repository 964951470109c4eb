"""Replays: `GetReplay` for matches that are over (finished or aborted), kept in SQLite across a
restart, and `sheepfold replay` printing a match of every game move by move.
Replaying a record through the engine reproduces its scores."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from cli.main import main as sheepfold
from clients.matchplay import play_match
from clients.sdk import play
from games.options import options_to_strings
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.sqlite_store import SqliteStore
from tests.integrity.helpers import (
    Case,
    SlowBot,
    assert_replay_reproduces_result,
    case_ids,
    create_request,
    game_cases,
)

pytestmark = pytest.mark.e2e


def _server(db: Path) -> InProcessServer:
    return InProcessServer(ServerConfig(), SqliteStore(db))


def _play(server: InProcessServer, case: Case, seed: int) -> str:
    outcome = server.run(
        play_match(
            server.address,
            case.game,
            [SlowBot(seat) for seat in range(case.players)],
            seed=seed,
            options=case.options,
        )
    )
    return outcome.match_id


@pytest.mark.parametrize("case", game_cases(), ids=case_ids(game_cases()))
def test_replay_of_every_game_reproduces_its_scores_and_prints(
    tmp_path: Path, case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "replay.db"
    with _server(db) as server:
        match_id = _play(server, case, seed=90)
        with grpc.insecure_channel(server.address) as channel:
            live = arena_pb2_grpc.ArenaStub(channel).GetReplay(
                arena_pb2.GetReplayRequest(match_id=match_id)
            )
    assert (live.game, live.players, dict(live.options)) == (
        case.game,
        case.players,
        {**_defaults(case.game), **case.options},
    )
    assert live.seed == 90
    assert_replay_reproduces_result(live)

    # After a restart the replay comes from the database, identical.
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        again = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
    assert again == live
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED and info.result == live.result

    # The command line prints it move by move with the game's rendering.
    assert sheepfold(["replay", match_id, "--db", str(db)]) == 0
    text = capsys.readouterr().out
    state = games.get(case.game).new_state(case.players, 90, dict(live.options))
    position = 0
    for action in live.actions:
        state.apply(state.legal_actions()[action.action_index])
        header = f"== move {action.move}  seat {action.seat}: {action.label}"
        position = text.index(header, position)
        position = text.index(state.render(), position)
    assert "replay verified" in text

    assert sheepfold(["replay", match_id, "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verified"] is True
    assert [m["action_index"] for m in data["moves"]] == [a.action_index for a in live.actions]
    assert data["result"]["scores"] == list(live.result.scores)
    assert data["engine_scores"] == list(live.result.scores)


def _defaults(game: str) -> dict[str, str]:
    specs = games.get(game).option_specs
    return options_to_strings(specs, {s.name: s.default for s in specs})


def test_get_replay_refuses_unfinished_and_unknown_matches(tmp_path: Path) -> None:
    case = Case("sheep-n-sheep", 2, {})
    with _server(tmp_path / "r.db") as server, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(create_request(case, 4))
        with pytest.raises(grpc.RpcError) as running:
            stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
        assert running.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "not over" in running.value.details()
        with pytest.raises(grpc.RpcError) as unknown:
            stub.GetReplay(arena_pb2.GetReplayRequest(match_id="no-such-match"))
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND


def test_get_replay_gives_the_record_of_an_aborted_match(tmp_path: Path) -> None:
    """A match that is over is replayed, aborted ones too (the web viewer shows
    their moves); the refusal of a running one says which matches are."""
    case = Case("sheep-n-sheep", 2, {})
    config = ServerConfig(start_timeout=0.3)
    with (
        InProcessServer(config, SqliteStore(tmp_path / "a.db")) as server,
        grpc.insecure_channel(server.address) as channel,
    ):
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(create_request(case, 4))
        with pytest.raises(grpc.RpcError) as running:
            stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
        assert "finished or aborted" in running.value.details()
        request = arena_pb2.GetMatchRequest(match_id=created.match_id)
        for _ in range(100):  # nobody joins: aborted once the start timeout passes
            if stub.GetMatch(request).status == arena_pb2.MATCH_STATUS_ABORTED:
                break
            server.run(asyncio.sleep(0.05))
        replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
    assert replay.seed == 4 and list(replay.actions) == []
    assert "no seat joined" in replay.result.end_reason


def test_the_replay_command_refuses_what_it_cannot_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    case = Case("sheep-n-sheep", 2, {})
    with _server(db) as server, grpc.insecure_channel(server.address) as channel:
        unfinished = arena_pb2_grpc.ArenaStub(channel).CreateMatch(create_request(case, 4))
    assert sheepfold(["replay", unfinished.match_id, "--db", str(db)]) == 1
    assert "not finished" in capsys.readouterr().err
    assert sheepfold(["replay", "nope", "--db", str(db)]) == 1
    assert "no match" in capsys.readouterr().err
    assert sheepfold(["replay", "nope", "--db", str(tmp_path / "missing.db")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists(), "a typo in --db must not create a file"


def test_the_replay_command_catches_a_tampered_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check can fail: a stored result that the record does not give is reported."""
    db = tmp_path / "t.db"
    with _server(db) as server:
        match_id = _play(server, Case("sheep-n-sheep", 2, {}), seed=3)
    with sqlite3.connect(db) as connection:
        (blob,) = connection.execute(
            "SELECT result FROM matches WHERE match_id = ?", (match_id,)
        ).fetchone()
        result = arena_pb2.MatchResult.FromString(blob)
        result.scores[0] += 100
        connection.execute(
            "UPDATE matches SET result = ? WHERE match_id = ?",
            (result.SerializeToString(), match_id),
        )
    assert sheepfold(["replay", match_id, "--db", str(db)]) == 2
    assert "REPLAY MISMATCH" in capsys.readouterr().out


def test_a_match_with_forced_moves_replays_with_them_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "f.db"
    case = Case("sheep-showdown", 2, {"rounds": "1"})

    class Sleepy(SlowBot):
        slept = False

        async def decide(self, decision):  # type: ignore[no-untyped-def]
            if not self.slept:  # its first decision
                self.slept = True
                await asyncio.sleep(0.3)  # past the 0.1 s deadline: a forced move
            return await super().decide(decision)

    with _server(db) as server:

        async def scenario() -> str:
            async with grpc.aio.insecure_channel(server.address) as channel:
                created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                    create_request(case, 6, decision_seconds=0.1)
                )
            await asyncio.gather(
                *(
                    play(Sleepy(seat), server.address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )
            return created.match_id

        match_id = server.run(scenario())
    assert sheepfold(["replay", match_id, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "[forced: timeout]" in out
    assert "  strikes " in out, "the result shows the strike"
    assert "replay verified" in out


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ('{"rounds": "9"}', "option 'rounds' must be at most 3"),
        ('{"fog": "1"}', "unknown option 'fog'"),
        ('{"double_trouble": "maybe"}', "option 'double_trouble' must be true or false"),
    ],
)
def test_the_replay_command_says_in_one_line_that_stored_options_do_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stored: str, said: str
) -> None:
    """A finished match whose stored options were edited into ones the game refuses
    once ended `sheepfold replay` in a traceback (games.InvalidOptions)."""
    db = tmp_path / "o.db"
    with _server(db) as server:
        match_id = _play(server, Case("sheep-showdown", 2, {"rounds": "1"}), seed=5)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE matches SET options_json = ? WHERE match_id = ?", (stored, match_id)
        )
    assert sheepfold(["replay", match_id, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"sheepfold replay: match {match_id} in {db} cannot be replayed: its stored "
        f"options do not read ({said}"
    ), err
    assert err.count("\n") == 1 and err.endswith(")\n"), err


def test_a_stored_replay_whose_options_do_not_read_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tournament's stored record (no row to call damaged) with options the game
    refuses: one line, exit 1, where a games.InvalidOptions traceback was."""
    from cli import replay_source

    match = replay_source.MatchToReplay(
        match_id="abc",
        game="sheep-showdown",
        players=2,
        options={"rounds": "9"},
        seed=1,
        clock=arena_pb2.ClockSettings(),
        rules_version=games.get("sheep-showdown").rules_version,
    )
    monkeypatch.setattr(replay_source, "load", lambda *args: match)
    assert sheepfold(["replay", "abc", "--db", "cup.sqlite"]) == 1
    assert capsys.readouterr().err == (
        "sheepfold replay: match abc in cup.sqlite cannot be replayed: its stored options "
        "do not read (option 'rounds' must be at most 3)\n"
    )
