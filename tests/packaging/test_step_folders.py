"""`make test`'s steps after the main suite (sandbox, protoc, Ray, browser)
collect only the folders the Makefile names for them, since collecting the
whole suite to pick a few tests took about 8 s a step. The main suite leaves
out every test so marked, so a marked test put in any other folder would be run
by no step at all: this finds such a test by reading the test files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

TESTS = ROOT / "tests"
# The Makefile variable that names a step's folders, and what marks its tests in
# a file: the marker itself, or (the sandbox) the fixture that adds it.
STEPS = {
    "SANDBOX_TESTS": re.compile(r"\bsandbox_ready\b|mark\.sandbox\b"),
    "PROTOC_TESTS": re.compile(r"mark\.protoc\b"),
    "NETNS_TESTS": re.compile(r"mark\.netns\b"),
    "BROWSER_TESTS": re.compile(r"mark\.browser\b"),
}
# Where the markers and the sandbox fixture are defined, not used.
DEFINITIONS = {TESTS / "conftest.py", Path(__file__).resolve()}


def step_folders(makefile: str, variable: str) -> list[Path]:
    (line,) = re.findall(rf"^{variable} := (.*)$", makefile, re.M)
    return [ROOT / folder for folder in line.split()]


def strays(folders: list[Path], marked: re.Pattern[str], tests: Path = TESTS) -> list[str]:
    """The test files under `tests` that mark a test so but lie outside `folders`."""
    return sorted(
        str(path.relative_to(tests))
        for path in tests.rglob("*.py")
        if path not in DEFINITIONS
        and not any(path.is_relative_to(folder) for folder in folders)
        and marked.search(path.read_text(encoding="utf-8"))
    )


@pytest.mark.parametrize("variable", list(STEPS))
def test_every_test_of_a_step_is_in_a_folder_the_step_collects(variable: str) -> None:
    folders = step_folders((ROOT / "Makefile").read_text(encoding="utf-8"), variable)
    assert folders and all(folder.is_dir() for folder in folders), folders
    found = strays(folders, STEPS[variable])
    assert not found, (
        f"{', '.join(found)} hold tests of the step whose folders are {variable} in the "
        "Makefile: no step runs them there; add the folder to it"
    )


def test_a_marked_test_outside_the_folders_is_found(tmp_path: Path) -> None:
    inside, outside = tmp_path / "web", tmp_path / "server"
    inside.mkdir()
    outside.mkdir()
    (inside / "test_page.py").write_text("pytestmark = pytest.mark.browser\n")
    (outside / "test_play.py").write_text("@pytest.mark.browser\ndef test_x(): ...\n")
    (outside / "test_other.py").write_text("def test_y(sandbox_ready): ...\n")
    assert strays([inside], STEPS["BROWSER_TESTS"], tmp_path) == ["server/test_play.py"]
    assert strays([inside], STEPS["SANDBOX_TESTS"], tmp_path) == ["server/test_other.py"]
