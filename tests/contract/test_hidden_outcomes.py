"""What a seat is told of another seat's move depends only on what it may see.

tests/contract/test_hidden_choices.py checks what the deciding seat is asked;
the games' own hidden-information tests check that a private event's card goes
to its seat alone. This one checks what every other seat, and a spectator,
learns from a move: at each move of random games, whatever neither the viewer
nor the mover may see is dealt again (the other hands or flocks, the removed
fences, face-down objectives; the piles are left as they are, so a card drawn
into view is the same card), the same action is applied to both, and the
viewer's events (as sent), its observation after the move and the seat to
move next must not change. An engine whose public event, or the redacted copy
of a private one, named a third seat's card (a steal's card, say), or whose
turn order followed one, would fail here.

A round's or the game's end is left out: its scoring shows the cards then.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games.contract import Event
from games.sheep_showdown.events import CardStolen
from tests.contract.test_hidden_choices import DEALS

CASES = [
    ("sheep-n-sheep", 4, {}),
    ("sheep-showdown", 6, {"rounds": 2}),
    ("sheep-showdown", 2, {"double_trouble": True, "rounds": 2}),
    ("stubborn-sheep", 5, {"wolf": True, "bonus_actions": True}),
    ("sheep-and-garden", 4, {}),
]
# Events that score the flocks or hands: they show what was hidden.
ENDS = {"RoundEnded", "GameEnded", "GameOver"}


def _told(codec: Any, events: list[Event], state: Any, viewer: int | None) -> tuple[Any, ...]:
    sent = [
        codec.event_to_proto(payload).SerializeToString()
        for payload in (event.visible_to(viewer) for event in events)
        if payload is not None
    ]
    return (sent, codec.observation_bytes(state.observation(viewer)), state.to_move)


def _differences(name: str, players: int, options: dict[str, object], seeds: int) -> list[str]:
    """Where a viewer was told something that depends on another seat's secret."""
    game = games.get(name)
    codec, deal = game.codec, DEALS[name]
    found: list[str] = []
    checked = 0
    for seed in range(seeds):
        state = game.new_state(players, seed, options)
        rng = random.Random(seed)
        move = 0
        while not state.terminal:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            mover = state.to_move
            real = state.clone()
            events = real.apply(action)
            if not real.terminal and not any(type(e.payload).__name__ in ENDS for e in events):
                for viewer in [None, *range(players)]:
                    if viewer == mover:
                        continue
                    seen = frozenset({mover} if viewer is None else {mover, viewer})
                    twin = deal(state, seen, rng, False)
                    twin_events = twin.apply(action)
                    checked += 1
                    if _told(codec, events, real, viewer) != _told(
                        codec, twin_events, twin, viewer
                    ):
                        found.append(f"seed {seed} move {move} viewer {viewer}: {action.label}")
            state.apply(action)
            move += 1
    assert checked > 100
    return found


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_move_tells_no_seat_what_a_third_seat_holds(
    name: str, players: int, options: dict[str, object]
) -> None:
    assert _differences(name, players, options, seeds=2) == []


def test_the_check_catches_a_steal_told_to_everybody(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a steal whose card every seat is told is found."""
    original = Event.visible_to

    def leaky(self: Event, viewer: int | None) -> Any:
        if isinstance(self.payload, CardStolen):
            return self.payload
        return original(self, viewer)

    monkeypatch.setattr(Event, "visible_to", leaky)
    assert _differences("sheep-showdown", 6, {"rounds": 2}, seeds=2)
