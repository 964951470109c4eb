"""Files a user names on the command line: a regular file of a sane size, or one
line saying why not. /dev/zero would be read until memory runs out and a FIFO
would wait for a writer for ever; both are refused before a byte is read."""

from __future__ import annotations

from pathlib import Path

from server.files import MAX_USER_FILE_BYTES, Kind, NotRegular, TooLarge, file_kind, read_regular

__all__ = ["MAX_USER_FILE_BYTES", "UserFileError", "read_user_text", "regular_file_problem"]


class UserFileError(ValueError):
    """A file that cannot be used, with the one line saying why."""


def _kind_problem(path: str | Path, kind: Kind) -> str | None:
    return {
        Kind.MISSING: f"there is no file at {path}",
        Kind.FOLDER: f"{path} is a folder, not a file",
        Kind.OTHER: f"{path} is not a regular file",
        Kind.REGULAR: None,
    }[kind]


def regular_file_problem(path: str | Path) -> str | None:
    """Why `path` is no regular file (missing, a folder, a device, a FIFO), or
    None when it is one. Looks only: nothing is opened."""
    try:
        return _kind_problem(path, file_kind(path))
    except OSError as error:  # a name too long, a folder on the way that may not be read
        return f"cannot use {path}: {error.strerror or error}"


def read_user_text(path: str | Path, max_bytes: int = MAX_USER_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at `path`, at most `max_bytes` long;
    a UserFileError otherwise."""
    try:
        data = read_regular(path, max_bytes)
    except OSError as error:
        raise UserFileError(f"cannot read {path}: {error.strerror or error}") from None
    except NotRegular as error:
        raise UserFileError(_kind_problem(path, error.kind)) from None
    except TooLarge:
        raise UserFileError(f"{path} is too large: more than {max_bytes:,} bytes") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserFileError(
            f"{path} is not UTF-8 text (byte {error.start}: {error.reason})"
        ) from None
