"""A named pipe (FIFO) given where a file is read: opening one waits for a
writer that never comes, so each command must refuse it in one line rather
than wait for ever."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold

pytestmark = pytest.mark.e2e


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    yield path


def test_tournament_report_refuses_a_named_pipe(fifo: Path) -> None:
    """report read it as read_store does, read-only, which waited on the FIFO
    until killed (forget, run and sprt already refused it)."""
    done = sheepfold("tournament", "report", "--db", str(fifo), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold tournament: {fifo} is not a regular file, so it cannot hold a database"
    )


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (("web", "--port", "0"), "--tournament-db"),
        (("serve", "--port", "0", "--db", ":memory:", "--web-port", "0"), "--tournament-db"),
    ],
    ids=["web", "serve"],
)
def test_the_viewer_calls_a_named_pipe_no_regular_file(
    fifo: Path, command: tuple[str, ...], flag: str
) -> None:
    """It was "no tournament database at PATH", as if nothing were there."""
    done = sheepfold(*command, flag, str(fifo), timeout=30)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold {command[0]}: --tournament-db {fifo} is not a regular file, "
        "so it holds no database"
    )
