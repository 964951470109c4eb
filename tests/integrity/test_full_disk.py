"""A full disk under the database: at start, one line naming it; while matches
play, the server waits (no move lost, no strike), refuses new matches saying
the disk is full, reports NOT_SERVING, and goes on once space comes back.

Before, a full disk was reported as "database or disk is full; is another
process holding it?" (a lock's hint), and at start as a bare "disk I/O error".
The disk is a small tmpfs mounted in a private mount namespace (a user
namespace too when not root), filled through the server's /proc/PID/root."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from server import launch
from tests.cli.helpers import random_cup
from tests.integrity.helpers import (
    SlowBot,
    assert_every_case_plays_through,
    assert_replay_reproduces_result,
    create_request,
    game_cases,
    get_replay,
    health_status,
    log_entries,
    wait_until,
)

pytestmark = pytest.mark.e2e

MOUNT = 'mount -t tmpfs -o size=2m tmpfs "$1" && shift && exec "$@"'
FILL_FIRST = (
    'mount -t tmpfs -o size=512k tmpfs "$1" && dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null;'
    ' shift; exec "$@"'
)


def _in_a_small_disk(folder: Path, script: str, *command: str) -> list[str]:
    if shutil.which("unshare") is None:
        pytest.fail("unshare not found: install util-linux (apt-get install util-linux)")
    namespace = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "-rm"]
    return [*namespace, "sh", "-c", script, "sh", str(folder), *command]


def test_a_full_disk_at_start_is_one_line_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "disk"
    folder.mkdir()
    done = subprocess.run(
        _in_a_small_disk(folder, FILL_FIRST, *launch.serve_command("--db", f"{folder}/s.db")),
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"the disk holding {folder} is full" in lines[0], lines[0]


# The disk left with FREE KiB: too few for SQLite's first pages, or its -shm and
# -wal, or the schema's last tables. Then the folder's files are listed.
ALMOST_FULL = (
    'mount -t tmpfs -o size=1m tmpfs "$1" && dd if=/dev/zero of="$1/fill" bs=1k'
    " count=$((1024 - $2)) 2>/dev/null; folder=$1; shift 2;"
    ' "$@"; echo files: $(ls -A "$folder") >&2'
)


@pytest.mark.parametrize("free_kib", [0, 32, 64])
def test_a_start_on_a_full_disk_leaves_no_database(tmp_path: Path, free_kib: int) -> None:
    """Once a 0-byte file, or a half-made schema whose next start (with room
    again) stopped on "not a Sheepfold server database" or "duplicate column"."""
    folder = tmp_path / "disk"
    folder.mkdir()
    serve = launch.serve_command("--db", f"{folder}/s.db")
    command = _in_a_small_disk(folder, ALMOST_FULL, *serve)
    command.insert(command.index(str(folder)) + 1, str(free_kib))
    done = subprocess.run(command, cwd=launch.ROOT, capture_output=True, text=True, timeout=30)
    *errors, listing = done.stderr.strip().splitlines()
    assert len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"the disk holding {folder} is full" in errors[0], errors[0]
    assert listing == "files: fill", done.stderr


def _tournament_on_a_small_disk(
    folder: Path, free_kib: int, config: str, *, timeout: float
) -> subprocess.CompletedProcess[str]:
    """`sheepfold tournament run CONFIG --db FOLDER/t.db` with FOLDER a disk of
    its own, full but for `free_kib` KiB (its config file beside the folder)."""
    folder.mkdir()
    cup = folder.parent / "cup.toml"
    cup.write_text(config)
    run = [sys.executable, "-m", "cli", "tournament", "run", "--db", f"{folder}/t.db", str(cup)]
    command = _in_a_small_disk(folder, ALMOST_FULL, *run)
    command.insert(command.index(str(folder)) + 1, str(free_kib))
    return subprocess.run(command, cwd=launch.ROOT, capture_output=True, text=True, timeout=timeout)


def test_a_tournament_database_on_a_full_disk_is_named(tmp_path: Path) -> None:
    """Once "cannot use PATH: disk I/O error", which does not say why."""
    folder = tmp_path / "disk"
    done = _tournament_on_a_small_disk(
        folder, 16, random_cup(games_per_pairing=1, database="unused.db"), timeout=60
    )
    *_, error, _listing = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    assert error.startswith(f"sheepfold tournament: cannot use {folder}/t.db: "), error
    assert f"(the disk holding {folder} is full: " in error, error


@pytest.mark.parametrize("free_kib", [104, 400])
def test_a_tournament_database_whose_disk_fills_after_it_opened_is_named(
    tmp_path: Path, free_kib: int
) -> None:
    """Room to open the database but not to store the tournament (104 KiB: the
    claim's folder, taken before the database is opened, holds a block of it),
    or not every game (400 KiB): the run stopped with a traceback ending in
    "sqlite3.OperationalError: database or disk is full"."""
    folder = tmp_path / "disk"
    cup = "concurrency = 2\n" + random_cup(games_per_pairing=300, database="unused.db")
    done = _tournament_on_a_small_disk(folder, free_kib, cup, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    *_, error, _listing = done.stderr.strip().splitlines()
    assert done.returncode == 0, done.stderr[-3000:]  # the listing's echo; the run's own below
    assert error.startswith(f"sheepfold tournament: cannot write {folder}/t.db: "), error
    assert "database or disk is full" in error, error
    assert f"(the disk holding {folder} is full: " in error, error


def test_a_disk_that_fills_while_a_match_plays(tmp_path: Path) -> None:
    folder = tmp_path / "disk"
    folder.mkdir()
    command = launch.serve_command("--db", f"{folder}/s.db", "--db-write-timeout", "1")
    server = launch.start(_in_a_small_disk(folder, MOUNT, *command))
    # The server's own view of the folder: its tmpfs, not the folder beneath.
    filler = Path(f"/proc/{server.pid}/root{folder}/fill")
    address = server.address
    try:
        with grpc.insecure_channel(address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            case = game_cases()[0]
            created = stub.CreateMatch(create_request(case, 3, decision_seconds=5.0))

            async def seats() -> list[arena_pb2.MatchResult]:
                return await asyncio.gather(
                    *(
                        play(SlowBot(seat, delay=0.03), address, created.match_id, token, seat)
                        for seat, token in enumerate(created.seat_tokens)
                    )
                )

            results: list[arena_pb2.MatchResult] = []
            bots = threading.Thread(target=lambda: results.extend(asyncio.run(seats())))
            bots.start()
            request = arena_pb2.GetMatchRequest(match_id=created.match_id)
            wait_until(lambda: stub.GetMatch(request).moves >= 3, what="the match going")

            fill = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while os.write(fill, b"\0" * 4096):
                    pass
            except OSError:  # ENOSPC: the disk is full
                pass
            finally:
                os.close(fill)
            wait_until(
                lambda: health_status(address) == health_pb2.HealthCheckResponse.NOT_SERVING,
                what="NOT_SERVING",
            )
            stuck = stub.GetMatch(request).moves
            with pytest.raises(grpc.RpcError) as refused:
                stub.CreateMatch(create_request(case, 4), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            message = refused.value.details() or ""
            assert "full" in message and "another process" not in message, message
            time.sleep(1.0)
            assert stub.GetMatch(request).moves == stuck, "no move is applied unwritten"

            filler.unlink()
            bots.join(timeout=60)
            assert not bots.is_alive(), "the match finished once space came back"
            assert [s.strikes for s in results[0].seats] == [0, 0], "waiting cost no strike"
            wait_until(
                lambda: health_status(address) == health_pb2.HealthCheckResponse.SERVING,
                what="SERVING again",
            )
            assert stub.CreateMatch(create_request(case, 5)).match_id
        assert_replay_reproduces_result(asyncio.run(get_replay(address, created.match_id)))
    finally:
        assert launch.stop(server) == 0
    events = log_entries(server.log_lines)
    waiting = [e for e in events if e["event"] == "database write waiting"]
    assert waiting and "full" in str(waiting[0]["error"])
    assert any(e["event"] == "database writable again" for e in events)


# A disk of 1 MB: room for the matches' data many times over, but not for the
# write-ahead log of a few hundred moves (several KB each) between checkpoints.
SMALL_MOUNT = 'mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec "$@"'


def test_the_write_ahead_log_does_not_fill_a_small_disk(tmp_path: Path) -> None:
    """The log grew by every move until a checkpoint every 1,000 writes (16 MB
    of log), so on a disk with less room it filled the disk by itself while the
    matches' data took a few dozen KB: the server then waited for space for
    ever (NOT_SERVING, every match stuck), and space made for it was taken by
    the log again within a second."""
    folder = tmp_path / "disk"
    folder.mkdir()
    command = launch.serve_command("--db", f"{folder}/s.db")
    server = launch.start(_in_a_small_disk(folder, SMALL_MOUNT, *command))
    assert_every_case_plays_through(server, "on a disk of 1 MB")


def test_a_database_in_a_missing_folder_is_one_line_naming_it(tmp_path: Path) -> None:
    """Once only SQLite's "unable to open database file"."""
    done = subprocess.run(
        launch.serve_command("--db", f"{tmp_path}/missing/s.db"),
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith(f"(there is no folder {tmp_path}/missing)"), done.stderr


def test_a_database_link_to_a_missing_folder_names_where_it_leads(tmp_path: Path) -> None:
    """A --db that is a symbolic link (to a volume not mounted, say): once only
    SQLite's "unable to open database file", the folder beside the link being there."""
    link = tmp_path / "s.db"
    link.symlink_to(tmp_path / "volume" / "s.db")
    done = subprocess.run(
        launch.serve_command("--db", str(link)),
        cwd=launch.ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith(
        f"(there is no folder {tmp_path}/volume: {link} is a link to {tmp_path}/volume/s.db)"
    ), done.stderr
