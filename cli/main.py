"""`sheepfold`: the one command line entry point."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cli import demo, play, serve


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheepfold",
        description="Sheepfold: a gRPC game server for bot competitions on four sheep games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve.add_parser(commands)
    play.add_parsers(commands)
    demo.add_parser(commands)
    _add_optional(commands, "tournament.cli")
    _add_optional(commands, "cli.replay")
    return parser


def _add_optional(commands: argparse._SubParsersAction, module_name: str) -> None:
    """Commands whose modules land later register themselves when present."""
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        return
    add = getattr(module, "add_parser", None)
    if add is not None:
        add(commands)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
