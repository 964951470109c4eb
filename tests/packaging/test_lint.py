"""What `make lint` checks holds on every commit the suite runs on: ruff finds
nothing and every layer type-checks clean (mypy's settings are in pyproject)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT

BIN = Path(sys.executable).parent


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff_finds_nothing(args: list[str]) -> None:
    done = _run([str(BIN / "ruff"), *args, "--no-cache"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    done = _run([str(BIN / "mypy"), "--cache-dir", str(tmp_path / "mypy")])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_mypy_checks_every_package_and_every_def() -> None:
    """Each hand-written package is type-checked, and a def without types fails."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        config = tomllib.load(handle)
    included = config["tool"]["setuptools"]["packages"]["find"]["include"]
    handwritten = {pattern.removesuffix("*") for pattern in included} - {"sheepfold"}
    mypy = config["tool"]["mypy"]
    assert handwritten | {"examples"} <= set(mypy["files"])
    assert mypy["disallow_untyped_defs"] is True
    assert mypy["disallow_incomplete_defs"] is True
