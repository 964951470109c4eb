"""The web viewer's flags, shared by `sheepfold web` and `sheepfold serve --web-port`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.values import file_path_given, flag_given, positive_int, refuse_unreachable_bound
from web.host_names import HostNameError, allowed_host_name
from web.limits import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS


def add_viewer_arguments(parser: argparse.ArgumentParser, prefix: str, when: str) -> None:
    """`--{prefix}max-connections`, `--{prefix}max-connections-per-address`,
    `--{prefix}allowed-host` and `--tournament-db`; `when` opens their help
    (e.g. "with --web-port: ")."""
    parser.add_argument(
        f"--{prefix}max-connections",
        type=positive_int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"{when}connections the viewer holds at once; more are closed as they arrive "
        "(default %(default)s)",
    )
    parser.add_argument(
        f"--{prefix}max-connections-per-address",
        type=positive_int,
        default=MAX_CONNECTIONS_PER_ADDRESS,
        metavar="N",
        help=f"{when}of those, the viewer holds at most this many from one client address "
        "(everyone behind a reverse proxy shares its address: raise it there) "
        "(default %(default)s)",
    )
    parser.add_argument(
        f"--{prefix}allowed-host",
        action="append",
        default=[],
        type=_host_name,
        metavar="NAME",
        help=f"{when}a host name the viewer answers to besides IP addresses and localhost "
        "(repeatable; the name a reverse proxy passes on, say; * for any): a request for "
        "any other name is refused (403), so that another site's page cannot read the "
        "viewer by pointing its own name at it",
    )
    parser.add_argument(
        "--tournament-db",
        action="append",
        default=[],
        type=file_path_given,
        metavar="PATH",
        help=f"{when}a tournament database the viewer shows (repeatable)",
    )


def _host_name(text: str) -> str:
    try:
        return allowed_host_name(text)
    except HostNameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def viewer_settings(args: argparse.Namespace, prefix: str) -> dict[str, Any]:
    """The viewer's settings (WebConfig's fields) its flags give."""
    flag = prefix.replace("-", "_")
    return {
        "tournament_dbs": tuple(args.tournament_db),
        "max_connections": getattr(args, f"{flag}max_connections"),
        "max_connections_per_address": getattr(args, f"{flag}max_connections_per_address"),
        "allowed_hosts": tuple(getattr(args, f"{flag}allowed_host")),
    }


# What each of viewer_settings' fields is without its flag, and that flag's name.
_UNSET = {
    "tournament_dbs": ((), "tournament-db"),
    "max_connections": (MAX_CONNECTIONS, "{prefix}max-connections"),
    "max_connections_per_address": (
        MAX_CONNECTIONS_PER_ADDRESS,
        "{prefix}max-connections-per-address",
    ),
    "allowed_hosts": ((), "{prefix}allowed-host"),
}


def refuse_unreachable_viewer_bound(command: str, args: argparse.Namespace, prefix: str) -> None:
    """A usage error when `--{prefix}max-connections-per-address` is given
    above `--{prefix}max-connections` (refuse_unreachable_bound)."""
    refuse_unreachable_bound(
        command,
        args,
        f"--{prefix}max-connections-per-address",
        f"--{prefix}max-connections",
        MAX_CONNECTIONS_PER_ADDRESS,
    )


def viewer_flags_given(args: argparse.Namespace, prefix: str) -> list[str]:
    """The viewer's flags (`add_viewer_arguments`') that set something other
    than their default, as `--NAME`."""
    return [
        "--" + flag.format(prefix=prefix)
        for field, value in viewer_settings(args, prefix).items()
        for unset, flag in [_UNSET[field]]
        if flag_given(args, "--" + flag.format(prefix=prefix), value, unset)
    ]


def missing_tournament_dbs(paths: list[Path]) -> str | None:
    """The complaint for `--tournament-db` files that are not there, or not
    tournament databases (a server's, a file that is not SQLite, a folder), or
    None: said at start, not only on the viewer's tournaments page."""
    missing = []
    for path in paths:
        try:
            if path.is_dir():
                return f"--tournament-db {path} is a folder, not a tournament database"
            if path.exists() and not path.is_file():
                # A named pipe or a device: it was called missing ("no tournament database at").
                return f"--tournament-db {path} is not a regular file, so it holds no database"
            if not path.is_file():
                missing.append(str(path))
        except OSError as error:  # a name too long for the file system, say
            return f"cannot use {path}: {error.strerror or error}"
    if missing:
        return f"no tournament database at {', '.join(missing)}"
    # One file given twice (by two paths, even): its tournaments were each
    # listed twice, under two addresses.
    seen: dict[tuple[int, int], Path] = {}
    for path in paths:
        try:
            status = path.stat()
        except OSError as error:
            return f"cannot use {path}: {error.strerror or error}"
        first = seen.setdefault((status.st_dev, status.st_ino), path)
        if first is not path:
            return f"--tournament-db {path} is {first} again: give each file once"
    from web.tournaments import BeingRewritten, NotATournamentDb, check_database

    for path in paths:
        try:
            check_database(path)
        except BeingRewritten:
            continue  # a runner is writing it now: its pages say what it holds
        except NotATournamentDb as error:
            # The page's message names the file alone: here the path is the user's.
            return f"--tournament-db {path} {str(error).removeprefix(path.name + ' ')}"
    return None
