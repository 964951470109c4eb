"""`tournament run` and `forget` with something other than a folder where the
tournament's lock folder goes (`DB-locks`, tournament.claims): one line naming
that path and what is wrong there, exit 1. It once said only "File exists",
and `run` started its server before saying it."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import random_cup, sheepfold


def _expected(database: Path) -> str:
    return (
        f"sheepfold tournament: cannot claim tournament 'cup' in {database}: "
        f"{database}-locks, where its lock folder goes, is not a folder; "
        "move it away and try again"
    )


def test_run_names_a_file_where_its_lock_folder_goes(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=2, database="cup.sqlite"))
    database = tmp_path / "cup.sqlite"
    (tmp_path / "cup.sqlite-locks").write_text("somebody's notes")
    done = sheepfold("tournament", "run", str(config), "--no-report")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [_expected(database)]
    assert (tmp_path / "cup.sqlite-locks").read_text() == "somebody's notes"


def test_forget_names_a_file_where_its_lock_folder_goes(tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=1, database="cup.sqlite"))
    database = tmp_path / "cup.sqlite"
    assert sheepfold("tournament", "run", str(config), "--no-report").returncode == 0
    (tmp_path / "cup.sqlite-locks").rename(tmp_path / "old-locks")
    (tmp_path / "cup.sqlite-locks").write_text("somebody's notes")
    done = sheepfold("tournament", "forget", "a", "--db", str(database))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [_expected(database)]
