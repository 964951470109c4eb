"""A named pipe (FIFO) given where a file is read: opening one waits for a
writer that never comes, so each command must refuse it in one line rather
than wait for ever."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.serve import TOKEN_WAIT_SECONDS
from server.launch import serve_command, start, stop
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


def test_serve_refuses_an_admin_token_file_that_is_a_pipe_nobody_writes(fifo: Path) -> None:
    """open() waited for a writer for ever, and neither Ctrl-C nor SIGTERM
    ended it: serve takes them from its first line, to stop gracefully."""
    done = sheepfold(
        "serve", "--port", "0", "--db", ":memory:", "--admin-token-file", str(fifo), timeout=30
    )
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --admin-token-file {fifo}: a named pipe that nothing wrote a token to"
    )


def test_serve_refuses_an_admin_token_file_whose_writer_never_writes(fifo: Path) -> None:
    """A writer held the pipe open and wrote nothing: the read waited for ever
    (a command must never hang), and neither Ctrl-C nor SIGTERM ended it."""
    writer = os.open(fifo, os.O_RDWR)  # a writer that is there, and never writes
    try:
        started = time.monotonic()
        done = sheepfold(
            "serve", "--port", "0", "--db", ":memory:", "--admin-token-file", str(fifo),
            timeout=TOKEN_WAIT_SECONDS + 30,
        )  # fmt: skip
        waited = time.monotonic() - started
    finally:
        os.close(writer)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sheepfold serve: --admin-token-file {fifo}: a pipe whose writer did not write "
        f"the token and close its end within {TOKEN_WAIT_SECONDS:g} seconds"
    )
    assert waited >= TOKEN_WAIT_SECONDS


def test_serve_reads_an_admin_token_its_process_substitution_writes_late() -> None:
    """`--admin-token-file <(pass show sheepfold)`: the writer may take a moment;
    serve waits for it (--private-replays stops serve without a token)."""
    wrapped = [
        "bash", "-c", 'exec "$@" --admin-token-file <(sleep 1; echo late-token)', "bash",
        *serve_command("--db", ":memory:", "--private-replays"),
    ]  # fmt: skip
    server = start(wrapped)
    assert stop(server) == 0


def test_serve_refuses_an_admin_token_file_that_is_a_terminal() -> None:
    """--admin-token-file /dev/stdin on a terminal waited on the keyboard, deaf to Ctrl-C."""
    controller, terminal = os.openpty()
    try:
        done = sheepfold(
            "serve",
            "--port",
            "0",
            "--db",
            ":memory:",
            "--admin-token-file",
            os.ttyname(terminal),
            timeout=30,
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert done.returncode == 1
    assert one_line(done).endswith(": a terminal, not a file holding the token")
