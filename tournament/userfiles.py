"""Files a user names on the command line: a regular file of a sane size, or one
line saying why not. /dev/zero would be read until memory runs out and a FIFO
would wait for a writer for ever; both are refused before a byte is read."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_USER_FILE_BYTES", "UserFileError", "read_user_text", "regular_file_problem"]

# A config is a few KB; a megabyte is far beyond any real one.
MAX_USER_FILE_BYTES = 1_000_000


class UserFileError(ValueError):
    """A file that cannot be used, with the one line saying why."""


def _kind_problem(path: str | Path, mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return f"{path} is a folder, not a file"
    if not stat.S_ISREG(mode):
        return f"{path} is not a regular file"
    return None


def regular_file_problem(path: str | Path) -> str | None:
    """Why `path` is no regular file (missing, a folder, a device, a FIFO), or
    None when it is one. Looks only: nothing is opened."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"there is no file at {path}"
    except OSError as error:  # a name too long, a folder on the way that may not be read
        return f"cannot use {path}: {error.strerror or error}"
    return _kind_problem(path, mode)


def read_user_text(path: str | Path, max_bytes: int = MAX_USER_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at `path`, at most `max_bytes` long;
    a UserFileError otherwise. The file is checked once opened (O_NONBLOCK: a
    FIFO does not wait for a writer), so it cannot be swapped in between."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise UserFileError(f"cannot read {path}: {error.strerror or error}") from None
    problem = _kind_problem(path, os.fstat(fd).st_mode)
    if problem is not None:
        os.close(fd)
        raise UserFileError(problem)
    with os.fdopen(fd, "rb") as file:
        try:
            data = file.read(max_bytes + 1)
        except OSError as error:
            raise UserFileError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise UserFileError(f"{path} is too large: more than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserFileError(
            f"{path} is not UTF-8 text (byte {error.start}: {error.reason})"
        ) from None
