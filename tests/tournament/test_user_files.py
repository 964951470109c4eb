"""A config that is no regular file, or is huge: refused in one line, before a
byte is read (/dev/zero was read until memory ran out, a FIFO waited for ever)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournament.config import ConfigError, load_config
from tournament.userfiles import MAX_USER_FILE_BYTES, read_user_text, regular_file_problem


def _fifo(tmp_path: Path) -> Path:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    return fifo


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder") as caught:
        load_config(tmp_path)
    assert caught.value.field == "<file>"


def test_a_config_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_USER_FILE_BYTES + "\n")
    with pytest.raises(ConfigError, match="too large"):
        load_config(big)
    small = tmp_path / "small.toml"
    small.write_text("x = 1\n")
    assert read_user_text(small) == "x = 1\n"


def test_regular_file_problem_only_looks(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)
    assert regular_file_problem(fifo) == f"{fifo} is not a regular file"
    assert regular_file_problem(tmp_path) == f"{tmp_path} is a folder, not a file"
    assert regular_file_problem(tmp_path / "nope") == f"there is no file at {tmp_path / 'nope'}"
    (tmp_path / "ok").write_text("")
    assert regular_file_problem(tmp_path / "ok") is None


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_tournament_commands_refuse_dev_zero_and_a_fifo_in_one_line(
    command: str, tmp_path: Path
) -> None:
    """Run in a subprocess: before the fix it hung (a FIFO) or ate memory (/dev/zero),
    which the timeout detects."""
    for path in ("/dev/zero", str(_fifo(tmp_path))):
        done = subprocess.run(
            [sys.executable, "-m", "cli", "tournament", command, path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 2, done.stderr
        # The file is named once (it once read "PATH: <file>: PATH is not ...").
        assert done.stderr.strip() == f"sheepfold tournament: {path} is not a regular file"


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_config_that_is_not_toml_is_named_once(command: str, tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("x = [\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", command, str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"sheepfold tournament: {config} is not valid TOML: "), line
    assert line.count(str(config)) == 1, line
