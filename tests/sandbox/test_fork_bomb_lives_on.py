"""A fork bomb that lives on inside the sandbox (its forks refused, it tries
again and never answers) is disqualified by the server's clock; it is said to
have hit its process limit, as one that exits on the refusal is, not to have
been disqualified alone."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import sheepfold

pytestmark = pytest.mark.e2e

BOMB = Path(__file__).resolve().parent / "bots" / "forkbomb"
PROCESSES = 16


def _match(*more: str) -> subprocess.CompletedProcess[str]:
    return sheepfold(
        "match",
        "--game",
        "stubborn-sheep",
        "--players",
        "2",
        "--bots",
        "cmd:{python} bomb_bot.py,random",
        "--bot-dir",
        str(BOMB),
        "--limit",
        f"processes={PROCESSES}",
        "--decision-seconds",
        "0.5",
        "--seed",
        "1",
        *more,
        timeout=120,
    )


def test_a_fork_bomb_disqualified_by_its_clock_is_said_to_hit_its_process_limit(
    sandbox_ready: None,
) -> None:
    done = _match("--json")
    summary = json.loads(done.stdout)
    assert summary["disqualified"] == [0], summary
    assert summary["crashed"] == {"0": f"process limit ({PROCESSES})"}, summary
    assert done.returncode == 1, done.stderr[-2000:]


def test_the_summary_line_names_the_limit(sandbox_ready: None) -> None:
    done = _match()
    assert f"seat 0 was disqualified: its program hit its process limit ({PROCESSES})" in (
        done.stdout
    ), done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_tournament_says_the_fork_bomb_hit_its_process_limit(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """Recorded as a crash with the limit, as the fork bomb that exits is
    (tests/sandbox/test_hostile_bots.py): it was a disqualification alone."""
    config = tmp_path / "cup.toml"
    config.write_text(
        'name = "bombcup"\ngame = "stubborn-sheep"\nplayers = 2\ngames_per_pairing = 1\n'
        f'decision_seconds = 0.5\ndatabase = "{tmp_path / "results.sqlite"}"\n'
        '[[bots]]\nname = "bomb"\ncommand = ["{python}", "bomb_bot.py"]\n'
        f'cwd = "{BOMB}"\nsandbox = {{ processes = {PROCESSES} }}\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
    )
    run = sheepfold("tournament", "run", str(config), "--no-report", timeout=120)
    assert run.returncode == 1, run.stderr[-3000:]
    said = f"bot 'bomb' crashed in every one of its 2 games: process limit ({PROCESSES})"
    assert said in run.stderr, run.stderr[-3000:]
