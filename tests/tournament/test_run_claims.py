"""A tournament being played belongs to its run: `forget` and a second `run` or
`sprt` of it are refused, naming the run's process, until the run ends however
it ends; other tournaments in the same database go on. Once, `forget` during a
run deleted games the run then reported as done (`24/24 done` with 18 stored),
and two runs played every missing game twice, the second storing none of them
(`0/24 done`), or failed with an IntegrityError traceback when both created
the tournament. Run as a user runs it: real processes, real SQLite."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournament.config import load_config
from tournament.progress import SilentProgress
from tournament.runner import run_tournament
from tournament.store import GameRecord

pytestmark = pytest.mark.e2e

# A random bot whose module, imported with GATE_IMPORT set, waits at import
# while the file `hold-import` is there (after touching `importing`): a run
# held in its checks, past the look for a holder. Its decisions wait while the
# file `hold` is there (after touching `asked`): a run held in mid-game.
GATE_BOT = """
import os, random, time
from pathlib import Path

HERE = Path(__file__).parent

if os.environ.get("GATE_IMPORT"):
    (HERE / "importing").touch()
    while (HERE / "hold-import").exists():
        time.sleep(0.05)


class Bot:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def decide(self, decision):
        if (HERE / "hold").exists():
            (HERE / "asked").touch()
            while (HERE / "hold").exists():
                time.sleep(0.05)
        return self.rng.randrange(len(decision.actions))
"""


def tournament(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "tournament", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
    )


def _env() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT), str(ROOT / "proto")])
    return {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}


def _config(folder: Path, name: str, games_per_pairing: int, bots: str = "") -> Path:
    """Sheep Showdown, one round: the gate bot against random, `name`.toml."""
    (folder / "gate.py").write_text(GATE_BOT)
    path = folder / f"{name}-{games_per_pairing}.toml"
    path.write_text(
        f'name = "{name}"\ngame = "sheep-showdown"\nplayers = 2\n'
        f"games_per_pairing = {games_per_pairing}\nconcurrency = 1\ndecision_seconds = 60\n"
        f'bootstrap = 20\ndatabase = "cups.sqlite"\npython_path = ["."]\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "gate"\nclass = "gate:Bot"\n'
        f'[[bots]]\nname = "quick"\nbuiltin = "random"\n{bots}'
    )
    return path


def _stored(db: Path, tournament: str) -> int:
    with sqlite3.connect(db) as raw:
        return int(
            raw.execute(
                "SELECT COUNT(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id"
                " WHERE t.name = ?",
                (tournament,),
            ).fetchone()[0]
        )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    return lines[0]


def _refused_by(
    done: subprocess.CompletedProcess[str], pid: int, db: Path, command: str = "run"
) -> None:
    """Exit 1 and one line naming the process that plays tournament 'cup'."""
    assert done.returncode == 1, done.stderr
    line = _one_line(done)
    assert line.startswith(
        f"sheepfold tournament: tournament 'cup' in {db} is in use by process {pid} "
        f"(sheepfold tournament {command}, since "
    ), line
    assert line.endswith("; wait for it to finish (or stop it), then try again"), line


@contextmanager
def _held_run(folder: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """`tournament ARGS...` (a run or an sprt) in another process, held in its
    first new game until the block ends; then `_finished` waits for it."""
    (folder / "hold").touch()
    runner = subprocess.Popen(
        [sys.executable, "-m", "cli", "tournament", *args],
        cwd=folder,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (folder / "asked").exists():
            assert runner.poll() is None, runner.communicate()[1]
            assert time.monotonic() < deadline, "the run did not start its games"
            time.sleep(0.05)
        yield runner
    except BaseException:
        runner.kill()
        runner.communicate()
        raise
    finally:
        (folder / "hold").unlink(missing_ok=True)


def _finished(runner: subprocess.Popen[str]) -> str:
    """The run's stderr once it ended by itself (killed after a minute)."""
    try:
        _, stderr = runner.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        runner.kill()
        runner.communicate()
        raise AssertionError("the run did not finish") from None
    assert "Traceback" not in stderr, stderr
    return stderr


def test_forget_is_refused_during_a_run_and_works_after_it(tmp_path: Path) -> None:
    db = tmp_path / "cups.sqlite"
    assert tournament("run", str(_config(tmp_path, "cup", 2)), "--no-report").returncode == 0
    assert tournament("run", str(_config(tmp_path, "other", 1)), "--no-report").returncode == 0
    assert _stored(db, "cup") == 4

    with _held_run(tmp_path, "run", str(_config(tmp_path, "cup", 4)), "--no-report") as runner:
        _refused_by(
            tournament("forget", "gate", "--db", str(db), "--tournament", "cup"), runner.pid, db
        )
        # the same in the words the user gave, from the database's folder
        nearby = tournament(
            "forget", "gate", "--db", "cups.sqlite", "--tournament", "cup", cwd=tmp_path
        )
        _refused_by(nearby, runner.pid, Path("cups.sqlite"))
        assert _stored(db, "cup") == 4
        other = tournament("forget", "gate", "--db", str(db), "--tournament", "other")
        assert other.returncode == 0, other.stderr
        assert other.stdout.strip() == "forgot 2 games of 'gate' in tournament 'other'"
    stderr = _finished(runner)
    assert runner.returncode == 0, stderr
    summary = [line for line in stderr.splitlines() if " games played in " in line]
    assert summary and summary[-1].endswith(", 8/8 done"), stderr
    assert _stored(db, "cup") == 8

    after = tournament("forget", "gate", "--db", str(db), "--tournament", "cup")
    assert after.returncode == 0, after.stderr
    assert after.stdout.strip() == "forgot 8 games of 'gate' in tournament 'cup'"
    assert _stored(db, "cup") == 0


def test_a_second_run_or_sprt_of_a_running_tournament_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "cups.sqlite"
    config = _config(tmp_path, "cup", 2)
    with _held_run(tmp_path, "run", str(config), "--no-report") as runner:
        _refused_by(tournament("run", str(config), "--no-report"), runner.pid, db)
        _refused_by(tournament("sprt", str(config), "--max-games", "2"), runner.pid, db)
        (tmp_path / "hold").unlink()  # the other tournament's games need no holding
        other = tournament("run", str(_config(tmp_path, "other", 1)), "--no-report")
        assert other.returncode == 0, other.stderr
    stderr = _finished(runner)
    assert runner.returncode == 0, stderr
    assert "already stored by another runner" not in stderr
    assert _stored(db, "cup") == 4 and _stored(db, "other") == 2


def test_a_killed_run_leaves_the_tournament_free(tmp_path: Path) -> None:
    db = tmp_path / "cups.sqlite"
    assert tournament("run", str(_config(tmp_path, "cup", 2)), "--no-report").returncode == 0
    config = _config(tmp_path, "cup", 4)
    with _held_run(tmp_path, "run", str(config), "--no-report") as runner:
        _refused_by(tournament("forget", "gate", "--db", str(db)), runner.pid, db)
        runner.send_signal(signal.SIGKILL)
        _finished(runner)
    assert runner.returncode == -signal.SIGKILL
    forget = tournament("forget", "gate", "--db", str(db))
    assert forget.returncode == 0, forget.stderr
    assert forget.stdout.strip() == "forgot 4 games of 'gate' in tournament 'cup'"
    again = tournament("run", str(config), "--no-report")
    assert again.returncode == 0, again.stderr
    assert again.stderr.strip().splitlines()[-1].endswith(", 8/8 done"), again.stderr


def test_an_sprt_holds_its_tournament_too(tmp_path: Path) -> None:
    db = tmp_path / "cups.sqlite"
    config = _config(tmp_path, "cup", 1)
    with _held_run(tmp_path, "sprt", str(config), "--max-games", "4") as sprt:
        _refused_by(tournament("forget", "gate", "--db", str(db)), sprt.pid, db, "sprt")
        _refused_by(tournament("run", str(config)), sprt.pid, db, "sprt")
    _finished(sprt)
    assert sprt.returncode in (0, 3, 4)  # H1, H0, or undecided at the game limit
    assert _stored(db, "cup") == 4


class _Vanishing(SilentProgress):
    """Deletes each game behind the runner's back (as an older sheepfold's
    `forget`, or a hand-written DELETE, would) right after it is stored."""

    def __init__(self, db: Path, count: int) -> None:
        self.db = db
        self.count = count

    def game_done(self, game: GameRecord, elo: Mapping[str, float]) -> None:
        if self.count > 0:
            self.count -= 1
            with sqlite3.connect(self.db) as raw:
                (game_id,) = raw.execute(
                    "SELECT id FROM games WHERE key = ?", (game.key,)
                ).fetchone()
                for table, column in (("game_replays", "game_id"), ("game_seats", "game_id")):
                    raw.execute(f"DELETE FROM {table} WHERE {column} = ?", (game_id,))
                raw.execute("DELETE FROM games WHERE id = ?", (game_id,))


def test_the_summary_counts_the_games_stored_when_the_run_ends(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, "cup", 2))
    db = tmp_path / "cups.sqlite"
    summary = run_tournament(config, database=str(db), progress=_Vanishing(db, 1))
    assert (summary.played, summary.done, summary.scheduled) == (4, 3, 4)
    assert _stored(db, "cup") == 3
