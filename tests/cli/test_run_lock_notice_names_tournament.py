"""Off a terminal, `tournament run` and `sprt` log JSON lines, each naming its
`tournament`. The notice that the database is locked by another process (a
warning among them) came before the run had started and said
`"tournament": ""`: an operator filtering the log by tournament lost the one
line saying why the run stood still."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import random_cup, sheepfold
from tests.sqlite_locks import write_locked

WAITING = "is locked by another process; waiting for it (at most"


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_the_lock_notice_names_the_tournament(command: str, tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(random_cup(games_per_pairing=1, database="cup.sqlite"))
    with write_locked(tmp_path / "cup.sqlite"):  # an sqlite3 shell in a transaction
        done = sheepfold("tournament", command, str(config), "--wait", "1.5")
    assert done.returncode == 1, done.stderr
    logged = [json.loads(line) for line in done.stderr.splitlines()[:-1]]
    notices = [entry for entry in logged if WAITING in entry["event"]]
    assert [entry.get("tournament") for entry in notices] == ["cup"], done.stderr
