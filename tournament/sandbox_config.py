"""The `[sandbox]` table of a tournament config and each bot's `sandbox` setting.

    [sandbox]                 # defaults for every command bot
    memory_mb = 1024
    cpu_seconds = 300
    read_only = ["shared-data"]

    [[bots]]
    name = "theirs"
    command = ["./bot"]
    cwd = "entries/theirs"
    sandbox = { memory_mb = 2048 }   # or true (the default), or false: trusted, unsandboxed

Command bots are sandboxed unless they say `sandbox = false`; `builtin` and
`class` bots run inside the runner's process, are trusted code, and take no
`sandbox` setting. A sandboxed bot's folder (`cwd`) must hold neither the
tournament's database, another bot's folder, nor the runner's home folder; a
folder or `read_only` path named inside the config's folder must stay there
once its symbolic links are followed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from clients.bot_limits import DEFAULT_LIMITS
from clients.launch import LimitsError, SandboxPolicy, parse_limits
from clients.launch.host_view import held_database
from clients.launch.sandbox import held_home, held_temp, host_state
from games.options import brief
from server.files import SQLITE_COMPANIONS

__all__ = ["bot_sandbox", "check_folders", "default_sandbox"]

ConfigErrorFactory = Any  # tournament.config.ConfigError (passed in: no import cycle)


# The host's live state: never bound into a sandbox, which has its own /proc and /dev.
def default_sandbox(raw: Any, base_dir: str, error: ConfigErrorFactory) -> SandboxPolicy:
    """The `[sandbox]` table: limits and read-only folders every command bot starts from."""
    if raw is None:
        return SandboxPolicy()
    if not isinstance(raw, dict):
        raise error("sandbox", "must be a table of limits ([sandbox])")
    return _policy(raw, SandboxPolicy(), base_dir, "sandbox", error)


def bot_sandbox(
    entry: Mapping[str, Any],
    kind: str,
    default: SandboxPolicy,
    base_dir: str,
    where: str,
    error: ConfigErrorFactory,
) -> SandboxPolicy | None:
    """The bot's policy, or None when it runs unsandboxed."""
    raw = entry.get("sandbox", True)
    if kind != "command":
        if "sandbox" in entry:
            raise error(
                f"{where}.sandbox",
                "only command bots run in a sandbox: builtin and class bots are trusted code "
                "running inside the tournament's own process",
            )
        return None
    if raw is True:
        return default
    if raw is False:
        return None
    if isinstance(raw, dict):
        return _policy(raw, default, base_dir, f"{where}.sandbox", error)
    raise error(f"{where}.sandbox", f"must be true, false or a table of limits, not {brief(raw)}")


def _policy(
    raw: Mapping[str, Any], base: SandboxPolicy, base_dir: str, where: str, error: Any
) -> SandboxPolicy:
    limits_raw = {key: value for key, value in raw.items() if key != "read_only"}
    try:
        limits = parse_limits(limits_raw, base.limits if base else DEFAULT_LIMITS)
    except LimitsError as bad:
        raise error(f"{where}.{bad.key}", bad.message) from None
    read_only = list(base.read_only)
    extra = raw.get("read_only", [])
    if not isinstance(extra, list) or not all(
        isinstance(p, str) and p and "\x00" not in p for p in extra
    ):
        raise error(f"{where}.read_only", "must be a list of folder or file names")
    for path in extra:
        resolved = str(Path(base_dir, path).resolve())
        if not os.path.exists(resolved):
            raise error(f"{where}.read_only", f"{resolved} does not exist")
        link = linked_out(os.path.join(base_dir, path), base_dir)
        if link is not None:
            raise error(f"{where}.read_only", link)
        host = host_state(Path(resolved))
        if host is not None:
            raise error(
                f"{where}.read_only",
                f"{resolved} is the host's {host}, which shows every process on the machine "
                "and their command lines: a sandbox has its own /proc and /dev",
            )
        read_only.append(resolved)
    return SandboxPolicy(limits=limits, read_only=tuple(dict.fromkeys(read_only)))


def linked_out(path: str, config_dir: str) -> str | None:
    """Why `path` may not be bound into a sandbox, when it is named inside
    `config_dir` but lies outside it once its symbolic links are followed; else None.

    A stranger's bot folder, unpacked under the config's folder, may hold a link:
    with `cwd = "entries/theirs/src"` and their `src -> /etc`, the sandbox bound
    the host's /etc (its password hashes, to a bot run as root) as the bot's
    folder. A path the config names outside its own folder is the organiser's
    own choice, and stays as it is."""
    named = Path(os.path.normpath(os.path.abspath(path)))
    root = Path(os.path.normpath(os.path.abspath(config_dir)))
    if not named.is_relative_to(root):
        return None
    resolved = named.resolve()
    if resolved.is_relative_to(root.resolve()):
        return None
    return (
        f"{path} leads, through a symbolic link, out of the config's folder to {resolved}: "
        "name the folder a bot may see by its own path"
    )


def check_folders(
    folders: Mapping[str, str],
    sandboxed: Sequence[str],
    database: str,
    read_only: Mapping[str, Sequence[str]] | None = None,
    runtime: Sequence[str] = (),
    config_dir: str | None = None,
) -> str | None:
    """What is wrong with what the sandboxed bots would see, or None.

    `folders` maps every command bot to its folder. A sandboxed bot sees its
    folder, its `read_only` paths and the `runtime` folders every sandbox
    binds; none of them may hold the database (or its -wal/-shm files, beside
    it: the database holds the secret every deal is drawn under), another
    bot's folder, nor the home folder of the user running Sheepfold (its keys
    and credentials). With `config_dir`, a folder named inside it must stay
    inside it once its links are followed (linked_out).
    """
    db = Path(database).resolve()
    # The database's own files beside it hold its pages too (the secret among them).
    db_files = [db, *(db.with_name(db.name + tail) for tail in SQLITE_COMPANIONS)]
    extra = read_only or {}
    for name in sandboxed:
        link = None if config_dir is None else linked_out(folders[name], config_dir)
        if link is not None:
            return f"bot {name!r}: its folder (cwd) {link}"
        folder = Path(folders[name]).resolve()
        if folder == Path("/"):
            return f"bot {name!r}: a sandboxed bot's folder (cwd) cannot be /"
        host = host_state(folder)
        if host is not None:
            return (
                f"bot {name!r}: a sandboxed bot's folder (cwd) cannot be in the host's "
                f"{host} ({folder}): a sandbox has its own /proc and /dev"
            )
        seen = [
            (folder, "its folder"),
            *((Path(p).resolve(), f"its read_only path {p}") for p in extra.get(name, ())),
            *((Path(p).resolve(), f"the runtime every bot sees ({p})") for p in runtime),
        ]
        for path, what in seen:
            home = held_home(path)
            if home is not None:
                return (
                    f"bot {name!r} would see the home folder {home} in {what}: "
                    "give the bot a folder of its own with `cwd`"
                )
            temp = held_temp(path)
            if temp is not None:
                return (
                    f"bot {name!r} would see the temporary folder {temp} in {what}, with "
                    "other programs' Unix sockets: give the bot a folder of its own with `cwd`"
                )
            if any(file.is_relative_to(path) for file in db_files):
                return (
                    f"bot {name!r} would see the tournament database {db} in {what}: "
                    "give the bot a folder of its own with `cwd`, or put the database elsewhere"
                )
            for other, other_folder in folders.items():
                inner = Path(other_folder).resolve()
                if other != name and inner != folder and inner.is_relative_to(path):
                    return (
                        f"bot {name!r} would see bot {other!r}'s files ({inner} is inside "
                        f"{what}): give each bot a folder of its own with `cwd`"
                    )
        # A database the run does not know by its path: the server's of a run
        # on a server of its own (--server), or another tournament's. Not in the
        # runtime, which runtime_problem checks, and which is large.
        for path, what in seen[: len(seen) - len(runtime)]:
            held = held_database(path)
            if held is not None:
                return (
                    f"bot {name!r} would see the Sheepfold database {held} in {what}, "
                    "with the seed of every match in it: give the bot a folder of its own "
                    "with `cwd`, or put the database elsewhere"
                )
    return None
