"""A command's parser is built without what runs the other commands: every
`sheepfold` start (`--help` included) builds all of them, and importing the
server, the tournament runner and the report there more than doubled it (0.30 s, not 0.13 s).
Nor with gRPC, protobuf, asyncio or structlog, which flag checks once loaded
for a constant or a small function."""

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
# Loaded by no parse either: the flag checks and help texts that pulled them
# in take a constant or a small pure function from a module of its own.
SHARED = (
    "asyncio",
    "clients.connect",  # cli.addresses: clients.address_check
    "clients.launch.process",  # cli.values, tournament.config: clients.bot_limits
    "clients.sdk",  # cli.bot: clients.rejoin
    "google.protobuf",
    "grpc",
    "server.records",  # cli.values, server.settings: server.clock_limits
    "server.retention",  # server.settings: server.retention_policy
    "server.seats",  # cli.serve, server.settings: server.client_limits
    "sheepfold.v1.arena_pb2",
    "ssl",  # cli.client_tls, cli.web (server.listening)
    "structlog",
    "web.hosts",  # cli.viewer: web.host_names
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
    "argv",
    [
        ["--help"],
        ["serve", "--help"],
        ["tournament", "--help"],
        ["tournament", "run", "--help"],
        ["db", "info", "x"],
    ],
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
    assert sorted(loaded.intersection(SHARED)) == []
