"""A private folder for the Unix socket an in-process server shares with sandboxed bots."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["private_socket"]


@contextmanager
def private_socket() -> Iterator[str]:
    """The path of a socket in a fresh mode-0700 folder, removed afterwards.

    Unix socket paths are short (108 bytes), hence the short prefix in the
    system's temporary folder.
    """
    folder = tempfile.mkdtemp(prefix="sheepfold-")
    try:
        yield str(Path(folder) / "arena.sock")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
