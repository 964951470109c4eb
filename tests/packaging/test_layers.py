"""Imports go only downwards: sheepfold (generated) < games < server, clients
< tournament < web, cli < benchmarks, examples. Packages on one layer do not
import each other, save for the pairs in SIDEWAYS; and no game's package
imports another game's, since what the games share lives in games/ itself."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS: dict[str, int] = {
    "sheepfold": 0,
    "games": 1,
    "server": 2,
    "clients": 2,
    "tournament": 3,
    "web": 4,
    "cli": 4,
    "benchmarks": 5,
    "examples": 5,
}
FOLDERS = {name: ROOT / name for name in LAYERS} | {"sheepfold": ROOT / "proto" / "sheepfold"}
# The command line is the entry point that serves the web viewer.
SIDEWAYS = {("cli", "web")}
GAMES = sorted(path.parent.name for path in (ROOT / "games").glob("*/__init__.py"))


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for each absolute import in `path`, those inside functions too."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def _sources(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*.py")):
        if "node_modules" not in path.parts:
            yield path


def _upward(package: str, path: Path) -> list[str]:
    """The imports in `path`, a file of `package`, that go up or sideways."""
    wrong = []
    for line, module in _imports(path):
        target = module.partition(".")[0]
        if target == package or target not in LAYERS:
            continue
        if LAYERS[target] < LAYERS[package] or (package, target) in SIDEWAYS:
            continue
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        wrong.append(f"{shown}:{line} imports {module}")
    return wrong


def test_every_package_has_a_layer() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        found = tomllib.load(handle)["tool"]["setuptools"]["packages"]["find"]["include"]
    assert {pattern.removesuffix("*") for pattern in found} <= set(LAYERS)
    assert all(folder.is_dir() for folder in FOLDERS.values())
    assert len(GAMES) == 4


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_go_only_downwards(package: str) -> None:
    found = [wrong for path in _sources(FOLDERS[package]) for wrong in _upward(package, path)]
    assert found == []


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game: str) -> None:
    others = {f"games.{other}" for other in GAMES if other != game}
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _sources(ROOT / "games" / game)
        for line, module in _imports(path)
        if any(module == other or module.startswith(f"{other}.") for other in others)
    ]
    assert found == []


@pytest.mark.parametrize(
    ("package", "source", "wrong"),
    [
        ("games", "def f() -> None:\n    from server import app\n", ["m.py:2 imports server"]),
        ("server", "import clients.sdk\n", ["m.py:1 imports clients.sdk"]),
        ("web", "import cli.main\n", ["m.py:1 imports cli.main"]),
        ("cli", "import web.app\nimport games\n", []),
    ],
)
def test_the_check_tells_up_from_down(
    tmp_path: Path, package: str, source: str, wrong: list[str]
) -> None:
    (tmp_path / "m.py").write_text(source)
    assert _upward(package, tmp_path / "m.py") == wrong


def test_the_readme_draws_every_layer() -> None:
    """The README's picture of the folders names every layer this test checks:
    a reader learns the layering there (the web viewer's folder was once missing)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("How it fits together")
    picture = readme[start : readme.index("```\n\n", readme.index("```", start) + 3)]
    drawn = {word.rstrip("/").split("/")[0] for word in picture.split() if word.endswith("/")}
    folders = {("proto" if name == "sheepfold" else name) for name in LAYERS}
    assert folders - drawn == set()
