"""A command started with a standard stream closed (`2>&-`, `>&-`, a daemon's
supervisor) or whose stdout refuses writes (`>/dev/full`): it runs as it would
otherwise, and an output it cannot write is one line on stderr and exit 1,
never a traceback nor a silent exit 1."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli.helpers import command, one_line, random_cup
from tests.conftest import ROOT

MATCH = ("match", "--game", "sheep-showdown", "--players", "2", "--bots", "random,random")
MATCH_JSON = (*MATCH, "--seed", "1", "--json")


def run_closing(fd: int, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`sheepfold ARGS...` started with descriptor `fd` closed, as `N>&-` in a shell."""
    return subprocess.run(
        ["bash", "-c", f'exec "$@" {fd}>&-', "bash", *command(*args)],
        cwd=ROOT,
        stdout=subprocess.PIPE if fd != 1 else None,
        stderr=subprocess.PIPE if fd != 2 else None,
        text=True,
        timeout=timeout,
    )


def test_match_with_stderr_closed_plays_and_prints_its_result() -> None:
    done = run_closing(2, *MATCH_JSON)
    assert done.returncode == 0
    assert json.loads(done.stdout)["game"] == "sheep-showdown"


def test_serve_with_stderr_closed_serves_until_stopped() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            "bash",
            "-c",
            'exec "$@" 2>&-',
            "bash",
            *command("serve", "--port", str(port), "--db", ":memory:"),
        ],
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, "serve exited with its stderr closed"
            health = subprocess.run(
                command("health", "--addr", f"127.0.0.1:{port}", "--timeout", "1"),
                cwd=ROOT,
                capture_output=True,
                timeout=30,
            )
            if health.returncode == 0:
                break
            assert time.monotonic() < deadline, "serve never answered health"
            time.sleep(0.2)
    finally:
        server.terminate()
        code = server.wait(timeout=30)
    assert code == 0


def test_match_with_stdout_closed_says_so_in_one_line() -> None:
    done = run_closing(1, *MATCH_JSON)
    assert one_line(done) == "sheepfold match: cannot write the output: Bad file descriptor"
    assert done.returncode == 1


def test_match_onto_a_full_disk_says_so_in_one_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command(*MATCH_JSON),
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert one_line(done) == "sheepfold match: cannot write the output: No space left on device"
    assert done.returncode == 1


CUP = random_cup(games_per_pairing=1, database="cup.sqlite")


def test_a_tournament_whose_stderr_is_full_plays_and_prints_its_report(tmp_path: Path) -> None:
    """Its summary line on stderr once failed ("No space left on device") after
    every game was played: exit 1, and the report never printed."""
    config = tmp_path / "cup.toml"
    config.write_text(CUP)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command("tournament", "run", str(config)),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=full,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0
    assert "a" in done.stdout and "b" in done.stdout and "Elo" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("args", "speaker"),
    [
        (("--help",), "sheepfold"),
        (("--version",), "sheepfold"),
        (("tournament", "--help"), "sheepfold tournament"),
        (("match", "--help"), "sheepfold match"),
    ],
)
def test_help_onto_a_full_disk_is_a_failure_not_exit_0(args: tuple[str, ...], speaker: str) -> None:
    # argparse drops a write error of its own help or version text; the lost text
    # once exited 0 with nothing said, or claimed a reader had left.
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            command(*args), cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    # Named as every other line of the command is; the program's own without one.
    assert one_line(done) == f"{speaker}: cannot write the output: No space left on device"
    assert done.returncode == 1
