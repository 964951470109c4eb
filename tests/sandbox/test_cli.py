"""`sheepfold serve --listen unix:`, `sheepfold bot` and `sheepfold match` with command bots."""

from __future__ import annotations

import json
import os
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
        launch.serve_command(
            "--listen", "127.0.0.1:0", "--listen", f"unix:{socket}", "--db", str(tmp_path / "s.db")
        )
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


def test_a_sandboxed_bot_needs_the_unix_socket(tmp_path: Path) -> None:
    # A folder of its own: the checkout may hold a server's sheepfold.db, which
    # no sandboxed bot may see.
    bot = _sheepfold(
        *("bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--bot", "cmd:true"),
        *("--bot-dir", str(tmp_path)),
    )
    _, err = bot.communicate(timeout=60)
    assert bot.returncode != 0 and "unix:PATH" in err and "Traceback" not in err


def test_a_bots_program_that_is_a_fifo_is_refused_not_waited_on(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A bot's folder is the stranger's: its program may be a named pipe (tar
    keeps them) with the executable bits. The check before the first game
    opened it to read its `#!` line, and waited for a writer that never came:
    `tournament run` and `match` hung before playing anything."""
    folder = tmp_path / "bot"
    folder.mkdir()
    os.mkfifo(folder / "run", 0o755)
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "stubborn-sheep"\nplayers = 1\ngames_per_pairing = 1\n'
        f'database = "{tmp_path / "results.sqlite"}"\n'
        '[[bots]]\nname = "fifo"\ncommand = ["./run"]\ncwd = "bot"\n'
    )
    runs = {
        "tournament": ["tournament", "run", str(config), "--no-report"],
        "match": ["match", "--game", "stubborn-sheep", "--players", "1", "--bots", "cmd:./run"],
    }
    for name, args in runs.items():
        try:
            done = subprocess.run(
                [sys.executable, "-m", "cli", *args],
                cwd=folder,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{name}: still waiting on the FIFO after 60 s") from None
        assert done.returncode in (1, 2), (name, done.returncode, done.stderr)
        assert "'./run' is not an executable file" in done.stderr, (name, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
