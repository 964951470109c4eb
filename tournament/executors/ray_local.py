"""The Ray instance `--ray` (without an address) starts on this machine: the
run's own, and nothing of it outlives the run.

It lives in a new folder of its own (mode 0700; Ray's `_temp_dir` inside it),
where Ray would otherwise add a session folder to /tmp/ray on every run and
leave it there. Its authentication token is a file in that folder, readable by its owner
alone: Ray would write one to ~/.ray/auth_token, readable by everyone (0644),
and keep it. A reaper process (ray_reaper.py) ends whatever of the instance
outlives the driver and removes the folder, even when the driver is killed.

A token file other users can read (Ray's ~/.ray/auth_token as Ray writes it,
or the one RAY_AUTH_TOKEN_PATH names) is the user's, not the run's: every Ray
run says so in a warning once Ray is there, naming the chmod that fixes it, and
leaves it as it is (a token shared with a group on purpose, or another user's, is theirs).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import secrets
import shlex
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import structlog

from tournament.executors import ray_reaper

__all__ = ["FOLDER_PREFIX", "own_instance", "token_warnings", "warn_of_open_tokens"]

FOLDER_PREFIX = "sheepfold-ray-"
TOKEN_FILE = "auth_token"
# Where a user chose the token (or no token): theirs to keep.
TOKEN_SETTINGS = ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
# Set by Ray (2.60) in this process's environment when it starts an instance
# with a token, and left there after it shuts down: put back as it was, else a
# later join of another cluster from this process asks for a token it lacks.
AUTH_MODE = "RAY_AUTH_MODE"
# Where Ray keeps a token when none is set, as `ray start --head` writes it.
RAY_TOKEN_FILE = "~/.ray/auth_token"
REAPER_SECONDS = 10.0


@contextlib.contextmanager
def own_instance() -> Iterator[dict[str, Any]]:
    """While inside, ray.init's arguments for the run's own instance; on the way
    out (after ray.shutdown) its leftover processes end and its folder goes."""
    # Short, as Ray's own /tmp/ray: a Unix socket's path has at most 107 bytes.
    folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=_system_temp())
    before = {name: os.environ.get(name) for name in TOKEN_SETTINGS}
    mode_before = os.environ.get(AUTH_MODE)
    reaper: subprocess.Popen[bytes] | None = None
    try:
        reaper = subprocess.Popen(
            [sys.executable, ray_reaper.__file__, folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # no terminal's signals: it ends when the run does
        )
        if os.environ.get("RAY_AUTH_MODE", "").lower() != "disabled" and not any(before.values()):
            os.environ["RAY_AUTH_TOKEN_PATH"] = _new_token(Path(folder) / TOKEN_FILE)
            _forget_token()
        # Ray makes its folder writable by everyone (as /tmp/ray, for every user): inside ours.
        yield {"_temp_dir": os.path.join(folder, "ray")}
    finally:
        for name, value in {**before, AUTH_MODE: mode_before}.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        _forget_token()
        _reaped(reaper, folder)


def _reaped(reaper: subprocess.Popen[bytes] | None, folder: str) -> None:
    """The reaper told to end what is left (closing its stdin, as the driver's
    death would), and waited for; here when it did not start or finish."""
    if reaper is not None and reaper.stdin is not None:
        with contextlib.suppress(OSError):
            reaper.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            reaper.wait(REAPER_SECONDS)
    ray_reaper.reap(folder)


def _system_temp() -> str:
    """The folder Ray puts /tmp/ray in (RAY_TMPDIR, else TMPDIR, else /tmp)."""
    for name in ("RAY_TMPDIR", "TMPDIR"):
        if os.environ.get(name):
            return os.environ[name]
    return "/tmp"


def _new_token(path: Path) -> str:
    """A new token in `path`, readable by its owner alone, as Ray makes them."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as token:
        token.write(secrets.token_hex(32))
    return str(path)


def _forget_token() -> None:
    """Make Ray read the token's settings again: it keeps the token it read, and
    its configuration (the authentication mode) as it was when last read."""
    with contextlib.suppress(Exception):  # another Ray's internals: it reads them anew
        raylet = importlib.import_module("ray._raylet")
        raylet.AuthenticationTokenLoader.instance().reset_cache()
        raylet.Config.initialize("")


def token_warnings() -> list[str]:
    """Warnings, one a Ray token file (RAY_AUTH_TOKEN_PATH's, ~/.ray/auth_token)
    that other users of this machine can read."""
    chosen = os.environ.get("RAY_AUTH_TOKEN_PATH")
    names = dict.fromkeys([*([chosen] if chosen else []), RAY_TOKEN_FILE])
    lines: list[str] = []
    for name in names:
        try:
            mode = Path(name).expanduser().stat().st_mode
        except (OSError, ValueError):  # none there, or not a path this system has
            continue
        if stat.S_ISREG(mode) and mode & (stat.S_IRGRP | stat.S_IROTH):
            # Ray's as typed (the shell expands ~), a path of the user's quoted for it.
            typed = name if name == RAY_TOKEN_FILE else shlex.quote(name)
            lines.append(
                f"{name} holds a Ray authentication token that other users of this machine "
                f"can read (mode {stat.S_IMODE(mode):04o}): anyone who reads it can join "
                f"the clusters it opens; make it yours alone: chmod 600 {typed}"
            )
    return lines


def warn_of_open_tokens() -> None:
    """Say in the run's log which Ray token files others can read (see the module doc)."""
    log = structlog.get_logger("sheepfold.tournament")
    for line in token_warnings():
        log.warning(line)
