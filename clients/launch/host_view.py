"""What of the host every sandbox shows its bot, and what no sandbox may show.

Every sandbox binds the system's runtime (`/usr` and friends, a few files of
`/etc`) and the Python that runs Sheepfold with Sheepfold's own packages. A
folder holding the runner's home or the system's temporary folder, or lying in
the host's own state (/proc, /sys, /dev, /run), must never be bound in: the
runtime is checked here (`runtime_problem`), a bot's folders by the configs
that name them (`held_home`, `held_temp`, `host_state`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "ETC_FILES",
    "HOST_STATE",
    "RUNTIME_DIRS",
    "SHEEPFOLD_PACKAGES",
    "held_database",
    "held_home",
    "held_temp",
    "host_state",
    "is_inside",
    "python_program",
    "python_runtime",
    "runtime_problem",
    "seen_by_every_bot",
]

# Top-level directories of the runtime: bound read-only, or recreated as the
# same symlinks where the host has merged them into /usr.
RUNTIME_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What dynamic linking, TLS, time zones and Debian's alternatives need from /etc.
# Of /etc/ssl, its certificates and OpenSSL's settings, never /etc/ssl/private:
# Debian keeps TLS private keys there (0710 root:ssl-cert), which a bot run as
# root, or by a member of ssl-cert (a bot keeps the runner's groups), read.
ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/ssl/certs",
    "/etc/ssl/cert.pem",
    "/etc/ssl/openssl.cnf",
    "/etc/ca-certificates",
    "/etc/nsswitch.conf",
)
# Sheepfold's own packages, which a bot started with {python} may import.
SHEEPFOLD_PACKAGES = ("sheepfold", "games", "clients", "server", "tournament", "web", "cli")


def python_program() -> str:
    """The interpreter running Sheepfold, as `{python}` names it to a command bot:
    `sys.executable` with the folders above it resolved, as every sandbox binds
    them (python_runtime). A virtualenv reached through a link (`.venv ->
    /srv/venvs/cup`) gave the linked path, which no sandbox shows: every command
    bot's `{python}` was refused before the first game ("needs .venv/bin/python,
    which the bot's sandbox does not see ... name a program there, such as
    {python}"). The program's own name is kept, link or not: a virtualenv's
    `bin/python` links to the system's, which run by its own path would not
    find the virtualenv, nor Sheepfold in it."""
    if not sys.executable:  # an embedding program that names no interpreter
        return sys.executable
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


def python_runtime() -> list[str]:
    """Host folders of the Python running Sheepfold and of Sheepfold's packages."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    paths.add(str(Path(os.path.realpath(sys.executable)).parent.parent))
    for name in SHEEPFOLD_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            paths.update(spec.submodule_search_locations)
    return _outermost(path for path in paths if os.path.isdir(path))


def seen_by_every_bot() -> list[str]:
    """Every host path each sandbox binds, whatever its bot: the system's runtime,
    the few files of /etc it needs, and the Python running Sheepfold."""
    shared = [path for path in (*RUNTIME_DIRS, *ETC_FILES) if os.path.exists(path)]
    return [*shared, *python_runtime()]


def _outermost(paths: Iterable[str]) -> list[str]:
    """Existing absolute paths, minus any inside another one or inside /usr."""
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) for p in paths}):
        if any(is_inside(path, outer) for outer in [*kept, "/usr"]):
            continue
        kept.append(path)
    return kept


def is_inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


# The host's own state: its /proc shows every process on the machine with its
# command line. A sandbox has its own /proc and /dev; none of these may be bound in.
HOST_STATE = ("/proc", "/sys", "/dev", "/run")


def held_home(path: str | Path) -> str | None:
    """The home folder of the user running Sheepfold, when `path` (resolved) is
    it or holds it: bound into a sandbox, it would show the bot that user's
    keys and credentials (~/.ssh, ~/.aws, ...)."""
    homes = {os.path.expanduser("~")}
    with contextlib.suppress(KeyError, ImportError):
        import pwd

        homes.add(pwd.getpwuid(os.getuid()).pw_dir)
    resolved = Path(path).resolve()
    for home in sorted(homes):
        inner = Path(home).resolve()
        if inner != Path("/") and inner.is_relative_to(resolved):
            return str(inner)
    return None


def held_temp(path: str | Path) -> str | None:
    """The system's temporary folder (/tmp, or $TMPDIR), when `path` (resolved)
    is it or holds it: bound into a sandbox, it would show the bot other
    programs' Unix sockets (tmux, ssh-agent, Ray's session, other servers, this
    run's own sockets for every bot), which it may connect to, as the runner's
    user, whatever the modes of their folders."""
    resolved = Path(path).resolve()
    for temp in sorted({"/tmp", tempfile.gettempdir()}):
        inner = Path(temp).resolve()
        if inner != Path("/") and inner.is_relative_to(resolved):
            return str(inner)
    return None


def host_state(path: str | Path) -> str | None:
    """Which of HOST_STATE `path` (resolved) lies in, if any."""
    resolved = Path(path).resolve()
    return next((top for top in HOST_STATE if resolved.is_relative_to(top)), None)


def runtime_problem(runtime: Iterable[str] | None = None) -> str | None:
    """What every sandbox would show its bot that no bot may see, through the
    `runtime` it binds (seen_by_every_bot by default), or None.

    The Python running Sheepfold is bound whole, from its prefix: one installed
    with `--prefix=$HOME` (as on many shared clusters), or a venv holding the
    home folder, showed every bot that home (its ~/.ssh keys). A tournament
    refused to start so (check_folders), but `sheepfold match` and `bot` ran
    their bots with it."""
    for path in seen_by_every_bot() if runtime is None else runtime:
        if os.path.realpath(path) == "/":
            return f"{path} is the whole host"
        home = held_home(path)
        if home is not None:
            return f"{path} holds the home folder {home}"
        temp = held_temp(path)
        if temp is not None:
            return f"{path} holds the temporary folder {temp}, with other programs' Unix sockets"
    return None


# What sets a Sheepfold database apart, in the text of the tables it was made
# with (SQLite keeps it as written): a server's (the seed of every match, the
# running ones' too) and a tournament's (the secret its deals are drawn under).
SHEEPFOLD_SCHEMAS = (
    (b"CREATE TABLE matches", b"token_hashes_json"),
    (b"CREATE TABLE tournaments", b"CREATE TABLE game_seats"),
)
SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
# How much of a folder is searched, and of each database file read: the tables
# are made first, at the start of the file or of its -wal.
DATABASE_SEARCH_ENTRIES = 20_000
DATABASE_HEAD_BYTES = 1 << 20


def held_database(path: str | Path) -> str | None:
    """A Sheepfold database (a server's or a tournament's) that `path` is or
    holds, as a bot given it would see it: the database's own name, or None.

    `sheepfold bot` and `match --server` know nothing of the server's
    database, and their defaults put it in the bot's folder (serve's --db is
    sheepfold.db in the folder it starts in, a bot's folder the current
    one): a bot so read the seed of every running match. A server's tables
    may still be only in its -wal, which is looked at too. Symbolic links are
    not followed (in the sandbox they lead only to what it shows anyway), and
    the search stops after DATABASE_SEARCH_ENTRIES entries."""
    top = Path(path)
    if not top.is_dir():
        # A database's pages, the seeds among them, reach its file when its -wal
        # is written back: a server's whose tables are still only there is one.
        return _database_name(str(top)) or (
            str(top) if _database_name(f"{top}-wal") is not None else None
        )
    seen = 0
    for folder, folders, files in os.walk(top):
        folders.sort()
        for name in sorted(files):
            seen += 1
            if seen > DATABASE_SEARCH_ENTRIES:
                return None
            found = _database_name(os.path.join(folder, name))
            if found is not None:
                return found
    return None


def _database_name(file: str) -> str | None:
    """`file`'s database (itself, or the one it is the -wal of) when it is a
    Sheepfold database. Only a regular file is opened, and without waiting: a
    stranger's folder may hold a named pipe, or a device node (unpacked as
    root), whose mere opening may start something (a watchdog's timer)."""
    try:
        if not stat.S_ISREG(os.lstat(file).st_mode):
            return None
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = os.read(fd, 16)
        is_wal = file.endswith("-wal") and head[:4] in WAL_MAGIC
        if not head.startswith(SQLITE_MAGIC) and not is_wal:
            return None
        head += os.read(fd, DATABASE_HEAD_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    if any(all(mark in head for mark in marks) for marks in SHEEPFOLD_SCHEMAS):
        return file.removesuffix("-wal") if is_wal else file
    return None
