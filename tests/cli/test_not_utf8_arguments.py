"""An argument or environment variable that is not UTF-8 text is a one-line
usage error (exit 2) naming the command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.helpers import sheepfold

# A byte that is not UTF-8 (a Latin-1 "ÿ"), as a shell passes `$'\xff'`.
NOT_UTF8 = os.fsdecode(b"\xff")


@pytest.mark.parametrize(
    "args",
    [
        ("replay", NOT_UTF8, "--db", "{folder}/t.sqlite"),
        ("create", "--game", NOT_UTF8, "--players", "2", "--server", "127.0.0.1:1"),
        ("health", "--addr", "127.0.0.1:1", "--service", NOT_UTF8),
        ("bot", "--server", f"{NOT_UTF8}:1", "--match", "m", "--token", "t"),
        ("serve", "--port", "0", "--db", f"{{folder}}/{NOT_UTF8}.db"),
    ],
)
def test_an_argument_that_is_not_utf8_is_a_usage_error(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Each once ended in a UnicodeEncodeError traceback (gRPC, SQLite and the
    protocol take UTF-8 alone), `serve --db` after it had made the file."""
    done = sheepfold(*(arg.format(folder=tmp_path) for arg in args), timeout=30)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"sheepfold {args[0]}: an argument '"), line
    assert line.endswith("' is not UTF-8 text (names, ids, tokens, addresses and paths are UTF-8)")
    assert "\\xff" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("variable", "args"),
    [
        ("SHEEPFOLD_SERVER", ("create", "--game", "sheep-showdown", "--players", "2")),
        ("SHEEPFOLD_HEALTH_ADDR", ("health",)),
        ("SHEEPFOLD_ADMIN_TOKEN", ("create", "--game", "sheep-showdown", "--players", "2")),
    ],
)
def test_a_variable_that_is_not_utf8_is_a_usage_error(variable: str, args: tuple[str, ...]) -> None:
    done = sheepfold(*args, env={variable: f"{NOT_UTF8}:1"}, timeout=30)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"sheepfold {args[0]}: ${variable} '\\xff:1' is not UTF-8 text "
        "(names, ids, tokens, addresses and paths are UTF-8)"
    ]


def test_an_argument_that_is_not_utf8_before_any_command_is_the_programs() -> None:
    """No command named first (or the command's name itself not UTF-8): the
    line is the program's, `sheepfold:`; with one, it names it, as every other
    line of that command does (it once said `sheepfold:` for all)."""
    for args in ((NOT_UTF8,), ("--version", NOT_UTF8)):
        done = sheepfold(*args, timeout=30)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("sheepfold: an argument '\\xff' is not UTF-8"), done.stderr
