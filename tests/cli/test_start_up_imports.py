"""A command's parser is built without what runs the other commands: every
`sheepfold` start (`--help` included) builds all of them, and importing the
server, the tournament runner and the report there more than doubled it (0.30 s, not 0.13 s)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

# Loaded only by the command that needs them (each was part of every start).
HEAVY = (
    "aiohttp",
    "clients.matchplay",
    "importlib.metadata",
    "prometheus_client",
    "server.app",
    "server.match",
    "server.sqlite_store",
    "tournament.demo",
    "tournament.report",
    "tournament.runner",
    "tournament.store",
)

SCRIPT = """
import contextlib, io, sys
from cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print("\\n".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize(
    "argv", [["--help"], ["serve", "--help"], ["tournament", "--help"], ["db", "info", "x"]]
)
def test_a_parse_imports_no_command_s_machinery(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = set(done.stdout.split())
    assert "cli.serve" in loaded  # the script did build the parser
    assert sorted(loaded.intersection(HEAVY)) == []
