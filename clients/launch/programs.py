"""Whether a command bot's program can be started, asked before any game."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["program_problem"]


def program_problem(program: str, folder: Path, search_path: str | None) -> str | None:
    """Why `program` cannot be started in `folder`, or None: a path (relative to
    `folder`) must be an executable regular file; a bare name must be on `search_path`."""
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program) if Path(program).is_absolute() else folder / program
        try:
            found = path.exists()
        except OSError as error:  # too long, or in a folder this user cannot enter
            return f"cannot look at program {program!r} ({path}): {error.strerror or error}"
        if not found:
            return f"no program {program!r} (looked at {path})"
        # A regular file: a named pipe (tar keeps them) passed, and the check of
        # its `#!` line (sandbox_view) then waited on it for a writer for ever.
        if not path.is_file() or not os.access(path, os.X_OK):
            return f"{program!r} is not an executable file ({path})"
        return None
    if shutil.which(program, path=search_path) is None:
        return f"no program {program!r} on PATH"
    return None
