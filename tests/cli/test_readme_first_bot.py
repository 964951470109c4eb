"""The README's first bot, saved as mymodule.py as written, must play: both
through `sheepfold match`/`bot --bot mymodule:FirstActionBot`, which import
the file, and run as a script. Its last line once called `play` at module
level with `match_id` and `seat_token` that the snippet never defines, so
importing it, as the README's next sentence says to, failed with a NameError."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from server.launch import ServerProcess
from tests.cli.helpers import command, created_match
from tests.conftest import ROOT


def _first_bot(folder: Path) -> Path:
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"\n## Write a bot\n.*?```python\n(.*?)```", readme, re.S)
    assert found, "the README's Write a bot section has a Python example"
    path = folder / "mymodule.py"
    path.write_text(found.group(1))
    return path


def _run(folder: Path, args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        args, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def test_the_readme_bot_plays_a_match_imported_by_sheepfold(tmp_path: Path) -> None:
    _first_bot(tmp_path)
    done = _run(tmp_path, command(
        "match", "--game", "sheep-n-sheep", "--players", "2",
        "--bots", "random,mymodule:FirstActionBot", "--seed", "1", "--json",
    ))  # fmt: skip
    stdout, stderr = done.communicate(timeout=120)
    assert done.returncode == 0, stderr
    assert json.loads(stdout)["bots"] == ["random", "mymodule:FirstActionBot"]


def test_the_readme_bot_plays_a_seat_run_as_a_script(tmp_path: Path, server: ServerProcess) -> None:
    script = _first_bot(tmp_path)
    match = created_match(server.address)
    token, other = match["seat_tokens"]
    mine = _run(tmp_path, [sys.executable, str(script), server.address, match["match_id"], token])
    theirs = _run(tmp_path, command(
        "bot", "--server", server.address, "--match", match["match_id"], "--token", other,
    ))  # fmt: skip
    for process in (mine, theirs):
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr
