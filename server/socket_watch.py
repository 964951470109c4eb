"""A server's watch on the Unix sockets it listens on.

A socket file deleted (`rm`, a clean-up of /tmp or /run) or replaced (another
program bound the name) while the server runs takes the server's clients'
way in with it: nobody can connect through the name any more, and gRPC cannot
listen on it again. Checked every CHECK_SECONDS (a stat each, off the event
loop, never per call); once a socket is lost, one error line naming it and
`lost(path)`. At the stop the server deletes only names still leading to its
own sockets: what took a name is someone else's.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import structlog

from server.file_identity import CHECK_SECONDS, name_problem, until_problem


@dataclass(frozen=True, slots=True)
class SocketFile:
    path: str
    device: int
    inode: int

    def problem(self) -> str | None:
        """What became of its name (None: it still leads to this socket)."""
        return name_problem(self.path, self.device, self.inode)


def socket_file(path: str) -> SocketFile | None:
    """The socket at `path` now (None: nothing there, or not a socket)."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISSOCK(found.st_mode):
        return None
    return SocketFile(path, found.st_dev, found.st_ino)


class SocketWatch:
    def __init__(self, lost: Callable[[str], None], every: float = CHECK_SECONDS) -> None:
        """`lost(path)`: the socket at `path` is gone for good."""
        self._lost = lost
        self._every = every
        self._sockets: list[SocketFile] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._log = structlog.get_logger("sheepfold.server")

    def start(self, paths: Iterable[str]) -> None:
        """Once the server listens: remember what each of `paths` is now."""
        self._sockets = [s for s in map(socket_file, paths) if s is not None]
        self._tasks = [
            asyncio.create_task(self._watch(ours), name=f"watch-unix-socket {ours.path}")
            for ours in self._sockets
        ]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    def still_ours(self, path: str) -> bool:
        """Does `path` lead to the socket the server made there (or was it never
        watched: then nothing is known against it)?"""
        for ours in self._sockets:
            if ours.path == path:
                return ours.problem() is None
        return True

    async def _watch(self, ours: SocketFile) -> None:
        problem = await until_problem(ours.problem, self._every)
        self._log.error(
            LOST,
            path=ours.path,
            problem=problem,
            advice="no client can connect through it any more and the server "
            "cannot listen on it again: restart the server (SIGTERM); the "
            "matches in play go on",
        )
        self._lost(ours.path)


LOST = "listening socket deleted or replaced"
