"""Helpers shared by the command-line tests."""

from __future__ import annotations

import json
import os
import pty
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from server.launch import ServerProcess
from server.records import ClockConfig, MatchRecord
from tests.conftest import ROOT


def database_of(server: ServerProcess) -> str:
    """The SQLite file the server writes (what `sheepfold replay --db` reads)."""
    args = list(server.process.args)
    return str(args[args.index("--db") + 1])


def command(*args: str, env: dict[str, str] | None = None) -> list[str]:
    """`sheepfold ARGS...` as a user runs it."""
    return [sys.executable, "-m", "cli", *args]


def started_on_a_terminal(*args: str) -> tuple[subprocess.Popen[bytes], int]:
    """`sheepfold ARGS` started with its stderr on a pseudo-terminal (stdout on
    a pipe, stdin empty), and the terminal's controlling end to read it from."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        command(*args),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=terminal,
        stdin=subprocess.DEVNULL,
    )
    os.close(terminal)
    return process, controller


def sheepfold(
    *args: str, timeout: float = 60, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(*args),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """stderr, which must be exactly one line and no traceback."""
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1, f"expected one line on stderr, got:\n{done.stderr}"
    return lines[0]


def flag_help(command: tuple[str, ...], flag: str) -> str:
    """The `--help` text of `flag` for `sheepfold COMMAND...`, its wrapped
    lines joined into one."""
    shown = sheepfold(*command, "--help")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(f"  {flag} "))
    rest = lines[first + 1 :]
    end = next((i for i, line in enumerate(rest) if line.startswith("  -")), len(rest))
    return " ".join(" ".join([lines[first], *rest[:end]]).split())


def sheepfold_in(
    folder: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`sheepfold ARGS...` run from `folder`, as a user runs it beside their bot's
    file (the repository importable through PYTHONPATH)."""
    return sheepfold(*args, timeout=timeout, env={"PYTHONPATH": str(ROOT)}, cwd=folder)


def random_cup(
    game: str = "sheep-showdown",
    *,
    name: str | None = "cup",
    games_per_pairing: int | None = None,
    database: str | None = None,
) -> str:
    """A tournament config (TOML) of two built-in random bots, "a" and "b":
    the plainest that plays. A key left None is left out (the config's default)."""
    lines = [f'game = "{game}"', "players = 2"]
    if name is not None:
        lines.insert(0, f'name = "{name}"')
    if games_per_pairing is not None:
        lines.append(f"games_per_pairing = {games_per_pairing}")
    if database is not None:
        lines.append(f'database = "{database}"')
    for bot in ("a", "b"):
        lines += ["", "[[bots]]", f'name = "{bot}"', 'builtin = "random"']
    return "\n".join(lines) + "\n"


def play_cup(config: Path, *, timeout: float = 120) -> None:
    """`sheepfold tournament run CONFIG --no-report`, which must succeed."""
    done = sheepfold("tournament", "run", str(config), "--no-report", timeout=timeout)
    assert done.returncode == 0, done.stderr


def stored_match(match_id: str, seed: int, created_at: float) -> MatchRecord:
    """A 2-player Sheep 'n' Sheep match record, for tests that fill a server
    database through SqliteStore without playing."""
    return MatchRecord(
        match_id=match_id,
        game="sheep-n-sheep",
        players=2,
        options={},
        seed=seed,
        clock=ClockConfig(),
        token_hashes=("a", "b"),
        created_at=created_at,
    )


def play_random_match(address: str, seed: int = 1) -> None:
    """A two-seat Sheep Showdown match of random bots, played to its end on
    the server at `address`."""
    done = sheepfold(
        *("match", "--server", address, "--game", "sheep-showdown", "--players", "2"),
        *("--bots", "random,random", "--seed", str(seed)),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def create_match(address: str) -> subprocess.CompletedProcess[str]:
    """`sheepfold create` of a two-seat Sheep 'n' Sheep match nobody joins."""
    return sheepfold(
        "create", "--server", address, "--game", "sheep-n-sheep", "--players", "2", timeout=60
    )


def created_match(address: str) -> dict[str, Any]:
    """A two-seat Sheep 'n' Sheep match created with `sheepfold create --json`:
    its JSON (match_id, seat_tokens, ...)."""
    done = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "2", "--server", address, "--json",
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def resolver_can_answer(host: str) -> bool:
    """Whether this machine's resolver can say what `host` is, if only that there
    is no such name: offline, or in a network namespace, it answers "temporary
    failure", and a name that does not resolve is then no typo to refuse."""
    try:
        socket.getaddrinfo(host, None)
    except socket.gaierror as error:
        return error.errno != socket.EAI_AGAIN
    return True
