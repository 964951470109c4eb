"""Whether a command bot's program can be started, asked before any game."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

__all__ = ["program_problem", "script_problem"]


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


# Programs that run a script named by their first argument that is no option.
INTERPRETER = re.compile(
    r"(python|pypy)[0-9.]*|node|nodejs|ruby|perl|php|bash|sh|dash|zsh|lua[0-9.]*"
)
# What such a script's name ends with: an argument without it (the value of an
# option, `python -W ignore bot.py`) is not taken for the script.
SCRIPT_SUFFIXES = frozenset(
    (".py", ".pyc", ".pyz", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".sh", ".lua")
)
# Options after which the interpreter runs no script file: code given inline
# (`python -c`, `node -e`, `php -r`), a module (`python -m pkg`), or stdin (`-`).
INLINE_CODE = frozenset(("-c", "-e", "-E", "-p", "--eval", "--print"))


def _runs_no_script(interpreter: str, arg: str) -> bool:
    if arg == "-":
        return True
    if interpreter.startswith(("python", "pypy")):  # its short options may be glued
        return arg[:2] in ("-c", "-m") and not arg.startswith("--")
    if interpreter == "php" and arg == "-r":
        return True
    return arg.split("=", 1)[0] in INLINE_CODE


def script_problem(command: Sequence[str], folder: Path) -> tuple[int, str] | None:
    """(index, why) when `command` (the program, then its arguments, started in
    `folder`) runs an interpreter on a script file that is not there, else None.
    The program exists, so the check of it passed, and every game of the bot
    then crashed at once (`python: can't open file 'bot2.py'`), played by a
    random stand-in: a typo in the script's name made a tournament of them."""
    interpreter = os.path.basename(command[0]) if command else ""
    if INTERPRETER.fullmatch(interpreter) is None:
        return None
    options_end = False
    for index, arg in enumerate(command[1:], start=1):
        if not options_end and arg == "--":
            options_end = True
            continue
        if not options_end and _runs_no_script(interpreter, arg):
            return None
        if not options_end and arg.startswith("-"):
            continue
        if os.path.splitext(arg)[1] not in SCRIPT_SUFFIXES:
            return None
        path = Path(arg) if Path(arg).is_absolute() else folder / arg
        try:
            found = path.is_file()
        except OSError as error:  # too long, or in a folder this user cannot enter
            return index, f"cannot look at {arg!r} ({path}): {error.strerror or error}"
        if found:
            return None
        what = "no file" if not path.exists() else "not a file:"
        return index, f"{interpreter} would run {arg!r}, {what} {path}"
    return None
