"""The repository stands on its own: no file in it sends a reader to the
authors' own working folders (the rulebook texts and rule notes the project
was built from are not shipped), so every pointer goes to docs/ instead."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("cli", "clients", "docs", "examples", "games", "server", "tests", "tournament", "web")
SUFFIXES = {".py", ".toml", ".md", ".txt", ".js", ".ts", ".html", ".css", ".proto", ".yaml"}
SKIP = {"node_modules", ".venv", "__pycache__"}
# Spelled in pieces so that this file does not match itself.
OUTSIDE = ("shared/" + "rules", "shared/" + "rulebooks", "/work" + "/")


def _text_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in SUFFIXES and path.is_file() and not SKIP & set(path.parts):
                files.append(path)
    return files


def test_no_file_points_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _text_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if any(outside in line for outside in OUTSIDE)
    ]
    assert found == []
