"""Helpers shared by the command-line tests."""

from __future__ import annotations

from server.launch import ServerProcess


def database_of(server: ServerProcess) -> str:
    """The SQLite file the server writes (what `sheepfold replay --db` reads)."""
    args = list(server.process.args)
    return str(args[args.index("--db") + 1])
