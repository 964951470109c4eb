"""The README's first bot, run as a script, answers a user's mistake in one line.

The README shows `python mymodule.py HOST:PORT MATCH_ID SEAT_TOKEN`. Given a
wrong token, a match id that does not exist, a server that is not there, or
too few arguments, the script as written ended in a traceback through the SDK
("clients.sdk.SeatError: UNAUTHENTICATED: invalid seat token" at its foot, or
"ValueError: not enough values to unpack"), as if the SDK had failed. The
guide now says what `play` raises for these, and the example catches it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import created_match
from tests.cli.test_readme_first_bot import _first_bot as _script
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e


def _run_script(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(_script(folder)), *args],
        cwd=folder, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def test_a_wrong_token_is_one_line(tmp_path: Path, server: ServerProcess) -> None:
    match = created_match(server.address)
    done = _run_script(tmp_path, server.address, str(match["match_id"]), "not-a-token")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["mymodule.py: UNAUTHENTICATED: invalid seat token"]


def test_a_match_that_does_not_exist_is_one_line(tmp_path: Path, server: ServerProcess) -> None:
    done = _run_script(tmp_path, server.address, "0123456789abcdef", "not-a-token")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["mymodule.py: NOT_FOUND: no match '0123456789abcdef'"]


def test_a_server_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    done = _run_script(tmp_path, "127.0.0.1:1", "0123456789abcdef", "not-a-token")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "mymodule.py: cannot reach the server at 127.0.0.1:1: connection refused"
    ]


def test_missing_arguments_are_a_usage_line(tmp_path: Path) -> None:
    done = _run_script(tmp_path, "127.0.0.1:1")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == ["usage: python mymodule.py HOST:PORT MATCH_ID SEAT_TOKEN"]


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("localhost", "'localhost' is not HOST:PORT (e.g. 127.0.0.1:50051)"),
        ("localhost:99999", "'localhost:99999': 99999 is not a port: use 1 to 65535"),
        ("http://127.0.0.1:50051", "'http://127.0.0.1:50051': write HOST:PORT without http:// "
         "(e.g. 127.0.0.1:50051)"),
    ],
)  # fmt: skip
def test_an_address_that_is_no_address_is_one_line(tmp_path: Path, address: str, said: str) -> None:
    """A server given without its port (or with one past 65535, or as a URL)
    ended the script in a traceback through the SDK's address check
    ("ValueError: 'localhost' is not HOST:PORT ..."), where a host that does
    not resolve or a port where nothing listens was one line."""
    done = _run_script(tmp_path, address, "0123456789abcdef", "not-a-token")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"mymodule.py: {said}"]
