"""The Node.js bot's package, checked from Python.

The Node bot's own behaviour is tested by `node --test` in `clients/node`
(`clients/node/run-tests.sh`, which `make test` runs as a separate step when
`node` and `npm` exist and announces as NOT RUN when they do not). Running it
from here instead would leave two dishonest choices on a machine without Node:
pass without testing anything, or fail a suite the issue says must pass there.

What this file checks needs no Node at all and can fail on its own: the
dependencies are pinned and locked so `npm ci` is reproducible, the bot reads
the contract from `proto/` (no private copy), and the Node test's list of games
and short-match options matches the games this server registers.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from sheepfold.message_size import DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES

import games
from tests.conftest import ROOT

NODE = ROOT / "clients" / "node"
REQUIRED = {"@grpc/grpc-js", "@grpc/proto-loader"}
EXACT_VERSION = re.compile(r"^\d+\.\d+\.\d+$")


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_dependencies_are_exactly_pinned() -> None:
    package = _json(NODE / "package.json")
    dependencies: dict[str, str] = package["dependencies"]
    assert set(dependencies) == REQUIRED, "the bot uses grpc-js and proto-loader, nothing else"
    assert not package.get("devDependencies"), "the tests use node:test and node:assert only"
    loose = {name: v for name, v in dependencies.items() if not EXACT_VERSION.match(v)}
    assert not loose, f"pin exact versions (no ranges, tags or URLs): {loose}"


def test_lock_file_matches_package_json() -> None:
    """`npm ci` installs exactly the lock file; it must agree with package.json."""
    package = _json(NODE / "package.json")
    lock = _json(NODE / "package-lock.json")
    assert lock["lockfileVersion"] >= 2
    assert lock["packages"][""]["dependencies"] == package["dependencies"]
    for name, version in package["dependencies"].items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
    for path, entry in lock["packages"].items():
        if not path:
            continue
        assert entry.get("integrity", "").startswith("sha512-"), f"{path} has no integrity hash"
        # npm leaves out `resolved` for the default registry; anything else must be a registry URL.
        resolved = entry.get("resolved", "https://")
        assert resolved.startswith("https://"), f"{path} comes from {resolved}"


def test_node_modules_is_not_committed() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "clients/node/node_modules/x.js"], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0, "clients/node/node_modules/ must be git-ignored"


def test_the_bot_reads_the_contract_from_proto() -> None:
    """The bot loads `sheepfold/v1/arena.proto` from the repository's proto/ and carries no
    copy of the contract of its own (no .proto files, no generated code)."""
    source = (NODE / "src" / "proto.js").read_text(encoding="utf-8")
    relative = re.search(r"new URL\('([./]+proto)', import\.meta\.url\)", source)
    assert relative, "src/proto.js must locate proto/ relative to itself"
    proto_dir = (NODE / "src" / relative.group(1)).resolve()
    assert proto_dir == (ROOT / "proto").resolve()
    entry = re.search(r"ARENA_PROTO = '([^']+)'", source)
    assert entry and (proto_dir / entry.group(1)).is_file()
    own = [
        p
        for p in NODE.rglob("*")
        if "node_modules" not in p.parts and (p.suffix == ".proto" or "_pb" in p.name)
    ]
    assert not own, f"clients/node must not vendor the contract: {own}"


def test_node_test_covers_every_registered_game_with_valid_options() -> None:
    """`test/matches.json` is what the Node test expects from ListGames; it must name every
    game this server registers, and its short-match options must be valid for that game."""
    matches: dict[str, dict[str, str]] = _json(NODE / "test" / "matches.json")["games"]
    assert set(matches) == set(games.names())
    for name, options in matches.items():
        game = games.get(name)
        players = min(max(2, game.min_players), game.max_players)
        state = game.new_state(players, 0, options)  # raises InvalidOptions on a bad option
        assert not state.terminal, name


def test_runner_script_is_executable_and_runs_node_test() -> None:
    script = NODE / "run-tests.sh"
    assert os.access(script, os.X_OK), "clients/node/run-tests.sh must be executable"
    text = script.read_text(encoding="utf-8")
    assert "npm ci --no-audit --no-fund" in text
    assert re.search(r"^exec node --test\b", text, re.MULTILINE)
    assert sorted(p.name for p in (NODE / "test").glob("*.test.js")), "no Node test files"


def test_the_bot_takes_the_message_bounds_the_server_does() -> None:
    """Its default receive limit and its least are the server's (`serve
    --max-message-bytes`), written in JavaScript: Node cannot import Python's."""
    source = (NODE / "src" / "proto.js").read_text(encoding="utf-8")

    def constant(name: str) -> int:
        found = re.search(rf"^export const {name} = ([\d\s*_]+);$", source, re.MULTILINE)
        assert found, f"src/proto.js defines no {name}"
        value = 1
        for factor in found.group(1).split("*"):
            value *= int(factor.strip().replace("_", ""))
        return value

    assert constant("DEFAULT_MAX_MESSAGE_BYTES") == DEFAULT_MAX_MESSAGE_BYTES
    assert constant("MIN_MAX_MESSAGE_BYTES") == MIN_MAX_MESSAGE_BYTES
