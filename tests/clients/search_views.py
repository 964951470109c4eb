"""What a search bot is handed for a decision of a local game state."""

from __future__ import annotations

from sheepfold.v1 import arena_pb2

import games
from clients.sdk import DecisionView
from games.contract import State
from server import convert


def decision_view(game_name: str, state: State) -> DecisionView:
    """The DecisionView the server would send the seat to move in `state`."""
    game = games.get(game_name)
    seat = state.to_move
    assert seat is not None
    return DecisionView(
        decision_id=1,
        seat=seat,
        game=game_name,
        prompt=state.prompt(),
        observation=game.codec.observation_to_proto(state.observation(seat)),
        actions=convert.legal_actions(game.codec, state.legal_actions()),
        clock=arena_pb2.Clock(),
    )
