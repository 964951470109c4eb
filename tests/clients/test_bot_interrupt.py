"""`sheepfold bot` stops at once on Ctrl-C (SIGTERM), even while the bot's
plain `decide` is still thinking: decide runs on a daemon thread of its own,
which the exit leaves behind, rather than on the event loop that Ctrl-C stops."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.conftest import ROOT

SLOW_BOT = """
import os
import time


class SlowBot:
    def __init__(self, seed: int = 0) -> None:
        pass

    def decide(self, decision) -> int:
        open(f"deciding-{os.getpid()}", "w").close()  # a class bot's prints go to stderr
        time.sleep(120)
        return 0
"""


def test_a_bot_thinking_is_stopped_at_once(server_process: ServerProcess, tmp_path: Path) -> None:
    (tmp_path / "slowbot.py").write_text(SLOW_BOT)
    with grpc.insecure_channel(server_process.address) as channel:
        created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2), timeout=10
        )
    bots = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli",
                "bot",
                "--server",
                server_process.address,
                "--match",
                created.match_id,
                "--token",
                token,
                "--bot",
                "slowbot:SlowBot",
            ],
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for token in created.seat_tokens
    ]
    try:
        deciding = _first_to_decide(bots, tmp_path)
        started = time.monotonic()
        deciding.send_signal(signal.SIGTERM)
        deciding.wait(timeout=60)
        took = time.monotonic() - started
        assert took < 5, f"stopped {took:.1f} s after SIGTERM: it waited for decide"
        assert deciding.returncode == 130
        assert "Traceback" not in deciding.stderr.read()
    finally:
        for bot in bots:
            bot.kill()
            bot.wait()
            bot.stdout.close()
            bot.stderr.close()


def _first_to_decide(bots: list[subprocess.Popen[str]], folder: Path) -> subprocess.Popen[str]:
    """The bot asked a decision first (one of them moves first): waits for it."""
    by_pid = {bot.pid: bot for bot in bots}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for mark in folder.glob("deciding-*"):
            return by_pid[int(mark.name.removeprefix("deciding-"))]
        time.sleep(0.02)
    raise AssertionError("no bot was asked a decision within 30 s")
