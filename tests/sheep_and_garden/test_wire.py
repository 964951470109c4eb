"""The codec: every observation, action and event of random games converts to
protobuf and round-trips through SerializeToString."""

from __future__ import annotations

import pytest
from sheepfold.v1 import arena_pb2
from sheepfold.v1 import sheep_and_garden_pb2 as pb

from games.sheep_and_garden import GAME
from games.sheep_and_garden.data import TILES
from games.sheep_and_garden.wire import action_from_proto


def _round_trip(message):
    again = type(message)()
    again.ParseFromString(message.SerializeToString())
    assert again == message
    return again


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_game_round_trips(players: int) -> None:
    codec = GAME.codec
    assert codec.field == "sheep_and_garden"
    state = GAME.new_state(players, 100 + players)
    for event in state.setup_events:
        _round_trip(codec.event_to_proto(event.payload))
    while state.to_move is not None:
        for viewer in (None, state.to_move):
            obs = codec.observation_to_proto(state.observation(viewer))
            again = _round_trip(obs)
            assert [p.tile for p in again.placed] == [p.tile for p in state.placed]
            assert list(again.display) == list(state.display)
            wrapped = arena_pb2.Observation(sheep_and_garden=obs)
            assert wrapped.WhichOneof("game") == "sheep_and_garden"
        for action in state.legal_actions():
            message = _round_trip(codec.action_to_proto(action))
            assert action_from_proto(message) == action
        action = state.legal_actions()[len(state.legal_actions()) // 2]
        for event in state.apply(action):
            message = _round_trip(codec.event_to_proto(event.payload))
            assert message.text == event.payload.text
            assert message.WhichOneof("kind") is not None
    final = codec.observation_to_proto(state.observation(None))
    assert final.finished and not final.HasField("to_move")


def test_tile_faces_on_the_wire_match_the_data() -> None:
    """The faces in an observation carry the tile's segments, areas, roads and lands."""
    state = GAME.new_state(2, 3)
    message = GAME.codec.observation_to_proto(state.observation(0))
    for face in message.faces:
        tile = TILES[face.tile]
        assert face.segments == tile.segments
        assert [tuple(a.segments) for a in face.areas] == [a.segments for a in tile.areas]
        assert [(a.sheep, a.cows, a.humans, a.trees, a.houses, a.fish) for a in face.areas] == [
            a.objects for a in tile.areas
        ]
        assert [tuple(r.segments) for r in face.roads] == [r.segments for r in tile.roads]
        assert [tuple(g.areas) for g in face.lands] == list(tile.lands)


def test_negative_coordinates_survive() -> None:
    action = pb.SheepAndGardenAction(tile=3, x=-4, y=-7, rotation=3)
    assert action_from_proto(_round_trip(action)) == (3, -4, -7, 3)
