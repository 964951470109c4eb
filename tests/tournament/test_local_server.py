"""The server a tournament starts for itself takes matches from the runner only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.tournament.tournament_command import tournament_main

pytestmark = pytest.mark.e2e

MATCH_MAKER = Path(__file__).resolve().parent / "bots" / "match_maker.py"


def test_a_bot_cannot_create_matches_on_the_tournaments_own_server(tmp_path: Path) -> None:
    """Its server had no admin token: a sandbox attack's bot created 9,999 matches
    on it. It now has a random one that only the runner knows."""
    folder = tmp_path / "bot"
    folder.mkdir()
    shutil.copy(MATCH_MAKER, folder / "match_maker.py")
    example = ROOT / "examples" / "command-bot" / "command_bot.py"
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-showdown"\ngames_per_pairing = 1\nbootstrap = 0\n'
        "[options]\nrounds = 1\n"
        '[[bots]]\nname = "maker"\n'
        f'command = ["{{python}}", "match_maker.py", "{example}"]\n'
        f'cwd = "{folder}"\nsandbox = false\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    code = tournament_main(
        ["run", str(config), "--db", str(tmp_path / "cup.sqlite"), "--no-report"]
    )
    assert code == 0
    assert (folder / "create_status").read_text() == "UNAUTHENTICATED"
