"""`tournament run` whose stderr reader stops reading (a parent that reads its
pipe only at the end, a stuck log shipper): the run goes on, its log lines
wait (or are lost and counted), and what is waiting is written once the reader
reads again.

Before, the first log line after the pipe filled blocked the run's event
loop and its in-process server's: no game was played any more, and SIGTERM
could not stop it either."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from server import launch

PIPE_BYTES = 4096  # the least a pipe holds: a few log lines fill it
GAMES = 40


def _games(db: Path) -> int:
    try:
        with sqlite3.connect(db) as store:
            return int(store.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:  # not made yet
        return 0


def test_a_run_whose_stderr_is_not_read_goes_on(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(
        'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\n'
        f"games_per_pairing = {GAMES // 2}\nconcurrency = 2\n"
        'database = "cup.db"\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    run = subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", "run", str(config)],
        cwd=launch.ROOT,
        stdout=subprocess.DEVNULL,
        stderr=write_end,
    )
    os.close(write_end)
    read: list[bytes] = []
    try:
        deadline = time.monotonic() + 60
        while _games(tmp_path / "cup.db") < GAMES and time.monotonic() < deadline:
            if run.poll() is not None:
                break
            time.sleep(0.2)
        played = _games(tmp_path / "cup.db")
    finally:
        reader = threading.Thread(target=lambda: read.append(_read_all(read_end)))
        reader.start()  # now the reader reads again: the run can finish
        try:
            code = run.wait(timeout=60)
        finally:
            run.kill()
            reader.join(10)
            os.close(read_end)
    assert played == GAMES, f"{played} of {GAMES} games played while stderr was not read"
    assert code == 0, b"".join(read).decode()[-2000:]
    assert b"games played in" in b"".join(read)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)
