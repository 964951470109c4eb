"""Whether a sandboxed bot's program is one its sandbox can see.

The bot check finds a command's program on the host; the sandbox then starts
it seeing only the bot's folder, its `read_only` paths and the system's
runtime. This tells, before the first game, when those two views differ.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Mapping, Sequence

from clients.launch.sandbox import SANDBOX_PATH, is_inside, resolve_program, seen_by_every_bot

__all__ = ["unseen_program"]


def unseen_program(
    program: str, folder: str, read_only: Sequence[str] = (), env: Mapping[str, str] | None = None
) -> str | None:
    """The host path `program` (a sandboxed bot's command, started in `folder`
    with its config's `env`) runs from when its sandbox cannot see it, else None.

    A bare name is looked up on the host's PATH (resolve_program), which may hold
    folders no sandbox binds: pyenv's shims, nvm's node, ~/.local/bin, /opt, /snap.
    The check passed on the host, then every game crashed ("failed to execute
    ...: No such file or directory") and random stand-ins played them all. The
    program must lie, as named and with its symlinks resolved, in what the bot
    sees: its folder, its `read_only` paths or the runtime (seen_by_every_bot).
    A name not on the host's PATH is searched in the sandbox on its PATH (the
    `env`'s, else SANDBOX_PATH), here at the same paths; None when not found."""
    path = resolve_program(program, folder)
    if "/" not in path:
        found = shutil.which(program, path=(env or {}).get("PATH", SANDBOX_PATH))
        if found is None:
            return None
        path = found
    path = os.path.join(folder, path)  # an absolute path stays as it is
    roots = [folder, *read_only, *seen_by_every_bot()]
    seen = {os.path.abspath(root) for root in roots} | {os.path.realpath(root) for root in roots}
    return _outside(path, seen) or _unseen_interpreter(
        path, seen, (env or {}).get("PATH", SANDBOX_PATH)
    )


def _outside(path: str, seen: set[str]) -> str | None:
    """`path`, as named or with its symlinks resolved, where it lies outside
    every folder in `seen`; None when the sandbox sees it both ways."""
    for where in (os.path.abspath(path), os.path.realpath(path)):
        if not any(is_inside(where, root) for root in seen):
            return where
    return None


def _unseen_interpreter(script: str, seen: set[str], sandbox_path: str) -> str | None:
    """The interpreter a script's `#!` line names, when the sandbox cannot see it:
    `#!/usr/bin/env node` finds node on the sandbox's PATH, not on nvm's."""
    # Never waits: the bot's folder is a stranger's, and a named pipe there would
    # block an ordinary open until something wrote to it.
    try:
        fd = os.open(script, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with open(fd, "rb", closefd=False) as file:
            line = file.readline(256)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not line.startswith(b"#!"):
        return None
    words = line[2:].decode(errors="replace").split()
    if not words:
        return None
    interpreter = words[0]
    if os.path.basename(interpreter) == "env":
        names = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
        if not names:
            return None
        found = shutil.which(names[0], path=sandbox_path)
        if found is None:
            return f"{names[0]} (on no folder of the sandbox's PATH, {sandbox_path})"
        interpreter = found
    return _outside(interpreter, seen)
