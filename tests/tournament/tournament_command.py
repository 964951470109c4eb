"""`sheepfold tournament ...` run in this process, as the tests call it."""

from __future__ import annotations

from cli.main import main


def tournament_main(argv: list[str]) -> int:
    """The exit status of `sheepfold tournament ARGV...`."""
    return main(["tournament", *argv])
