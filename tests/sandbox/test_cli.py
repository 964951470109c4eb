"""`sheepfold serve --listen unix:`, `sheepfold bot` and `sheepfold match` with command bots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server import launch
from tests.conftest import ROOT

SCRIPT_BOT = Path(__file__).resolve().parent / "bots" / "script"


def _sheepfold(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_sandboxed_script_bot_plays_one_seat_through_the_unix_socket(
    tmp_path: Path, sandbox_ready: None
) -> None:
    socket = tmp_path / "arena.sock"
    server = launch.start(
        launch.serve_command("--listen", "127.0.0.1:0", "--listen", f"unix:{socket}")
    )
    try:
        with grpc.insecure_channel(f"unix:{socket}") as channel:
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                arena_pb2.CreateMatchRequest(game="stubborn-sheep", players=2), timeout=30
            )
        seat = ["--server", f"unix:{socket}", "--match", created.match_id]
        script = _sheepfold(
            "bot",
            *seat,
            "--token",
            created.seat_tokens[0],
            "--bot",
            "cmd:./script_bot.sh {python}",
            "--bot-dir",
            str(SCRIPT_BOT),
        )
        sdk = _sheepfold("bot", *seat, "--token", created.seat_tokens[1], "--bot", "random")
        for bot in (script, sdk):
            out, err = bot.communicate(timeout=120)
            assert bot.returncode == 0, err
        assert json.loads(out)["ranks"]  # the SDK seat saw the match end
    finally:
        launch.stop(server)


def test_sheepfold_match_plays_a_command_bot_in_its_sandbox(sandbox_ready: None) -> None:
    match = _sheepfold(
        "match",
        "--game",
        "stubborn-sheep",
        "--players",
        "2",
        "--seed",
        "5",
        "--json",
        "--bots",
        "random,cmd:{python} command_bot.py",
        "--bot-dir",
        str(ROOT / "examples" / "command-bot"),
    )
    out, err = match.communicate(timeout=120)
    assert match.returncode == 0, err
    summary = json.loads(out)
    assert summary["crashed"] == {} and sorted(summary["ranks"]) in ([1, 2], [1, 1])
    # Its own server caps each seat's socket far below the open file limit:
    # no warning that the limit allows fewer connections than asked.
    assert "open file limit" not in err, err


def test_a_sandboxed_bot_needs_the_unix_socket() -> None:
    bot = _sheepfold(
        "bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--bot", "cmd:true"
    )
    _, err = bot.communicate(timeout=60)
    assert bot.returncode != 0 and "unix:PATH" in err and "Traceback" not in err
