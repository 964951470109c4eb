"""A database file this user may not open (made by root, or by a container
with another uid) is named as such, in one line: SQLite says only "unable to
open database file", which replay and the viewer once read as "not a SQLite
database". Commands run as another user (nobody) when the tests run as root,
whom no file mode stops."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sqlite_store import SqliteStore
from tests.cli.helpers import command, one_line
from tests.conftest import ROOT
from tournament.store import Store

pytestmark = pytest.mark.e2e

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder everyone may write, outside pytest's (which only its owner may enter)."""
    made = Path(tempfile.mkdtemp(prefix="sheepfold-unreadable-", dir="/tmp"))
    made.chmod(0o777)
    try:
        yield made
    finally:
        shutil.rmtree(made)


def as_another_user(*args: str) -> subprocess.CompletedProcess[str]:
    prefix = NOBODY if os.geteuid() == 0 else []
    if prefix and shutil.which("setpriv") is None:
        pytest.fail("setpriv not found: install util-linux (apt-get install util-linux)")
    return subprocess.run(
        [*prefix, *command(*args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,  # a command that starts would run until then
    )


@pytest.mark.parametrize(
    "args",
    [
        ("serve", "--port", "0", "--db", "{server}"),
        ("db", "info", "--db", "{server}"),
        ("replay", "some-match", "--db", "{server}"),
        ("replay", "some-match", "--db", "{tournament}"),
        ("tournament", "report", "--db", "{tournament}"),
        ("tournament", "forget", "a", "--db", "{tournament}"),
        ("web", "--port", "0", "--tournament-db", "{tournament}"),
    ],
)
def test_a_database_this_user_may_not_open_is_named_so(folder: Path, args: tuple[str, ...]) -> None:
    server, tournament = folder / "server.db", folder / "cup.sqlite"
    SqliteStore(server).close()
    Store(tournament).close()
    for path in (server, tournament):
        path.chmod(0o000)
    before = {path: path.stat() for path in folder.iterdir()}
    done = as_another_user(*(arg.format(server=server, tournament=tournament) for arg in args))
    line = one_line(done)
    assert done.returncode == 1, done.stderr
    assert "permission denied" in line, line
    assert {path: path.stat() for path in folder.iterdir()} == before
