"""`make test` compiles every module to bytecode before the suite (see the
Makefile's note): a module that does not compile stops it there, and its
SyntaxError must be said, not only make's "Error 1"."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def _compile_line() -> str:
    """The test target's compile step as a shell command, $(BIN)/python and
    $(PY_SOURCES) left to be filled in."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (line,) = re.findall(r"^\t@(\$\(BIN\)/python -m compileall .*)$", makefile, re.M)
    return line


def test_the_compile_step_says_which_module_does_not_compile(tmp_path: Path) -> None:
    (tmp_path / "fine.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_text("x = (\n")
    command = (
        _compile_line()
        .replace("$(BIN)/python", sys.executable)
        .replace("$(PY_SOURCES)", str(tmp_path))
    )
    done = subprocess.run(
        command, shell=True, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "broken.py" in said and "SyntaxError" in said, said
    assert "fine.py" not in said, said  # -q: only what failed
