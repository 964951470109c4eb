"""A finished match's frames in the viewer's "public" and "seat-N" views hold
what that viewer saw and nothing more: each frame's observation is the engine's
`observation(None)` (public) or `observation(N)`, and its events are the ones
`Event.visible_to` gives that viewer, a seat's private event marked as its own.
Checked against an engine replay of random games with private events (a drawn
fence card, a stolen sheep card, an extra card drawn)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2

import games
from server import convert
from web.frames import ALL, PUBLIC, observation_dict, replay_frames

CASES = [
    ("sheep-n-sheep", 3, {}),
    ("sheep-showdown", 6, {"rounds": "2"}),
    ("stubborn-sheep", 3, {}),
    ("sheep-and-garden", 2, {}),
]


def _random_replay(game: str, players: int, options: dict[str, str], seed: int) -> arena_pb2.Replay:
    engine = games.get(game)
    state = engine.new_state(players, seed, options)
    replay = arena_pb2.Replay(match_id="m", game=game, players=players, options=options, seed=seed)
    rng = random.Random(seed)
    move = 0
    while not state.terminal:
        move += 1
        actions = state.legal_actions()
        index = rng.randrange(len(actions))
        replay.actions.add(move=move, seat=state.to_move, action_index=index)
        state.apply(actions[index])
    return replay


def _expected(replay: arena_pb2.Replay, viewer: int | None) -> tuple[list[Any], list[Any], int]:
    """(observations, events) of each frame as `viewer` may see them, and how
    many private events the viewer was not shown in full."""
    engine = games.get(replay.game)
    codec = engine.codec
    state = engine.new_state(replay.players, replay.seed, dict(replay.options))

    def seen() -> dict[str, Any]:
        return observation_dict(convert.observation(codec, state.observation(viewer)))

    observations, events, withheld = [seen()], [[]], 0
    for recorded in replay.actions:
        shown = []
        for event in state.apply(state.legal_actions()[recorded.action_index]):
            mine = event.seat is not None and event.seat == viewer
            if event.seat is None or mine:
                shown.append({"text": event.payload.text, "to": event.seat})
                continue
            withheld += 1
            if event.redacted is not None:
                shown.append({"text": event.redacted.text, "to": None})
        observations.append(seen())
        events.append(shown)
    return observations, events, withheld


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[c[0] for c in CASES])
def test_public_and_seat_views_hold_only_what_their_viewer_saw(
    game: str, players: int, options: dict[str, str]
) -> None:
    replay = _random_replay(game, players, options, seed=4)
    withheld_in_all = 0
    for view, viewer in [(PUBLIC, None), *((seat, seat) for seat in range(players))]:
        frames = replay_frames(replay, view).frames
        observations, events, withheld = _expected(replay, viewer)
        withheld_in_all += withheld
        assert [frame["observation"] for frame in frames] == observations, f"view {view}"
        assert [frame["events"] for frame in frames] == events, f"view {view}"
        assert all("seats" not in frame for frame in frames), f"view {view}"
    if game != "sheep-and-garden":  # its hidden cards are objectives, never events
        assert withheld_in_all > 0, "the games played had private events to hold back"


def test_the_all_view_shows_every_seat() -> None:
    """The one view that shows every hand, as the others are checked not to."""
    replay = _random_replay("stubborn-sheep", 3, {}, seed=4)
    frames = replay_frames(replay, ALL).frames
    for seat in range(3):
        observations, _events, _withheld = _expected(replay, seat)
        assert [frame["seats"][seat] for frame in frames] == observations
