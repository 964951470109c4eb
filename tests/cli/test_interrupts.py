"""Ctrl-C while `sheepfold` starts: one "interrupted" line and exit 130, never a
KeyboardInterrupt traceback (the command modules, gRPC and aiohttp among them,
once loaded before any handler, for about half a second)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

# The console script's own two lines, after a finder that is "interrupted" when
# gRPC is first imported: as a Ctrl-C that lands while the imports run.
INTERRUPTED_START = """
import sys


class Interrupted:
    def find_spec(self, name, path=None, target=None):
        if name == "grpc":
            raise KeyboardInterrupt
        return None


sys.meta_path.insert(0, Interrupted())
sys.argv = ["sheepfold", "db", "info", "--db", "nowhere.db"]
from cli.main import main

sys.exit(main())
"""


def test_ctrl_c_while_the_command_loads_exits_130_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_START],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 130
    assert done.stderr.strip() == "interrupted"
