"""A tournament config's error quotes a wrong value cut short, as the command
line's errors do: a pasted 200,000-character value (or a whole number of
4,300 digits) was quoted whole, one line of 200 KB on the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold

PASTED = "y" * 200_000
CUT = "'" + "y" * 36 + "..."
BOTS = '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'


@pytest.mark.parametrize(
    ("setting", "told"),
    [
        (f'players = "{PASTED}"', f"players: must be a whole number, not {CUT}"),
        (
            f'schedule = "{PASTED}"',
            f"schedule: must be one of round-robin, gauntlet, sprt, not {CUT}",
        ),
        (
            f'anchor = "{PASTED}"',
            f'anchor: must be the name of one of the bots, or "mean", not {CUT}',
        ),
        (
            f'[sprt]\ncandidate = "{PASTED}"',
            f"sprt.candidate: must be the name of one of the bots, not {CUT}",
        ),
        (f'[executor]\nkind = "{PASTED}"', f"executor.kind: must be one of local, ray, not {CUT}"),
        (f'[sandbox]\nmemory_mb = "{PASTED}"', f"sandbox.memory_mb: must be a number, not {CUT}"),
        (
            f"games_per_pairing = {'9' * 4300}",
            "games_per_pairing: must be at most 100,000, not " + "9" * 37 + "...",
        ),
    ],
    ids=["players", "schedule", "anchor", "sprt", "executor", "sandbox", "digits"],
)
def test_a_long_wrong_value_is_quoted_cut_short(tmp_path: Path, setting: str, told: str) -> None:
    config = tmp_path / "cup.toml"
    text = f'name = "cup"\ngame = "sheep-showdown"\n{setting}\n{BOTS}'
    config.write_text(text)
    done = sheepfold("tournament", "run", str(config), "--db", str(tmp_path / "cup.sqlite"))
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert line == f"sheepfold tournament: {config}: {told}", line[:300]
