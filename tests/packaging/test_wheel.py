"""What the Dockerfile installs (`pip install .`) carries everything the server
needs: the wheel is built and then run from outside the source tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        cwd=out,
    )
    (found,) = out.glob("sheepfold-*.whl")
    return found


def test_wheel_holds_every_data_file_and_generated_module(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(
        ["git", "ls-files", "games", "proto/sheepfold"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for path in tracked:
        if path.endswith((".toml", ".json", "_pb2.py", "_pb2_grpc.py")):
            installed = path.removeprefix("proto/")
            assert installed in names, f"{path} is missing from the wheel"
    assert not any(name.startswith(("tests/", "clients/node/")) for name in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "sheepfold = cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_code_plays_a_match_outside_the_source_tree(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "match",
            "--game",
            "stubborn-sheep",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--seed",
            "2",
            "--json",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"scores"' in done.stdout


def test_the_mit_license_ships_with_the_source_and_the_wheel(wheel: Path) -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    with zipfile.ZipFile(wheel) as archive:
        shipped = [name for name in archive.namelist() if name.endswith("/LICENSE")]
        assert shipped, "the wheel carries LICENSE in its .dist-info"
        assert archive.read(shipped[0]).decode() == text
