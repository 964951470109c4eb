"""The console log's colours on a terminal: a terminal that shows none
(TERM=dumb: Emacs' shell buffer, a serial console) or a user who asked for none
(NO_COLOR, https://no-color.org) got them anyway, as escape codes in every
line ("^[[2m2026-...^[[0m [^[[32m^[[1minfo ..."), since colours followed only
whether stderr was a terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time

import pytest

from tests.cli.helpers import command
from tests.conftest import ROOT

ESCAPE = b"\x1b["


def first_log_line(env: dict[str, str]) -> bytes:
    """What `sheepfold serve` writes to its terminal up to its "server started"
    line, run with `env` over this environment (NO_COLOR and TERM left out)."""
    base = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "TERM")}
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        command("serve", "--port", "0", "--db", ":memory:"),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal,
        env={**base, **env},
    )
    os.close(terminal)
    seen = b""
    try:
        deadline = time.monotonic() + 30
        while b"server started" not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([controller], [], [], 1)
            if ready:
                seen += os.read(controller, 65536)
    finally:
        process.terminate()
        process.wait(timeout=30)
        os.close(controller)
    return seen


@pytest.mark.parametrize(
    "env",
    [{"TERM": "dumb"}, {"TERM": "xterm", "NO_COLOR": "1"}],
    ids=["dumb-terminal", "no-color"],
)
def test_a_terminal_without_colours_gets_plain_lines(env: dict[str, str]) -> None:
    seen = first_log_line(env)
    assert ESCAPE not in seen, seen
    assert b"info" in seen


def test_a_colour_terminal_still_gets_colours() -> None:
    assert ESCAPE in first_log_line({"TERM": "xterm", "NO_COLOR": ""})
