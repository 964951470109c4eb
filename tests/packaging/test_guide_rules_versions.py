"""Each game's guide names the rules version its engine declares: a rules change
bumps the engine's `rules_version`, and a guide left on the old number tells a
bot author the wrong rules (Stubborn Sheep's said 8 after version 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games

GUIDES = Path(__file__).resolve().parents[2] / "docs" / "games"


@pytest.mark.parametrize("name", games.names())
def test_the_guide_states_the_engines_rules_version(name: str) -> None:
    text = (GUIDES / f"{name}.md").read_text(encoding="utf-8")
    head = " ".join(text.split("\n\n")[1].split())  # the paragraph under the title
    stated = re.findall(r"rules version (\d+)", head)
    assert stated == [str(games.get(name).rules_version)], (name, head)
    declared = re.findall(r"declares `rules_version` (\d+)", text)
    assert declared in ([], stated), (name, declared)
