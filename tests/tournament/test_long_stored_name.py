"""A tournament stored before names were limited to 100 characters (written
into the database directly here): `report` and `forget` still read it, and
`run` of its config says why it cannot play on, and what can be done."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from tests.cli.helpers import sheepfold

LONG = "cup-" + "x" * 146  # 150 characters


def _sheepfold(*args: str) -> subprocess.CompletedProcess[str]:
    return sheepfold("tournament", *args, timeout=120)


def _config(folder: Path, name: str) -> Path:
    path = folder / f"{len(name)}.toml"
    path.write_text(
        f'name = "{name}"\ngame = "stubborn-sheep"\nplayers = 1\ngames_per_pairing = 1\n'
        f'database = "{folder / "results.sqlite"}"\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
    )
    return path


def test_a_stored_tournament_named_past_the_limit(tmp_path: Path) -> None:
    played = _sheepfold("run", str(_config(tmp_path, "cup")), "--no-report")
    assert played.returncode == 0, played.stderr[-2000:]
    database = tmp_path / "results.sqlite"
    with sqlite3.connect(database) as db:
        db.execute(
            "UPDATE tournaments SET name = ?, config_json = json_set(config_json, '$.name', ?)",
            (LONG, LONG),
        )

    report = _sheepfold("report", "--db", str(database), "--tournament", LONG)
    assert report.returncode == 0, report.stderr
    options = "options bonus_actions=false, wolf=false"
    assert report.stdout.startswith(f"{LONG}: stubborn-sheep, 1 player, {options}, 1/1 game")

    again = _sheepfold("run", str(_config(tmp_path, LONG)), "--no-report")
    assert again.returncode == 2, again.stderr
    (line,) = again.stderr.splitlines()
    assert "has 150 characters (at most 100)" in line
    assert "still reported (`sheepfold tournament report --tournament NAME`)" in line
    assert "Traceback" not in again.stderr

    forget = _sheepfold("forget", "--db", str(database), "--tournament", LONG, "steady")
    assert forget.returncode == 0, forget.stderr
    assert forget.stdout.startswith("forgot 1 game of 'steady'")
