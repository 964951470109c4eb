"""`sheepfold bot` entered as a command bot reads what the runner sets for it.

The bot guide says both bundled command-line bots read the variables a
tournament (or `match --bots cmd:...`) gives a command bot, so they can be
entered as they are. `bot` read SHEEPFOLD_SERVER, _MATCH and _TOKEN but not
SHEEPFOLD_SEED: every copy of it played every game seeded 0, whatever seed the
runner derived for that seat. Nor SHEEPFOLD_SEAT, so a bot that raised was
named "the bot in (mybot:Bot)" with no seat.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from server.launch import ServerProcess
from tests.cli.helpers import command, sheepfold
from tests.conftest import ROOT

pytestmark = pytest.mark.e2e

SEEDED = """
class Bot:
    def __init__(self, seed: int = 0) -> None:
        print(f"built with seed {seed}")  # `bot` sends it to stderr

    def decide(self, decision) -> int:
        return 0
"""

RAISES = """
class Bot:
    def decide(self, decision) -> int:
        raise RuntimeError("thought too hard")
"""


def _match(server: ServerProcess, *flags: str) -> dict[str, object]:
    created = sheepfold(
        "create", "--game", "sheep-n-sheep", "--players", "2", "--server", server.address,
        "--json", *flags, timeout=60,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    return json.loads(created.stdout)


def _other_seat(server: ServerProcess, match: dict[str, object], token: str) -> subprocess.Popen:
    args = command(
        "bot", "--server", server.address, "--match", str(match["match_id"]), "--token", token
    )
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _as_command_bot(
    folder: Path, server: ServerProcess, match: dict[str, object], seat: int, spec: str
) -> subprocess.CompletedProcess[str]:
    tokens = match["seat_tokens"]
    assert isinstance(tokens, list)
    env = {
        "SHEEPFOLD_SERVER": server.address,
        "SHEEPFOLD_MATCH": str(match["match_id"]),
        "SHEEPFOLD_TOKEN": tokens[seat],
        "SHEEPFOLD_SEAT": str(seat),
        "SHEEPFOLD_SEED": "4242",
        "PYTHONPATH": str(ROOT),
    }
    other = _other_seat(server, match, tokens[1 - seat])
    try:
        return sheepfold("bot", "--bot", spec, env=env, cwd=folder, timeout=120)
    finally:
        other.wait(timeout=120)


def test_bot_takes_its_seed_from_sheepfold_seed(tmp_path: Path, server: ServerProcess) -> None:
    (tmp_path / "seeded.py").write_text(SEEDED)
    done = _as_command_bot(tmp_path, server, _match(server), 1, "seeded:Bot")
    assert done.returncode == 0, done.stderr
    assert "built with seed 4242" in done.stderr.splitlines()


def test_bot_names_the_seat_from_sheepfold_seat(tmp_path: Path, server: ServerProcess) -> None:
    (tmp_path / "raiser.py").write_text(RAISES)
    # The seat left behind times out to the match's end: 1 s decisions, not the default 10 s.
    match = _match(server, "--decision-seconds", "1")
    done = _as_command_bot(tmp_path, server, match, 1, "raiser:Bot")
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == (
        "sheepfold bot: the bot in seat 1 (raiser:Bot) raised RuntimeError: thought too hard"
    )


@pytest.mark.parametrize("value", ["-1", str(2**63), "abc", "1.5"])
def test_a_seed_variable_out_of_range_is_a_usage_error(value: str) -> None:
    """As `--seed` is: a seed a command bot gets is 0 to 2**63 - 1 (the guide's table)."""
    done = sheepfold(
        "bot", "--server", "127.0.0.1:1", "--match", "m", "--token", "t",
        env={"SHEEPFOLD_SEED": value}, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].split(": error: ")[1].startswith("argument --seed:")


def test_an_empty_server_variable_counts_as_unset() -> None:
    """Every empty SHEEPFOLD_ variable counts as unset (a Compose file or
    `docker run -e SHEEPFOLD_SERVER` leaves one empty): `bot` says the server
    is missing, as it does for an empty SHEEPFOLD_MATCH, rather than that ''
    is not HOST:PORT."""
    done = sheepfold(
        "bot", "--match", "m", "--token", "t", env={"SHEEPFOLD_SERVER": ""}, timeout=30
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == ["sheepfold bot: missing --server (or the environment)"]
