"""`sheepfold`: the one command line entry point."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from cli import db, demo, play, replay, serve
from tournament import cli as tournament_cli
from web import cli as web_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheepfold",
        description="Sheepfold: a gRPC game server for bot competitions on four sheep games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve.add_parser(commands)
    play.add_parsers(commands)
    demo.add_parser(commands)
    tournament_cli.add_parser(commands)
    replay.add_parser(commands)
    db.add_parser(commands)
    web_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
