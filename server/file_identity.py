"""Whether a name still leads to the file the server made or opened there, and
a watch that waits, off the event loop, until it no longer does.

The server holds files by what they are, not by their names: SQLite keeps
writing to the database it opened, and a listening Unix socket stays the one
it bound. A name deleted or taken by another file (`rm`, a clean-up of /tmp,
another program) goes unnoticed unless the name is checked again; see
server/db_file.py and server/socket_watch.py for what each watch then does.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

CHECK_SECONDS = 2.0


def name_problem(path: str, device: int, inode: int) -> str | None:
    """What became of the file (`device`, `inode`) once at `path`, or None
    while the name still leads to it, or when it cannot be told (a folder
    made unreadable: whoever uses the file will say)."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return "was deleted"
    except OSError:
        return None
    if (now.st_dev, now.st_ino) != (device, inode):
        return "was replaced by another file (moved, or deleted and made again)"
    return None


async def until_problem(problem: Callable[[], str | None], every: float = CHECK_SECONDS) -> str:
    """Calls `problem` every `every` seconds in a thread (a stat never holds up
    the event loop) until it names one, and returns that."""
    while True:
        await asyncio.sleep(every)
        found = await asyncio.to_thread(problem)
        if found is not None:
            return found
