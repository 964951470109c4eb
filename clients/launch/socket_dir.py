"""Private folders for the Unix sockets an in-process server shares with
sandboxed bots, and the leases that hand those sockets out.

One socket per bot at a time, where there are enough: the server caps the
connections of each socket it listens on, so a bot that opens all it can
fills its own socket's share, not the one every other bot joins through.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["SocketLeases", "private_socket", "private_sockets"]


@contextmanager
def private_socket() -> Iterator[str]:
    """The path of a socket in a fresh mode-0700 folder, removed afterwards."""
    with private_sockets(1) as (path,):
        yield path


@contextmanager
def private_sockets(count: int) -> Iterator[tuple[str, ...]]:
    """`count` socket paths (none at all for 0) in a fresh mode-0700 folder,
    removed afterwards.

    Unix socket paths are short (108 bytes), hence the short prefix in the
    system's temporary folder. No folder for 0: a process killed before its
    `finally` (SIGKILL; Ray ending a game task) leaves what it made behind.
    """
    if count == 0:
        yield ()
        return
    folder = tempfile.mkdtemp(prefix="sheepfold-")
    try:
        if count == 1:
            yield (str(Path(folder) / "arena.sock"),)
        else:
            yield tuple(str(Path(folder) / f"arena-{n}.sock") for n in range(count))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class SocketLeases:
    """Hands each bot the socket the fewest running bots hold (the first such),
    so bots share a socket only when there are more bots than sockets."""

    def __init__(self, paths: Sequence[str]) -> None:
        if not paths:
            raise ValueError("no socket to lease")
        self.paths = tuple(paths)
        self._held = dict.fromkeys(self.paths, 0)

    def lease(self) -> str:
        path = min(self.paths, key=self._held.__getitem__)
        self._held[path] += 1
        return path

    def release(self, path: str) -> None:
        if self._held.get(path, 0) > 0:
            self._held[path] -= 1

    def held(self, path: str) -> int:
        return self._held[path]
