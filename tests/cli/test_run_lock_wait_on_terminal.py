"""`tournament run` on a terminal draws one live progress line. When a write
mid-run waits for another process's lock, the line saying so once landed at
the end of that progress line (the notice went straight to stderr); it now ends
the progress line, stands on a line of its own, and the progress line is drawn
again under it.

The lock is taken while the run cannot have stored a game yet: its bot "a"
makes no move until the test has the lock (it waits for a file the test
writes then). The test once took the lock after the first finished game and
relied on the run having more of its 80 games left to write: a reader late to
the terminal's output (a loaded machine) could find the run as good as done,
its last write milliseconds away or made, and no notice ever came."""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

from tests.cli.helpers import started_on_a_terminal
from tests.sqlite_locks import write_locked

WAITING = "is locked by another process; waiting for it (at most 30 s)"

# A random bot that makes no move before the file `go` beside it exists.
GATED_BOT = """
import time
from pathlib import Path

from clients.bots.random_bot import RandomBot

GO = Path(__file__).with_name("go")


class GatedBot(RandomBot):
    def decide(self, decision):
        while not GO.exists():
            time.sleep(0.005)
        return super().decide(decision)
"""
CONFIG = """name = "cup"
game = "sheep-showdown"
players = 2
games_per_pairing = 1
database = "cup.sqlite"
python_path = ["."]

[[bots]]
name = "a"
class = "gated_bot:GatedBot"

[[bots]]
name = "b"
builtin = "random"
"""


def _screen(written: str) -> list[str]:
    """The lines a terminal shows for `written`: a carriage return goes back to
    the start of the line and what follows is written over what was there."""
    lines = []
    for line in written.replace("\r\n", "\n").split("\n"):
        shown = ""
        for part in line.split("\r"):
            shown = part + shown[len(part) :]
        lines.append(shown.rstrip())
    return lines[:-1] if lines and not lines[-1] else lines


def test_a_lock_wait_mid_run_gets_a_line_of_its_own_and_the_progress_comes_back(
    tmp_path: Path,
) -> None:
    (tmp_path / "gated_bot.py").write_text(GATED_BOT)
    config = tmp_path / "cup.toml"
    config.write_text(CONFIG)
    database = tmp_path / "cup.sqlite"
    run, controller = started_on_a_terminal("tournament", "run", str(config), "--no-report")
    seen = bytearray()

    def read_until(wanted: bytes, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while wanted not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(controller, 65536)
                except OSError:  # the command closed its end: it has exited
                    return wanted in seen
                if not chunk:
                    break
                seen.extend(chunk)
        return wanted in seen

    try:
        assert read_until(b"[0/2]", 120), seen.decode(errors="replace")  # the line is drawn
        with write_locked(database):
            (tmp_path / "go").touch()  # the games go on: their first write waits for the lock
            assert read_until(WAITING.encode(), 60), seen.decode(errors="replace")
        read_until(b"played this run", 120)
        assert run.wait(timeout=60) == 0
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        os.close(controller)
        if run.stdout is not None:
            run.stdout.close()
    screen = _screen(seen.decode(errors="replace"))
    notice = f"sheepfold tournament: {database} {WAITING}"
    assert notice in screen, "\n".join(screen)
    after = screen[screen.index(notice) + 1]
    assert after.startswith("[") and "games/s" in after, "\n".join(screen)
    assert screen[-1] == "finished: 2 games played this run", "\n".join(screen)
