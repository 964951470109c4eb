"""The viewer's protobuf-to-JSON conversion gives exactly what the protobuf
library's MessageToDict gives, for every message a page receives."""

from __future__ import annotations

import json
import random

import pytest
from google.protobuf import json_format
from sheepfold.v1 import arena_pb2

import games
from games.solo_title import solo_title
from server import convert
from web.frames import result_dict, to_dict
from web.showcase import GAMES


def reference(message: object) -> dict:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_observations_events_and_actions_convert_like_message_to_dict(game: str) -> None:
    engine = games.get(game)
    players = GAMES[game][0]
    rng = random.Random(5)
    state = engine.new_state(players, 5, {})
    compared = 0
    move = 0
    while not state.terminal:
        move += 1
        for seat in (None, *range(players)) if move % 5 == 1 else ():
            message = convert.observation(engine.codec, state.observation(seat))
            inner = getattr(message, message.WhichOneof("game"))
            assert to_dict(inner) == reference(inner)
            compared += 1
        actions = state.legal_actions()
        for legal in convert.legal_actions(engine.codec, actions[:3]):
            assert to_dict(legal) == reference(legal)
        for event in state.apply(actions[rng.randrange(len(actions))]):
            message = convert.event(engine.codec, 1, event.payload)
            assert to_dict(message) == reference(message)
    assert compared > players


def test_match_info_with_maps_longs_and_optionals() -> None:
    info = arena_pb2.MatchInfo(
        match_id="m", game="sheep-showdown", players=2, options={"rounds": "3"}, moves=7,
        seed=2**63 + 5, created_at=1.5, result=arena_pb2.MatchResult(scores=[1.0, 2.5]),
    )  # fmt: skip
    assert to_dict(info) == reference(info)
    info.to_move = 0
    assert to_dict(info) == reference(info)


def test_a_solo_result_carries_its_rulebook_title_and_no_other_does() -> None:
    """Stubborn Sheep's solo rating and Sheep & Garden's solo praise were in the
    result's details alone: the viewer now hands them on as `solo_title`."""
    stubborn = {"players": [{"seat": 0, "points": 4, "rating": "Woolly disaster"}]}
    result = arena_pb2.MatchResult(scores=[4.0], ranks=[1], details_json=json.dumps(stubborn))
    assert result_dict(result)["solo_title"] == "Woolly disaster"
    assert solo_title({"praise": "Good", "difference": 31}) == "Good"
    assert solo_title({"praise": "none", "difference": 3}) == "no praise"
    pair = {"players": [{"seat": 0, "points": 4}, {"seat": 1, "points": 2}]}
    two = arena_pb2.MatchResult(scores=[4.0, 2.0], ranks=[1, 2], details_json=json.dumps(pair))
    assert "solo_title" not in result_dict(two)
    assert solo_title([]) == solo_title({"praise": 3}) == ""
