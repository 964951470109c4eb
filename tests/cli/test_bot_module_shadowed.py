"""A bot file named like a module Python finds first (`test.py`, `random.py`
beside the author's command line) was reported as "module 'test' has no
'Bot'", though the author's test.py has one: the message now names the file
that was imported and the author's file it hides."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from clients.bots import BotSpecError, load_bot
from tournament.botcheck import _class_problem

BOT = "class Bot:\n    def decide(self, decision):\n        return 0\n"


@pytest.fixture
def shadowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "test.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])  # last, as `sheepfold bot` adds it
    return tmp_path / "test.py"


def test_load_bot_says_which_file_hides_the_bots(shadowed: Path) -> None:
    with pytest.raises(BotSpecError) as raised:
        load_bot("test:Bot")
    message = str(raised.value)
    assert str(shadowed) in message, message
    assert "rename" in message, message


def test_a_tournament_config_says_which_file_hides_the_bots(shadowed: Path) -> None:
    error = _class_problem("test:Bot")
    assert error is not None
    assert str(shadowed) in str(error), str(error)


def test_a_missing_class_in_the_authors_own_module_says_only_that(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mine_only_here.py").write_text(BOT)
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path)])
    with pytest.raises(BotSpecError, match=r"^module 'mine_only_here' has no 'Nope'$"):
        load_bot("mine_only_here:Nope")
