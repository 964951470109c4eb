"""`tournament report` and a resumed `tournament run` of a database whose
tournament times or schema version were edited by hand with sqlite3: one line
naming the file, the row and what to do, exit 1, never a traceback (text or
inf in schema_version was a ValueError or OverflowError traceback; a text
time was read on as it was)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.helpers import one_line, play_cup, random_cup, sheepfold

TIME = (
    "UPDATE tournaments SET updated_at = 'yesterday'",
    "sheepfold tournament: tournament 'cup' in {db}: its updated_at is not a time in seconds "
    "since 1970 (edited by hand?), it holds 'yesterday'; put the value back, or set it to now "
    "(UPDATE tournaments SET updated_at = strftime('%s', 'now') WHERE id = 1 in the sqlite3 "
    "shell)",
)
VERSION = (
    "UPDATE schema_version SET version = 9e999",
    "sheepfold tournament: the schema version of {db} is not one whole number (edited by "
    "hand?): its schema_version table holds inf; put back the one row it held (this "
    "sheepfold writes version 6: DELETE FROM schema_version; INSERT INTO schema_version "
    "VALUES (6) in the sqlite3 shell, if this sheepfold wrote the file)",
)


@pytest.mark.parametrize(("edit", "said"), [TIME, VERSION], ids=["updated_at", "version"])
def test_report_and_a_resume_name_a_hand_edited_time_or_version(
    tmp_path: Path, edit: str, said: str
) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=1, database="cup.sqlite"))
    play_cup(config)
    db = tmp_path / "cup.sqlite"
    with closing(sqlite3.connect(db)) as raw:
        raw.execute(edit)
        raw.commit()
    config.write_text(random_cup(games_per_pairing=2, database="cup.sqlite"))
    wanted = said.format(db=db)
    reported = sheepfold("tournament", "report", "--db", str(db), "--bootstrap", "0")
    assert (reported.returncode, one_line(reported)) == (1, wanted)
    resumed = sheepfold("tournament", "run", str(config), "--no-report")
    assert resumed.returncode == 1 and "Traceback" not in resumed.stderr, resumed.stderr
    assert resumed.stderr.splitlines()[-1] == wanted, resumed.stderr
    with closing(sqlite3.connect(db)) as raw:  # nothing more played
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)


def test_replay_names_the_file_once_in_a_damaged_row_error(tmp_path: Path) -> None:
    """The error names the file itself; replay put the path before it again."""
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=1, database="cup.sqlite"))
    play_cup(config)
    db = tmp_path / "cup.sqlite"
    with closing(sqlite3.connect(db)) as raw:
        raw.execute(TIME[0])
        (match_id,) = raw.execute("SELECT match_id FROM games LIMIT 1").fetchone()
        raw.commit()
    replayed = sheepfold("replay", "--db", str(db), match_id)
    assert replayed.returncode == 1, replayed.stderr
    assert one_line(replayed) == TIME[1].format(db=db).replace(
        "sheepfold tournament:", "sheepfold replay:"
    )


def test_one_damaged_tournament_leaves_the_others_of_its_file_readable(tmp_path: Path) -> None:
    """One tournament's time edited by hand stopped `report`, `run` and
    `replay` for every tournament in the file: now only the damaged one is
    refused (named), and a report without a name, which cannot tell whether
    it is the latest, says which others can be read."""
    cup, other = tmp_path / "cup.toml", tmp_path / "other.toml"
    cup.write_text(random_cup(games_per_pairing=1, database="cup.sqlite"))
    other.write_text(random_cup(name="other", games_per_pairing=1, database="cup.sqlite"))
    play_cup(cup)
    play_cup(other)
    db = tmp_path / "cup.sqlite"
    with closing(sqlite3.connect(db)) as raw:
        raw.execute(TIME[0] + " WHERE name = 'cup'")
        (match_id,) = raw.execute(
            "SELECT match_id FROM games JOIN tournaments t ON t.id = tournament_id"
            " WHERE t.name = 'other' LIMIT 1"
        ).fetchone()
        raw.commit()
    damaged = TIME[1].format(db=db)
    read = sheepfold("tournament", "report", "--db", str(db), "--tournament", "other")
    assert read.returncode == 0 and "Traceback" not in read.stderr, read.stderr
    assert "other" in read.stdout
    latest = sheepfold("tournament", "report", "--db", str(db), "--bootstrap", "0")
    assert (latest.returncode, one_line(latest)) == (
        1,
        damaged
        + "; meanwhile the other tournament in the file can be read with --tournament other",
    )
    named = sheepfold("tournament", "report", "--db", str(db), "--tournament", "cup")
    assert (named.returncode, one_line(named)) == (1, damaged)
    replayed = sheepfold("replay", "--db", str(db), match_id)
    assert replayed.returncode == 0, replayed.stderr
    other.write_text(random_cup(name="other", games_per_pairing=2, database="cup.sqlite"))
    resumed = sheepfold("tournament", "run", str(other), "--no-report")
    assert resumed.returncode == 0, resumed.stderr
    with closing(sqlite3.connect(db)) as raw:  # other played on, cup was left as it was
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone() == (6,)
