"""Running a command in a default (or given) sandbox, as a bot is run."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clients.launch import BotCommand, BotFailure, Launcher
from clients.launch.sandbox import SandboxPolicy


def run_in_sandbox(tmp_path: Path, *argv: str, policy: SandboxPolicy | None = None) -> str:
    """Run `argv` in a sandbox (the default `policy` unless given): "ok", or its
    failure with what it printed last."""
    tmp_path.chmod(0o755)
    socket = tmp_path / "arena.sock"
    socket.touch()
    bot = Launcher(str(socket)).process(
        BotCommand(tuple(argv), str(tmp_path), "", sandbox=policy or SandboxPolicy())
    )
    try:
        asyncio.run(bot.run())
    except BotFailure as failure:
        return f"failed: {failure}"
    return "ok"
