"""`db vacuum` on a database whose index of match ids is damaged, with one
match to delete: "1 of 1 match to delete was not found by id", not "1 of 1
matches to delete were not found"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold
from tests.cli.test_db_command import _database
from tests.cli.test_db_damaged_index import _damage_the_index_of_matches

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("finished", "said"),
    [
        (1, "1 of 1 match to delete was not found by id"),
        (2, "2 of 2 matches to delete were not found by id"),
    ],
)
def test_the_count_of_matches_not_found_agrees_with_its_number(
    tmp_path: Path, finished: int, said: str
) -> None:
    db = tmp_path / "s.db"
    _database(db, finished=finished, moves=2)
    _damage_the_index_of_matches(db)
    done = sheepfold("db", "vacuum", "--db", str(db), "--keep-finished", "0", timeout=30)
    assert done.returncode == 1, done.stderr
    assert f"its index of match ids is damaged: {said} (back the file up" in one_line(done)
