"""The prose that tells bot authors what to retry before a join is answered
names every code the bundled bots retry there (clients/sdk.py), and asks it of
each stream, not of the seat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clients.sdk import RETRYABLE, RETRYABLE_BEFORE_JOINED

ROOT = Path(__file__).resolve().parents[2]


def _passage(path: str, opening: str) -> str:
    """The paragraph or list item of `path` that holds `opening`, on one line."""
    text = (ROOT / path).read_text()
    start = text.index(opening)
    start = max(text.rfind("\n\n", 0, start), text.rfind("\n- ", 0, start)) + 1
    end = min(i for i in (text.find("\n\n", start), text.find("\n- ", start + 2)) if i >= 0)
    return " ".join(text[start:end].split())


@pytest.mark.parametrize(
    ("path", "opening"),
    [
        ("clients/node/README.md", "before the server"),
        ("docs/writing-a-bot.md", "`clients/sdk.py` does the protocol"),
        ("docs/writing-a-bot.md", "never on `ABORTED`"),
    ],
)
def test_the_pre_join_retries_are_told_whole_and_per_stream(path: str, opening: str) -> None:
    passage = _passage(path, opening)
    named = set(re.findall(r"`([A-Z_]+)`", passage))
    missing = {code.name for code in RETRYABLE_BEFORE_JOINED - RETRYABLE} - named
    assert not missing, f"{path}: {passage!r} leaves out {sorted(missing)}"
    assert "ever answered" not in passage, f"{path}: the rule is per stream: {passage!r}"
