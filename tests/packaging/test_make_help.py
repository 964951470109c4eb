"""`make help` is where a newcomer looks first: it lists every target of the
Makefile, each with its line, in one column that can be read down."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import ROOT


def _targets() -> list[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (phony,) = re.findall(r"^\.PHONY:(.*)$", makefile, re.M)
    return phony.split()


def _help_lines() -> list[str]:
    done = subprocess.run(
        ["make", "--no-print-directory", "-s", "help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.splitlines()


def test_make_help_lists_every_target_with_a_description() -> None:
    listed = {line.split()[0]: line.split(None, 1)[1:] for line in _help_lines()}
    assert set(listed) == set(_targets())
    assert all(description for description in listed.values())


def test_make_help_starts_every_description_in_one_column() -> None:
    """Names longer than the column (`test-sandbox`, `test-browser`) pushed
    their descriptions one space past it."""
    lines = _help_lines()
    columns = {len(line) - len(line.lstrip().split(None, 1)[1]) for line in lines}
    assert len(lines) >= 10 and len(columns) == 1, lines
