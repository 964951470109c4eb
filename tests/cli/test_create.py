"""`sheepfold create` sets up a match for bots in any language: here a plain
Python script that uses nothing but grpcio and the generated stubs plays it.
(clients/node/test/programs.e2e.test.js plays one with the Node bot the same way.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.cli.helpers import database_of, sheepfold
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

# A whole bot from the .proto files alone: join, answer every decision with
# action 0, print the result. No Sheepfold package is imported.
STUBS_ONLY_BOT = """
import json, queue, sys
import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

server, match_id, token = sys.argv[1:4]
with grpc.insecure_channel(server) as channel:
    stub = arena_pb2_grpc.ArenaStub(channel)
    outbox = queue.Queue()  # what the request stream sends, as decisions arrive
    outbox.put(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))

    def requests():
        while (message := outbox.get()) is not None:
            yield message

    for response in stub.Play(requests(), timeout=60):
        kind = response.WhichOneof("kind")
        if kind == "decision":
            outbox.put(arena_pb2.PlayRequest(answer=arena_pb2.Answer(
                decision_id=response.decision.decision_id, action_index=0)))
        elif kind == "result":
            outbox.put(None)
            print(json.dumps({"scores": list(response.result.scores),
                              "ranks": list(response.result.ranks)}))
            break
"""


def test_a_match_made_by_create_is_played_by_a_stubs_only_python_bot(
    server: ServerProcess, tmp_path: Path
) -> None:
    made = sheepfold(
        "create",
        "--game",
        "stubborn-sheep",
        "--players",
        "2",
        "--seed",
        "12",
        "--option",
        "wolf=true",
        "--server",
        server.address,
        "--json",
    )
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["game"] == "stubborn-sheep" and created["seed"] == 12
    assert created["options"] == {"bonus_actions": "false", "wolf": "true"}
    assert created["server"] == server.address
    assert len(created["seat_tokens"]) == 2 and len(created["match_id"]) == 16

    script = tmp_path / "stubs_bot.py"
    script.write_text(STUBS_ONLY_BOT)
    bots = [
        subprocess.Popen(
            [sys.executable, str(script), server.address, created["match_id"], token],
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT / "proto"), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in created["seat_tokens"]
    ]
    outputs = [bot.communicate(timeout=90) for bot in bots]
    for bot, (_, stderr) in zip(bots, outputs, strict=True):
        assert bot.returncode == 0, stderr
    results = [json.loads(stdout) for stdout, _ in outputs]
    assert results[0] == results[1] and sorted(results[0]["ranks"])[0] == 1

    replay = sheepfold("replay", created["match_id"], "--db", database_of(server))
    assert replay.returncode == 0 and "replay verified" in replay.stdout, replay.stderr


def test_create_prints_tokens_as_text_and_refuses_in_one_line(server: ServerProcess) -> None:
    made = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "3", "--server", server.address
    )
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines[0].startswith("match ") and "sheep-n-sheep, 3 players" in lines[0]
    assert [line.split()[:3] for line in lines[1:4]] == [
        ["seat", "0", "token"],
        ["seat", "1", "token"],
        ["seat", "2", "token"],
    ]
    refused = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "9", "--server", server.address
    )
    assert refused.returncode == 1
    assert refused.stderr.startswith("sheepfold create: the server refused: INVALID_ARGUMENT: ")
    assert len(refused.stderr.strip().splitlines()) == 1


def test_a_health_only_port_is_named_as_no_game_port(tmp_path: Path) -> None:
    """The image exposes a plaintext health port beside the game port; given it
    by mistake, create, match and a tournament run once said only gRPC's
    "UNIMPLEMENTED: Method not found!"."""
    from server.app import ServerConfig
    from server.inprocess import InProcessServer
    from tests.tournament.quick_cup import quick_cup
    from tournament.runner import RunError, run_tournament

    hint = (
        "UNIMPLEMENTED: Method not found! (no sheepfold.v1.Arena there: the address is "
        "not a Sheepfold game port; a --health-port answers health checks alone)"
    )
    with InProcessServer(ServerConfig(health_port=0)) as running:
        address = f"127.0.0.1:{running.server.health_port}"
        created = sheepfold(
            "create", "--game", "sheep-n-sheep", "--players", "2", "--server", address
        )
        assert created.returncode == 1
        assert created.stderr.strip() == f"sheepfold create: the server refused: {hint}"
        match = ["match", "--game", "sheep-n-sheep", "--players", "2", "--bots", "random,random"]
        played = sheepfold(*match, "--server", address)
        assert played.returncode == 1
        assert played.stderr.strip() == f"sheepfold match: {hint}"
        for bot in (["random"], ["cmd:/bin/true", "--no-sandbox"]):
            seat = sheepfold(
                "bot", "--server", address, "--match", "m", "--token", "t", "--bot", *bot
            )
            assert seat.returncode == 1
            assert seat.stderr.strip().splitlines()[-1] == f"sheepfold bot: {hint}"
        # A run asks the server before it stores anything, so it is refused there.
        with pytest.raises(RunError) as refused:
            run_tournament(quick_cup(tmp_path), server=address, database=str(tmp_path / "t.sqlite"))
        assert str(refused.value) == (
            f"cannot reach the server at {address}: it is not a Sheepfold server "
            "(no sheepfold.v1.Arena service: the address is not a Sheepfold game port; "
            "a --health-port answers health checks alone)"
        )
        assert not (tmp_path / "t.sqlite").exists()


def test_every_command_with_a_game_flag_names_an_unknown_game_before_any_server() -> None:
    """`create --game chess` with no server running said only "cannot reach the
    server"; like `match` and `demo`, it is a usage error naming the games."""
    known = "(choose from 'sheep-showdown', 'sheep-n-sheep', 'sheep-and-garden', 'stubborn-sheep')"
    for args in (
        ("create", "--game", "chess", "--players", "2", "--server", "127.0.0.1:1"),
        ("match", "--game", "chess", "--players", "2", "--bots", "random,random"),
        (
            "match",
            "--game",
            "chess",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--server",
            "127.0.0.1:1",
        ),
        ("demo", "--game", "chess"),
    ):
        done = sheepfold(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.splitlines()[-1] == (
            f"sheepfold {args[0]}: error: argument --game: invalid choice: 'chess' {known}"
        ), done.stderr


def test_create_prints_the_options_the_match_plays_with_not_the_flags(
    server: ServerProcess,
) -> None:
    """A bool given as "On" is stored as "true" and an option left out plays at its
    default: the JSON says what `Joined.options` will say to every seat."""
    made = sheepfold(
        "create",
        "--game",
        "sheep-showdown",
        "--players",
        "2",
        "--option",
        "double_trouble=On",
        "--server",
        server.address,
        "--json",
    )
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    assert created["options"] == {"double_trouble": "true", "rounds": "3"}
    with grpc.insecure_channel(server.address) as channel:
        info = arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=created["match_id"]), timeout=10
        )
    assert dict(info.options) == created["options"]
