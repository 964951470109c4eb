"""Ctrl-C: one "sheepfold COMMAND: interrupted" line and exit 130, never a traceback nor a crash,
and no bot program left running. While `sheepfold` starts (the command modules,
gRPC and aiohttp among them, once loaded before any handler, for about half a
second), and pressed again and again while a match or a tournament stops."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.processes import processes

# The console script's own two lines, after a finder that is "interrupted" when
# a command's module is first imported (`serve`'s; gRPC was, before the parsers
# stopped loading it): as a Ctrl-C that lands while the imports run.
INTERRUPTED_START = """
import sys


class Interrupted:
    def find_spec(self, name, path=None, target=None):
        if name == "cli.serve":
            raise KeyboardInterrupt
        return None


sys.meta_path.insert(0, Interrupted())
sys.argv = ["sheepfold", "db", "info", "--db", "nowhere.db"]
from cli.main import main

sys.exit(main())
"""


def test_ctrl_c_while_the_command_loads_exits_130_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_START],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130
    assert done.stderr.strip() == "sheepfold: interrupted"  # before `db` is parsed


# How long after the program's first module has loaded (Python's own start is
# over) a Ctrl-C is pressed: while cli.main and the command modules load, and after.
PRESS_AFTER_LOAD_SECONDS = (0.0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08)


def _console_script(folder: Path) -> Path:
    """The `sheepfold` console script as pip writes it for pyproject.toml's
    entry point (the one a virtualenv holds is written when it is installed)."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["sheepfold"].split(":")
    script = folder / "sheepfold"
    script.write_text(
        f"#!{sys.executable}\nimport sys\nfrom {module} import {function}\n"
        "if __name__ == '__main__':\n"
        "    sys.argv[0] = sys.argv[0].removesuffix('.exe')\n"
        f"    sys.exit({function}())\n"
    )
    script.chmod(0o755)
    return script


def _ctrl_c_after_load(program: list[str], address: str, delay: float) -> tuple[int, str]:
    """`sheepfold health` started by `program`, Ctrl-C `delay` s after its first
    module loaded (seen in -X importtime's lines): (exit status, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONPROFILEIMPORTTIME": "1"}
    command = subprocess.Popen(
        [*program, "health", "--addr", address, "--timeout", "30"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert command.stderr is not None
    lines = []
    for line in command.stderr:
        lines.append(line)
        # "import time: 95 | 95 |   cli.entry", once a module has loaded (after
        # those it imports): the first of the program's own, past its package's.
        if line.rpartition("|")[2].strip().startswith("cli."):
            break
    else:
        raise AssertionError(f"no module of cli loaded:\n{''.join(lines)}")
    time.sleep(delay)
    command.send_signal(signal.SIGINT)
    rest = command.communicate(timeout=60)[1]
    return command.returncode, "".join(lines) + rest


def test_ctrl_c_from_the_first_line_of_the_program_exits_130_quietly(tmp_path: Path) -> None:
    """A Ctrl-C while `cli.main` and its imports loaded, before its own handling
    was in place, ended in a traceback ("from cli.main import main ...
    KeyboardInterrupt") and death by SIGINT, or (in a class's __set_name__) a
    RuntimeError, exit 1. The console script and `python -m cli` alike."""
    with socket.socket() as silent:  # takes the connection, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        for program in ([str(_console_script(tmp_path))], [sys.executable, "-m", "cli"]):
            for delay in PRESS_AFTER_LOAD_SECONDS:
                status, stderr = _ctrl_c_after_load(program, address, delay)
                said = [line for line in stderr.splitlines() if not line.startswith("import time")]
                assert "Traceback" not in stderr, (program, delay, stderr)
                assert status == 130, (program, delay, said)
                assert said[-1] in ("sheepfold: interrupted", "sheepfold health: interrupted")


# `sheepfold serve` with a Ctrl-C (or SIGTERM) that lands on the event loop just
# before the server takes the stop signals, or while its server object is made,
# before it listens (where a Ctrl-C a few ms after the database file appeared
# once landed).
INTERRUPTED_SERVER_START = """
import os
import signal
import sys

from server import app

where, signum = sys.argv[2], getattr(signal, sys.argv[3])
made = getattr(app, where).__init__


def interrupted(self, *args, **kwargs):
    os.kill(os.getpid(), signum)
    made(self, *args, **kwargs)


getattr(app, where).__init__ = interrupted
sys.argv = ["sheepfold", "serve", "--port", "0", "--db", sys.argv[1]]
from cli.main import main

sys.exit(main())
"""


@pytest.mark.parametrize(
    ("where", "signum"),
    [("StopSignals", "SIGINT"), ("StopSignals", "SIGTERM"), ("SheepfoldServer", "SIGINT")],
)
def test_a_stop_signal_while_serve_starts_stops_it_gracefully(
    tmp_path: Path, where: str, signum: str
) -> None:
    """A Ctrl-C once reached asyncio.run's handler, which cancelled gRPC's start
    half-way: exit 130 with gRPC's "Task exception was never retrieved ...
    InvalidStateError" traceback, the database's -wal and -shm files left open;
    a SIGTERM killed the process (exit 143)."""
    db = tmp_path / "sheepfold.db"
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_SERVER_START, str(db), where, signum],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert f'"signal": "{signum}"' in done.stderr, done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["sheepfold.db"]


# A command bot that never joins and ignores SIGTERM (tests/cli/bots).
STUBBORN_BOT = Path(__file__).resolve().parent / "bots" / "stubborn_bot.py"
# How often Ctrl-C is pressed again, until the command has ended.
PRESS_EVERY_SECONDS = 0.005
TOURNAMENT_INTERRUPTED = (
    "sheepfold tournament: interrupted; finished games are stored, "
    "run the same command again to resume"
)


def _bots(token: str) -> list[int]:
    """The stubborn bot's processes (its sandbox's too) given `token` as argument;
    not the command, which has it inside its --bots value."""
    mark = f"{STUBBORN_BOT.name}\0{token}".encode()
    return [pid for pid, _, cmdline in processes() if mark in cmdline]


def _started(token: str, command: subprocess.Popen[str]) -> None:
    """Wait until the stubborn bot runs (the command is playing)."""
    deadline = time.monotonic() + 30
    while not _bots(token):
        assert command.poll() is None, command.communicate()[1]
        assert time.monotonic() < deadline, "the bot did not start"
        time.sleep(0.05)


def _press_ctrl_c_until_it_ends(command: subprocess.Popen[str]) -> str:
    """SIGINT again and again, as an impatient user presses Ctrl-C (and as
    `timeout -s INT` sends two at once); returns stderr. A second one used to
    break into the first one's cleanup (now and then a SIGSEGV) or the exit
    (a traceback, or death by SIGINT)."""
    deadline = time.monotonic() + 30
    while command.poll() is None and time.monotonic() < deadline:
        command.send_signal(signal.SIGINT)
        time.sleep(PRESS_EVERY_SECONDS)
    return command.communicate(timeout=30)[1]


def _left_running(token: str) -> list[int]:
    """The bot's processes still there after a few seconds' grace (a bot killed at
    the very end may take a moment to go)."""
    deadline = time.monotonic() + 5
    while (left := _bots(token)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _interrupted(argv: list[str], token: str) -> tuple[int, str]:
    """Start `sheepfold ARGV`, wait for its stubborn bot (given `token`), press
    Ctrl-C until it ends; (exit status, stderr). Fails if the bot is left."""
    command = subprocess.Popen(
        [sys.executable, "-m", "cli", *argv],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _started(token, command)
        stderr = _press_ctrl_c_until_it_ends(command)
        left = _left_running(token)
        assert not left, f"bot processes left running: {left}\n{stderr}"
        return command.returncode, stderr
    finally:
        if command.poll() is None:
            command.kill()
            command.communicate()
        for pid in _bots(token):  # no stray bot for the next tests
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _stopped_once(status: int, stderr: str, last_line: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert status == 130, stderr
    assert stderr.strip().splitlines()[-1] == last_line


def _match(folder: Path, *flags: str) -> list[str]:
    """`sheepfold match` of a random bot against the stubborn bot, copied to `folder`."""
    shutil.copy(STUBBORN_BOT, folder)
    bots = f"random,cmd:{{python}} {STUBBORN_BOT.name} {folder}"
    return ["match", "--game", "sheep-n-sheep", "--players", "2", *flags, "--bots", bots]


def test_ctrl_c_again_and_again_stops_match_once_and_kills_its_bot(tmp_path: Path) -> None:
    argv = _match(tmp_path, "--no-sandbox", "--bot-dir", str(tmp_path))
    status, stderr = _interrupted(argv, str(tmp_path))
    _stopped_once(status, stderr, "sheepfold match: interrupted")


def test_ctrl_c_again_and_again_stops_a_sandboxed_bots_match(
    tmp_path: Path, sandbox_ready: None
) -> None:
    argv = _match(tmp_path, "--bot-dir", str(tmp_path))
    status, stderr = _interrupted(argv, str(tmp_path))
    _stopped_once(status, stderr, "sheepfold match: interrupted")


def test_ctrl_c_again_and_again_stops_tournament_run_and_keeps_its_database(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    shutil.copy(STUBBORN_BOT, folder)
    database = tmp_path / "cup.sqlite"
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-n-sheep"\nplayers = 2\ngames_per_pairing = 1\nconcurrency = 1\n'
        f'database = "{database}"\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "stubborn"\ncommand = ["{{python}}", "{STUBBORN_BOT.name}", '
        f'"{folder}"]\ncwd = "{folder}"\nsandbox = false\n'
    )
    status, stderr = _interrupted(["tournament", "run", str(config)], str(folder))
    _stopped_once(status, stderr, TOURNAMENT_INTERRUPTED)
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
