"""On a terminal, `tournament run` draws one live status line, and its log
(the in-process server's "decision deadline missed", the runner's "bot
crashed") is written to the same terminal by a thread of its own. Every such
line began at the end of the status line, `[23/168] 2.01 games/s ... last
match c0c278f983306da2` followed on the same row by the warning, and the next
status was drawn at the end of the warning's row: a run with one slow or
crashing bot garbled its progress for every game of that bot. Each log line
now starts where the status line was, blanked, and the status is drawn again
under it, as a note of the runner's own was already."""

from __future__ import annotations

import os
import re
import select
import time
from pathlib import Path

import pytest

from server.logs import LostLines, QueuedStderr
from tests.cli.helpers import started_on_a_terminal
from tests.tournament.test_runner import HERE
from tournament.progress import TerminalProgress

CSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
STATUS = re.compile(r"\[\d+/\d+\]")


def screen(data: bytes) -> list[str]:
    """The rows a terminal shows for `data`: "\\r" goes back to the row's start,
    "\\n" to the next row, anything else overwrites where the cursor is."""
    rows: list[list[str]] = [[]]
    column = 0
    for char in CSI.sub("", data.decode("utf-8", "replace")):
        if char == "\r":
            column = 0
        elif char == "\n":
            rows.append([])
            column = 0
        else:
            row = rows[-1]
            row.extend(" " * (column + 1 - len(row)))
            row[column] = char
            column += 1
    return ["".join(row).rstrip() for row in rows]


def test_a_log_line_goes_on_a_row_of_its_own_and_the_status_under_it() -> None:
    read_end, write_end = os.pipe()
    try:
        stream = os.fdopen(os.dup(write_end), "w", encoding="utf-8")
        progress = TerminalProgress(stream)
        queue = QueuedStderr(write_end, "utf-8", LostLines(), 100)
        queue.around = progress.lines_between
        progress.start("cup", 4, 1)
        queue.put("warning: decision deadline missed")
        assert queue.flush(5)
        progress.finish(0, "interrupted")
        queue.put("server stopped")  # after the end: no status to draw again
        assert queue.flush(5)
        stream.close()
        os.close(write_end)
        write_end = -1
        with os.fdopen(read_end, "rb") as reader:
            read_end = -1
            shown = screen(reader.read())
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    assert shown == [
        "cup: 4 games, 1 already played",
        "warning: decision deadline missed",
        "[1/4]",
        "interrupted: 0 games played this run",
        "server stopped",
        "",
    ]


def _read_all(process_controller: int, deadline: float) -> bytes:
    data = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process_controller], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(process_controller, 65536)
        except OSError:  # the terminal's other end closed: the command ended
            break
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.e2e
def test_a_run_with_a_slow_bot_keeps_its_status_line_apart_from_the_log(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(
        f'game = "sheep-n-sheep"\npython_path = ["{HERE}"]\ngames_per_pairing = 2\n'
        "decision_seconds = 0.1\nforfeit_on_timeout = false\nbootstrap = 0\n"
        f'database = "{tmp_path / "cup.sqlite"}"\n'
        # 0.2 s a decision: a deadline missed in every game, logged by the server
        '[[bots]]\nname = "stalling"\nclass = "tournament_test_bots:StallingBot"\n'
        '[[bots]]\nname = "quick"\nbuiltin = "random"\n'
    )
    process, controller = started_on_a_terminal("tournament", "run", str(config), "--no-report")
    try:
        data = _read_all(controller, time.monotonic() + 120)
        assert process.wait(timeout=30) == 0, data.decode("utf-8", "replace")
    finally:
        os.close(controller)
        if process.stdout is not None:
            process.stdout.close()
        if process.poll() is None:
            process.kill()
            process.wait()
    shown = screen(data)
    warnings = [row for row in shown if "deadline missed" in row]
    assert warnings, shown  # the log did write to the terminal
    assert not [row for row in warnings if STATUS.search(row)], shown
    assert any(row.startswith("[4/4]") for row in shown), shown
