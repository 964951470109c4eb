"""The database file deleted under a running server on a disk that then fills
(the deleted file's pages are still the server's): at the stop the copy of
what it held cannot be written beside it. A copy that fails part way is
removed, not left at the `--db` name for a restart to start on, and the next
place is tried: the temporary folder. Where no place has room, what the server
held is lost, and `serve` exits 1 so that a supervisor sees it.

Before, the first copy's "database or disk is full" ended the saving: the
temporary folder was never tried, the part-written copy stayed at the `--db`
name, and the server exited 0.

The disks are tmpfs mounts in a private mount namespace (a user namespace too
when not root), held by a `sleep` the server joins with `nsenter`, so that
what the stop left on them can be listed after it."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server import launch
from tests.cli.helpers import create_match, play_random_match
from tests.integrity.helpers import logged, wait_until
from tests.server.lost_database import assert_the_copy_serves

pytestmark = pytest.mark.e2e

DB_FOLDER = "/mnt/db"  # inside the namespace, on the small disk
TMPDIR = "/mnt/tmp"  # the server's temporary folder: a disk of its own
# Room for Python's look at the temporary folder (it writes 4 bytes there and
# takes the next folder if it cannot), none for a copy of the database. /tmp
# itself is left alone: the server's own Python may be under it.
NO_SPARE_ROOM = (
    "mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/db /mnt/tmp"
    " && mount -t tmpfs -o size=8k tmpfs /mnt/tmp"
)
SPARE_ROOM = (
    "mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/db /mnt/tmp"
    " && mount -t tmpfs -o size=16m tmpfs /mnt/tmp"
)


@pytest.fixture
def namespace(request: pytest.FixtureRequest) -> Iterator[int]:
    """The pid of a process holding a mount namespace set up by `request.param`."""
    if shutil.which("unshare") is None or shutil.which("nsenter") is None:
        pytest.fail("unshare or nsenter not found: install util-linux (apt-get install util-linux)")
    if not os.path.isdir("/mnt"):
        pytest.fail("this test mounts its disks on /mnt, which this machine lacks")
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    holder = subprocess.Popen(
        [
            "unshare",
            *user,
            "--mount",
            "sh",
            "-c",
            f"{request.param} && echo ready && exec sleep 600",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "ready\n", "the namespace's disks could not be mounted"
        yield holder.pid
    finally:
        holder.kill()
        holder.wait()


def _serve_inside(holder: int) -> list[str]:
    user = [] if os.geteuid() == 0 else ["--user", "--preserve-credentials"]
    # Entering a mount namespace moves to its root folder: back to the project's.
    enter = ["nsenter", "--target", str(holder), *user, "--mount", f"--wd={launch.ROOT}"]
    return [*enter, *launch.serve_command("--db", f"{DB_FOLDER}/s.db")]


def _fill(path: Path) -> None:
    with open(path, "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError:
            pass


def _lose_the_database_and_stop(holder: int) -> tuple[int, list[str]]:
    """A server in the namespace: a match played, one created, the file deleted,
    the disk filled, SIGTERM. Returns the exit code and the log."""
    disk = Path(f"/proc/{holder}/root{DB_FOLDER}")
    server = launch.start(_serve_inside(holder), env={"TMPDIR": TMPDIR})
    try:
        play_random_match(server.address)
        created = create_match(server.address)
        assert created.returncode == 0, created.stderr
        (disk / "s.db").unlink()
        wait_until(
            lambda: bool(logged(server.log_lines, "database file deleted or replaced")),
            10,
            "the server noticing",
        )
        _fill(disk / "fill")
    finally:
        code = launch.stop(server)
    return code, server.log_lines


@pytest.mark.parametrize("namespace", [SPARE_ROOM], indirect=True)
def test_a_copy_the_full_disk_cannot_hold_goes_to_the_temporary_folder(
    namespace: int, tmp_path: Path
) -> None:
    code, lines = _lose_the_database_and_stop(namespace)
    assert code == 0, "".join(lines[-5:])
    (saved,) = logged(lines, "database saved to a new file: its file had been deleted or replaced")
    saved_to = str(saved["saved_to"])
    assert saved_to.startswith(f"{TMPDIR}/s.db.saved-"), saved_to
    assert sorted(os.listdir(f"/proc/{namespace}/root{DB_FOLDER}")) == ["fill"], (
        "a part-written copy was left beside the lost file"
    )
    copy = tmp_path / "s.db"
    shutil.copyfile(f"/proc/{namespace}/root{saved_to}", copy)
    assert_the_copy_serves(copy)


@pytest.mark.parametrize("namespace", [NO_SPARE_ROOM], indirect=True)
def test_a_database_no_copy_of_which_can_be_written_exits_1(namespace: int) -> None:
    code, lines = _lose_the_database_and_stop(namespace)
    assert code == 1, "".join(lines[-5:])
    (lost,) = logged(
        lines, "database lost: its file had been deleted or replaced, and no copy could be written"
    )
    assert "full" in str(lost["error"]), lost
    (stopped,) = logged(lines, "server stopped")
    assert stopped["data_lost"] is True
    assert sorted(os.listdir(f"/proc/{namespace}/root{DB_FOLDER}")) == ["fill"], (
        "a part-written copy was left at the --db name"
    )
    assert sorted(os.listdir(f"/proc/{namespace}/root{TMPDIR}")) == [], (
        "a part-written copy was left in the temporary folder"
    )
