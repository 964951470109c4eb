"""`--wait` for the commands that use a database another process may hold
locked (`tournament run`, `sprt`, `forget`, `report`, `replay`), and the line
they print when they wait."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from cli.db import MAX_WAIT_SECONDS
from cli.values import seconds_up_to
from tournament.store_lock import LOCK_WAIT_SECONDS, LockWait


def add_wait_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--wait",
        type=seconds_up_to(MAX_WAIT_SECONDS, zero=True),
        default=LOCK_WAIT_SECONDS,
        metavar="SECONDS",
        help="how long to wait for another process's lock on the database, 0 to "
        f"{MAX_WAIT_SECONDS:,} (default %(default)g)",
    )


def _on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def wait_notice(
    command: str, path: str, say: Callable[[str], None] = _on_stderr
) -> Callable[[float], None]:
    """What to call when the wait for a lock on `path` began: one line, said
    once however many reads wait, on stderr or through `say` (a live progress
    line's note, which ends that line first and draws it again after)."""
    said = False

    def notice(seconds: float) -> None:
        nonlocal said
        if not said:
            said = True
            say(
                f"{command}: {path} is locked by another process; waiting for it "
                f"(at most {seconds:g} s)"
            )

    return notice


def lock_wait(
    command: str, args: argparse.Namespace, path: str, say: Callable[[str], None] = _on_stderr
) -> LockWait:
    """The wait `--wait` asks for on the database at `path`, said as `command`
    (through `say`, see wait_notice)."""
    return LockWait(args.wait, wait_notice(command, path, say))
