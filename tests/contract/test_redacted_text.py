"""Every game: what other seats read of a private event (the redacted form's
text, which the server streams as EventMessage.text) names no hidden card.

Card faces, fence numbers and ids all carry digits; once the seat numbers are
masked, a redacted text must carry none, and it must differ from the full
text. The kinds of redacted text seen are few (they vary with public facts
only, such as "from the stock"), far fewer than the private events."""

from __future__ import annotations

import random
import re

import pytest

import games

PLAYERS = {"sheep-showdown": 3, "sheep-n-sheep": 3, "stubborn-sheep": 3, "sheep-and-garden": 3}


@pytest.mark.parametrize("name", games.names())
def test_redacted_event_text_depends_on_seats_only(name: str) -> None:
    game = games.get(name)
    texts: dict[str, set[str]] = {}
    private = 0
    for seed in range(30):
        state = game.new_state(PLAYERS[name], seed)
        rng = random.Random(seed)
        while not state.terminal:
            actions = state.legal_actions()
            for event in state.apply(actions[rng.randrange(len(actions))]):
                if event.seat is None:
                    continue
                private += 1
                if event.redacted is not None:
                    masked = re.sub(r"seat \d+", "seat N", event.redacted.text)
                    assert not re.search(r"[0-9#]", masked), event.redacted.text
                    assert event.redacted.text != event.payload.text
                    texts.setdefault(type(event.redacted).__name__, set()).add(masked)
    if name != "sheep-and-garden":  # its only hidden things are objectives, never evented
        assert private > 0, "random games should produce private events"
    for kind, variants in texts.items():
        assert len(variants) <= 3, f"{name} {kind}: redacted text varies: {sorted(variants)[:4]}"
