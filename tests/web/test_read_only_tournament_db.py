"""The viewer reads a tournament database it may not write: one in a folder
the viewer's user cannot write to (another user's, a read-only mount), the
runner done with it. A read-only SQLite connection to a WAL database needs
its -wal and -shm files, and when no runner has the database open there are
none, nor may the viewer create them.

The folder is made read-only by a read-only bind mount in a private mount
namespace, which holds for root too (as in tests/cli/test_read_only_database.py).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournament.store import Store
from web import tournaments

READ = """
import sys
from pathlib import Path
from cli.viewer import missing_tournament_dbs
from web import tournaments
path = Path(sys.argv[1])
print(missing_tournament_dbs([path]))
print([t.name for t in tournaments.list_tournaments(path)])
print(tournaments.load(path, "cup").record.name)
print(tournaments.polled(path, "cup").marker[1:])
try:
    tournaments.stored_replay(path, "cup", "none")
except LookupError as error:
    print(error)
"""


def _tournament_db(path: Path) -> Path:
    """A tournament database as a finished run leaves it: WAL mode, closed."""
    with Store(path):
        pass
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO tournaments (name, game, players, options_json, scheduled, config_json,"
            " created_at, updated_at) VALUES ('cup', 'sheep-showdown', 2, '{}', 4, '{}', 1, 1)"
        )
    connection.close()
    assert not Path(f"{path}-wal").exists(), "the last connection removed its WAL"
    with path.open("rb") as file:
        assert file.read(20)[18:20] == b"\x02\x02", "a WAL-mode database"
    return path


def test_a_finished_tournament_in_a_folder_the_viewer_cannot_write_is_read(
    tmp_path: Path,
) -> None:
    """It was "is not a SQLite database (unable to open database file)" at the
    command's start (and on every tournament page): the viewer tried to create
    the -wal and -shm files a read-only connection to a WAL database uses."""
    if shutil.which("unshare") is None:
        pytest.fail("unshare not found: install util-linux (apt-get install util-linux)")
    folder = tmp_path / "results"
    folder.mkdir()
    db = _tournament_db(folder / "cup.db")
    namespace = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "-rm"]
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    done = subprocess.run(
        [*namespace, "sh", "-c", script, "sh", str(folder), sys.executable, "-c", READ, str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "None",
        "['cup']",
        "cup",
        "(4, 0, 0)",
        "the tournament 'cup' in cup.db has no game 'none'",
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["cup.db"]


def test_a_tournament_database_whose_name_is_not_utf8_is_read(tmp_path: Path) -> None:
    """A file name of bytes that are not UTF-8 (a Latin-1 "é", say): the
    percent-encoded URI once failed on it with a UnicodeEncodeError traceback,
    and since the database is checked at start, `sheepfold web` did too."""
    db = _tournament_db(Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.db")))
    from cli.viewer import missing_tournament_dbs

    assert missing_tournament_dbs([db]) is None
    assert [t.name for t in tournaments.list_tournaments(db)] == ["cup"]
    assert tournaments.load(db, "cup").record.scheduled == 4
    assert tournaments.polled(db, "cup").marker[1:] == (4, 0, 0)


def test_reading_a_closed_tournament_database_leaves_no_file_beside_it(tmp_path: Path) -> None:
    """Each read of a database no runner had open left an empty -wal and a
    -shm file beside it, the viewer's (a read-only connection cannot remove
    them). Where the viewer runs as another user than the runner, in a folder
    both may write to, the runner could then no longer write its own database
    ("attempt to write a readonly database") until someone removed them."""
    db = _tournament_db(tmp_path / "cup.db")
    assert [t.name for t in tournaments.list_tournaments(db)] == ["cup"]
    assert tournaments.load(db, "cup").record.scheduled == 4
    assert tournaments.polled(db, "cup").marker[1:] == (4, 0, 0)
    with pytest.raises(LookupError, match="has no game 'none'"):
        tournaments.stored_replay(db, "cup", "none")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cup.db"]


def test_a_tournament_being_run_is_read_with_its_newest_games(tmp_path: Path) -> None:
    """While a runner has the database open, what it committed is in its -wal
    file: the viewer reads through it (not the database file alone)."""
    db = _tournament_db(tmp_path / "cup.db")
    runner = sqlite3.connect(db, isolation_level=None)
    try:
        runner.execute("SELECT COUNT(*) FROM tournaments").fetchone()
        runner.execute("UPDATE tournaments SET scheduled = 6")
        assert Path(f"{db}-wal").exists()
        assert tournaments.polled(db, "cup").marker[1:] == (6, 0, 0)
        assert tournaments.load(db, "cup").record.scheduled == 6
    finally:
        runner.close()


def _add_games(connection: sqlite3.Connection, first: int, count: int, details: str) -> None:
    for game in range(first, first + count):
        connection.execute(
            "INSERT INTO games (id, tournament_id, key, match_id, seed, grp, rotation,"
            " end_reason, details_json, duration_seconds, finished_at)"
            " VALUES (?, 1, ?, ?, 0, 0, 0, 'finished', ?, 1.0, ?)",
            (game, f"g{game}", f"m{game}", details, float(game)),
        )
        for seat, bot in enumerate(("a", "b")):
            connection.execute(
                "INSERT INTO game_seats (game_id, seat, bot, score, rank, server_rank,"
                " strikes, disqualified) VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
                (game, seat, bot, float(seat), 2 - seat, 2 - seat),
            )


def test_a_runner_that_starts_and_checkpoints_during_a_read_tears_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A closed WAL database is read as immutable: SQLite then takes no lock
    and keeps the pages it read, so a runner that opened the database meanwhile
    and checkpointed (or closed it) wrote pages under the reader, whose next
    read mixed the two versions: games missing or found twice, "database disk
    image is malformed". The read is made again on the database as it is now."""
    db = _tournament_db(tmp_path / "cup.db")
    with sqlite3.connect(db, isolation_level=None) as connection:
        _add_games(connection, 1, 400, '{"old": "' + "x" * 300 + '"}')
    connection.close()
    assert not Path(f"{db}-wal").exists()

    tournament = Store.tournament
    runs = []

    def tournament_then_a_runner(store: Store, *args: object, **kwargs: object) -> object:
        record = tournament(store, *args, **kwargs)
        if not runs:  # once: the runner starts, rewrites the games and stops
            runs.append(1)
            runner = sqlite3.connect(db, isolation_level=None)
            runner.execute("DELETE FROM game_seats WHERE game_id % 3 = 0")
            runner.execute("DELETE FROM games WHERE id % 3 = 0")
            _add_games(runner, 1000, 600, '{"new": "' + "y" * 500 + '"}')
            runner.execute("UPDATE tournaments SET scheduled = 2000")
            runner.close()  # its checkpoint writes the pages; the -wal goes
            assert not Path(f"{db}-wal").exists()
        return record

    monkeypatch.setattr(Store, "tournament", tournament_then_a_runner)
    view = tournaments.load(db, "cup")
    keys = [game.key for game in view.games]
    # All of the new database (read again), not a mix of both.
    assert len(keys) == len(set(keys)) == 400 - 133 + 600
    assert all(len(game.seats) == 2 for game in view.games)
    assert view.record.scheduled == 2000
    assert tournaments.polled(db, "cup").marker[1:3] == (2000, 867)
