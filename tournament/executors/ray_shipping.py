"""Shipping a tournament's files to Ray's workers: the config's folder as Ray's
`working_dir`, its `python_path` folders outside it as `py_modules`, and the
config as the workers will see it (tournament.executors.ray_task.worker_config
finds the folders again where Ray unpacked them).

What is not shipped: the tournament database, tooling folders (EXCLUDES), and
what is neither a file nor a folder (a named pipe would hang Ray's packing).
What is: files a .gitignore lists (a bot's weights, its built program), which
Ray would leave out by default; `.rayignore` files still leave files out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from server.files import SQLITE_COMPANIONS
from tournament.config import BotSpec, TournamentConfig, resolve_path
from tournament.executors.ray_task import SHIPPED
from tournament.run_error import RunError
from tournament.seats import bot_folder

__all__ = [
    "EXCLUDES",
    "command_files",
    "gitignored_files_shipped",
    "rayignore_files",
    "runtime_env_for",
]

# Never shipped to the workers with the config's folder.
EXCLUDES = [".git", ".venv", "venv", "__pycache__", "*.pyc", "node_modules", ".pytest_cache"]


def runtime_env_for(
    config: TournamentConfig, database: str
) -> tuple[dict[str, Any], TournamentConfig]:
    """Ray's runtime environment shipping the config's folder and python_path,
    and the config as the workers will see it."""
    base = Path(config.base_dir).resolve()
    modules: list[str] = []
    folders: list[str] = []
    for entry in config.python_path:
        path = Path(resolve_path(config, entry)).resolve()
        if not path.is_dir():
            raise RunError(f"python_path folder {entry!r} does not exist ({path})")
        if path == base or base in path.parents:
            folders.append(path.relative_to(base).as_posix() or ".")
            continue
        if any(Path(m).name == path.name for m in modules):
            raise RunError(
                f"python_path folders outside the config's folder need distinct names "
                f"on Ray: two are called {path.name!r}"
            )
        modules.append(str(path))
        folders.append(SHIPPED + path.name)
    database_path = Path(database).resolve()
    excludes = list(EXCLUDES)
    for folder in [base, *map(Path, modules)]:
        # Each shipped folder's patterns are relative to it, and a python_path folder
        # outside the config's (`..`) may hold the database too: left out of the
        # working_dir alone, it reached every worker in that py_module's copy.
        if folder in database_path.parents:
            # With its -wal, -shm and -journal; escaped: `cup [1].sqlite` was a pattern
            # matching `cup 1.sqlite`, and the database itself was shipped.
            excludes.append(_anchored(database_path.relative_to(folder)) + "*")
    database_files = [
        database_path.with_name(database_path.name + tail) for tail in ("", *SQLITE_COMPANIONS)
    ]
    jailed = [
        Path(bot_folder(bot, config.base_dir)).resolve()
        for bot in config.bots
        if bot.command is not None and bot.sandbox is not None
    ]
    for folder in [base, *map(Path, modules)]:
        # The links first: the walk for special files does not follow them (one to
        # / had it walk the whole machine).
        links = _links_not_shipped(folder, database_files, jailed)
        special = _special_files(folder, set(links))
        excludes += [_anchored(path.relative_to(folder)) for path in [*links, *special]]
        _refuse_names_not_utf8(folder, {*links, *special})
    env: dict[str, Any] = {"working_dir": str(base), "excludes": excludes}
    if modules:
        env["py_modules"] = modules
    bots = tuple(_as_shipped(bot, base) for bot in config.bots)
    return env, dataclasses.replace(config, python_path=tuple(folders), bots=bots)


def _as_shipped(bot: BotSpec, base: Path) -> BotSpec:
    """`bot` with its folder and its sandbox's read_only paths inside the config's
    folder made relative to it: a worker finds them in Ray's copy of that folder
    (worker_config), not at the driver's paths, which another node has not got."""

    def inside(path: str) -> str | None:
        resolved = Path(path).resolve()
        if resolved == base or base in resolved.parents:
            return resolved.relative_to(base).as_posix() or "."
        return None

    cwd = bot.cwd
    if cwd is not None and Path(cwd).is_absolute():
        cwd = inside(cwd) or cwd
    sandbox = bot.sandbox
    if sandbox is not None:
        read_only = tuple(inside(path) or path for path in sandbox.read_only)
        sandbox = dataclasses.replace(sandbox, read_only=read_only)
    return dataclasses.replace(bot, cwd=cwd, sandbox=sandbox)


def _special_files(folder: Path, unshipped: set[Path]) -> list[Path]:
    """What in `folder` is neither a file nor a folder (a named pipe, a socket, a
    device), links followed as Ray follows them, except the `unshipped` ones:
    Ray reads every file it ships, and reading a named pipe waits for a writer
    forever (`--ray` then hung)."""
    found: list[Path] = []
    for here, folders, files in _walk_as_ray(folder):
        folders[:] = [name for name in folders if here / name not in unshipped]
        for name in files:
            with contextlib.suppress(OSError):  # a broken link: Ray skips it
                mode = os.stat(here / name).st_mode
                if not stat.S_ISREG(mode):
                    found.append(here / name)
    return found


def _refuse_names_not_utf8(folder: Path, unshipped: set[Path]) -> None:
    """RunError naming the first file or folder Ray would ship whose name is
    not UTF-8: Ray's packing failed on it with "directory FOLDER must be an
    existing directory or a supported archive", of a folder that exists."""
    for here, folders, files in _walk_as_ray(folder):
        folders[:] = [name for name in folders if here / name not in unshipped]
        for name in [*folders, *files]:
            try:
                name.encode()
            except UnicodeEncodeError:
                shown = os.fsencode(here / name).decode(errors="backslashreplace")
                raise RunError(
                    f"cannot ship {shown} to the Ray workers: its name is not UTF-8, "
                    "which Ray needs; rename it, or move it out of the folder"
                ) from None


def _walk_as_ray(folder: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """os.walk of `folder` as Ray walks it to pack it: links followed, EXCLUDES
    left out, and a link back up the tree not followed (it would never end).
    The caller may prune the folders list it is given, as with os.walk."""
    for root, folders, files in os.walk(folder, followlinks=True):
        here = Path(root)
        real = os.path.realpath(here)
        ancestors = [up for up in here.parents if up == folder or folder in up.parents]
        if any(os.path.realpath(up) == real for up in ancestors):
            folders.clear()  # a link back up the tree
            continue
        folders[:] = [name for name in folders if name not in EXCLUDES]
        yield here, folders, files


def _links_not_shipped(
    folder: Path, database_files: Sequence[Path], jailed: Sequence[Path]
) -> list[Path]:
    """The symbolic links in `folder` (as Ray walks it, links followed) whose
    target Ray must not copy: Ray ships what a link points at, so a stranger's
    bot folder with a link to the tournament database, to ~/.ssh or into
    another bot's folder received those files in its own folder on the worker,
    where its sandbox read them. Left out: a link to a database file, one
    leading out of `folder`, and one in a sandboxed bot's folder (`jailed`)
    leading out of it (run locally, its sandbox sees only a dangling link),
    and one to its own folder or one above it, which Ray would follow for ever
    (until the system's limit on links in a path: the folder 40 times over,
    with the database and the targets of links leading out in every copy)."""
    found: list[Path] = []
    for here, folders, files in _walk_as_ray(folder):
        real = os.path.realpath(here)
        for name in [*folders, *files]:
            path = here / name
            if not path.is_symlink():
                continue
            target = Path(os.path.realpath(path))
            where = Path(real) / name
            if (
                target in database_files
                or not target.is_relative_to(folder)
                # Back up the tree: Ray follows it again and again (40 deep), and
                # ships in every copy what the top's excludes leave out.
                or Path(real).is_relative_to(target)
                or any(where.is_relative_to(j) and not target.is_relative_to(j) for j in jailed)
            ):
                found.append(path)
        folders[:] = [name for name in folders if here / name not in found]
    return found


def _anchored(path: Path) -> str:
    """`path` as an exclude pattern (gitignore's) matching that one path only.
    Ray's matcher strips the whitespace at both ends of a pattern, escaped or
    not, so a name ending in a space or a tab is matched through a class of
    that one character (`[ ]`): stripped, `pipe ` was `/pipe` and matched
    nothing, and a named pipe so called made `--ray` hang for ever."""
    escaped = re.sub(r"([\\*?\[\]!#])", r"\\\1", path.as_posix())
    kept = escaped.rstrip()
    return "/" + kept + "".join(f"[{blank}]" for blank in escaped[len(kept) :])


# Set while ray.init packs the config's folder: Ray then ships what .gitignore
# files list too (bots' weights, a built program), as a local run finds them.
SHIP_GITIGNORED = "RAY_RUNTIME_ENV_IGNORE_GITIGNORE"


@contextlib.contextmanager
def gitignored_files_shipped() -> Iterator[None]:
    """Ray leaves out of the working_dir and py_modules it ships whatever a
    .gitignore in them lists (unless this is set): a bot's weights or its built
    program, often gitignored, were then missing on every worker, and the bot
    crashed in each of its games there while it played locally. `.rayignore`
    files still leave files out, as Ray documents."""
    before = os.environ.get(SHIP_GITIGNORED)
    os.environ[SHIP_GITIGNORED] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SHIP_GITIGNORED, None)
        else:
            os.environ[SHIP_GITIGNORED] = before


def command_files(config: TournamentConfig) -> tuple[tuple[str, str], ...]:
    """(bot, argument) for each command-bot argument naming a file on the driver."""
    files: list[tuple[str, str]] = []
    for bot in config.bots:
        if bot.command is None:
            continue
        cwd = Path(bot.cwd) if bot.cwd else Path(config.base_dir)
        cwd = cwd if cwd.is_absolute() else Path(config.base_dir) / cwd
        for arg in bot.command:
            if "{python}" in arg or arg.startswith("-"):
                continue
            here = arg.replace("{config_dir}", config.base_dir)
            with contextlib.suppress(OSError, ValueError):
                if (cwd / here).is_file():
                    files.append((bot.name, arg))
    return tuple(files)


def rayignore_files(config: TournamentConfig) -> tuple[str, ...]:
    """The `.rayignore` files in the folders shipped to the workers (the config's
    and its python_path folders), as paths from the config's folder. A file
    they leave out is on the driver and missing on every worker."""
    base = Path(config.base_dir).resolve()
    folders = [base]
    for entry in config.python_path:
        path = Path(resolve_path(config, entry)).resolve()
        if path.is_dir() and path != base and base not in path.parents:
            folders.append(path)
    found: list[str] = []
    skipped = {name for name in EXCLUDES if "*" not in name}
    for folder in folders:
        for here, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in skipped)
            if ".rayignore" in files:
                found.append(os.path.relpath(os.path.join(here, ".rayignore"), base))
    return tuple(found)
