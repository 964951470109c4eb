"""`match` and `bot` refuse a command bot whose interpreter is there but whose
script is not (`cmd:{python} mien.py`, a typo), as a tournament's check does:
only the program was checked, so `match` played the match with a random
stand-in in that seat and reported a crash ("can't open file ... mien.py"),
where a program that is not there is a usage error (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import one_line, sheepfold

pytestmark = pytest.mark.e2e


def test_match_refuses_a_script_that_is_not_there(tmp_path: Path) -> None:
    done = sheepfold(
        "match", "--game", "sheep-n-sheep", "--players", "2", "--no-sandbox",
        "--bot-dir", str(tmp_path), "--bots", "random,cmd:{python} -u mien.py --level 3",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert line.startswith("sheepfold match: 'cmd:{python} -u mien.py --level 3': python")
    assert line.endswith(f" would run 'mien.py', no file {tmp_path / 'mien.py'}")


def test_bot_refuses_a_script_that_is_not_there(tmp_path: Path) -> None:
    done = sheepfold(
        "bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t", "--no-sandbox",
        "--bot-dir", str(tmp_path), "--bot", "cmd:sh gone.sh",
        timeout=30,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert one_line(done) == (
        f"sheepfold bot: 'cmd:sh gone.sh': sh would run 'gone.sh', no file {tmp_path / 'gone.sh'}"
    )
