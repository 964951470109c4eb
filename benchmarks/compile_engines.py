"""A copy of this checkout with the four games' engines and codecs compiled by
mypyc, to measure what compiling them would gain. Not part of install or test:
nothing is built in this tree, and nothing here changes how Sheepfold runs.

    python -m benchmarks.compile_engines /tmp/sheepfold-compiled
    python -m benchmarks --only server,baseline --levels 10,100 \\
        --events-in-decisions --repeat 3 --before /tmp/sheepfold-compiled
    cd /tmp/sheepfold-compiled && python -m benchmarks.decision_steps --game sheep-n-sheep

The copy is the committed tree (`git archive HEAD`) with
`benchmarks/mypyc_engines.patch` applied: mypyc takes one base class per
class, so the engines' mixins become traits (`mypy_extensions.trait`), and a
compiled class cannot be made with `object.__new__`, so each state's
`__init__` gives a blank state when no seed is passed. The `--before` row of
the first command is then the compiled server. Needs mypyc (it comes with
mypy, a dev dependency), a C compiler and the Python headers; takes about
three minutes of CPU. docs/performance.md ("Compiling the engines with mypyc")
has the figures.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATCH = ROOT / "benchmarks" / "mypyc_engines.patch"
GAMES = ("sheep_n_sheep", "sheep_showdown", "stubborn_sheep", "sheep_and_garden")
# Left interpreted: the bots and text views are off the server's path, the
# Game classes run once a match, and compiled actions would refuse a field of
# the wrong type when built (TypeError) where the engines' contract says apply()
# refuses it (IllegalAction).
INTERPRETED = ("__init__.py", "ai.py", "analysis.py", "render.py", "game.py", "actions.py")


def modules(tree: Path) -> list[str]:
    """The engine and codec modules of every game, as paths relative to `tree`."""
    return [
        str(path.relative_to(tree))
        for game in GAMES
        for path in sorted((tree / "games" / game).glob("*.py"))
        if path.name not in INTERPRETED
    ]


def missing_tools() -> list[str]:
    """What the build needs and this machine lacks, each with how to get it."""
    missing = []
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        missing.append("a C compiler (apt-get install gcc)")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        missing.append("the Python headers (apt-get install python3-dev)")
    if shutil.which("mypyc", path=str(Path(sys.executable).parent)) is None:
        missing.append("mypyc (pip install mypy)")
    return missing


def copy_tree(dest: Path) -> None:
    """The committed tree at `dest` with the patch applied."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    subprocess.run(["git", "apply", str(PATCH)], cwd=dest, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Build a copy of this checkout with the games' engines compiled by mypyc."
    )
    parser.add_argument("dest", type=Path, help="a new or empty directory for the copy")
    args = parser.parse_args(argv)
    dest: Path = args.dest
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        parser.error(f"{dest} exists and is not an empty directory")
    missing = missing_tools()
    if missing:
        parser.error("missing " + "; ".join(missing))
    dest.mkdir(parents=True, exist_ok=True)
    copy_tree(dest)
    mypyc = Path(sys.executable).parent / "mypyc"
    build = subprocess.run([str(mypyc), *modules(dest)], cwd=dest, capture_output=True, text=True)
    if build.returncode != 0:
        print(build.stdout[-4000:], build.stderr[-4000:], sep="\n", file=sys.stderr)
        print(f"mypyc failed (exit {build.returncode}); the copy is at {dest}", file=sys.stderr)
        return 1
    print(f"compiled {len(modules(dest))} modules in {dest}; compare with")
    print(f"  python -m benchmarks --only server,baseline --events-in-decisions --before {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
