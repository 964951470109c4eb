"""What the Dockerfile installs (`pip install .`) carries everything the server
needs: the wheel is built and then run from outside the source tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_wheel(ROOT, tmp_path_factory.mktemp("wheel"))


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
    assert "sheepfold = cli.entry:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


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


def _docker_context(dockerfile: Path, into: Path) -> Path:
    """What `docker build` hands `pip install .`: the files the Dockerfile's
    COPY lines bring into its WORKDIR, and nothing else of the tree."""
    text = dockerfile.read_text(encoding="utf-8").replace("\\\n", " ")
    context = into / "src"
    context.mkdir()
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].upper() != "COPY" or any(w.startswith("--") for w in words):
            continue
        *sources, target = words[1:]
        for source in sources:
            found = ROOT / source
            if target in ("./", "."):
                destination = context / found.name
            else:
                destination = context / target.removeprefix("./")
            if found.is_dir():
                shutil.copytree(found, destination, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(found, destination)
    return context


def _build_wheel(source: Path, out: Path) -> Path:
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
            str(source),
        ],
        check=True,
        capture_output=True,
        cwd=out,
    )
    (found,) = out.glob("sheepfold-*.whl")
    return found


def _installed(wheel: Path) -> set[str]:
    """The modules and data files a wheel installs (its metadata left out)."""
    return {n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n}


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "deploy/kuberay/Dockerfile"])
def test_each_image_installs_every_module_the_commands_import(
    dockerfile: str, wheel: Path, tmp_path: Path
) -> None:
    """Both Dockerfiles copied the packages one by one and left out web/: in the
    image every `sheepfold` command (serve, the HEALTHCHECK's health, the
    KubeRay driver's tournament run) stopped on "No module named 'web'"."""
    context = _docker_context(ROOT / dockerfile, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    image = _build_wheel(context, out)
    missing = sorted(_installed(wheel) - _installed(image))
    assert not missing, f"{dockerfile} leaves out what the package holds: {missing[:5]}"


def test_the_image_install_answers_sheepfold_health(wheel: Path, tmp_path: Path) -> None:
    """The image's HEALTHCHECK, `sheepfold health`, from what the Dockerfile
    installs alone (this checkout hidden): one line and exit 1 for a port where
    nothing listens, not a traceback."""
    context = _docker_context(ROOT / "Dockerfile", tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    site = tmp_path / "site"
    zipfile.ZipFile(_build_wheel(context, out)).extractall(site)
    # The development install finds this checkout's packages through a finder
    # of its own: hide it and the checkout, so only the image's files are found.
    hide = (
        "import sys; "
        "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
        f"sys.path[:] = [p for p in sys.path if p and p != {str(ROOT)!r}]; "
        "from cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide, "health", "--addr", "127.0.0.1:1", "--timeout", "5"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == "sheepfold health: 127.0.0.1:1: UNAVAILABLE: connection refused"


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "deploy/kuberay/Dockerfile"])
def test_each_image_carries_the_license(dockerfile: str, tmp_path: Path) -> None:
    """The MIT license asks that its notice go with every copy: the images
    installed from COPY lines that left LICENSE out, so what they installed had
    none (the wheel built from the checkout has it in its .dist-info)."""
    context = _docker_context(ROOT / dockerfile, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    with zipfile.ZipFile(_build_wheel(context, out)) as archive:
        shipped = [name for name in archive.namelist() if name.endswith("/LICENSE")]
        assert shipped, f"{dockerfile} installs sheepfold without its LICENSE"
        assert archive.read(shipped[0]).decode() == (ROOT / "LICENSE").read_text(encoding="utf-8")
