"""Every `--help` reads on an 80-column terminal: argparse wraps its prose to
the terminal, except a description given to a raw formatter, which `replay`
printed as one line of 226 characters."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from cli.main import build_parser

WIDTH = 80
# A usage group argparse cannot break: `[--flag METAVAR]` or `{choice,...}`.
UNBREAKABLE = re.compile(r"^(usage: .*|\s+[\[{].*)$")


def _parsers(
    parser: argparse.ArgumentParser, path: str = "sheepfold"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{path} {name}")


def test_no_help_line_is_wider_than_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    parsers = list(_parsers(build_parser()))
    too_wide = [
        f"{path}: {line[:60]}... ({len(line)} columns)"
        for path, parser in parsers
        for line in parser.format_help().splitlines()
        if len(line) > WIDTH and not UNBREAKABLE.match(line)
    ]
    assert len(parsers) >= 17 and too_wide == []
