"""The protobuf codec: every action, observation and event of random games converts
and round-trips through bytes."""

from __future__ import annotations

import random

import pytest
from sheepfold.v1 import arena_pb2
from sheepfold.v1 import stubborn_sheep_pb2 as pb

from games import get
from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import PlaceFence, Score, UseBonus
from games.stubborn_sheep.data import EFFECTIVE, FENCES, SHEEP_BONUS, SHEEP_COLOUR
from games.stubborn_sheep.events import IconJump
from games.stubborn_sheep.wire import StubbornSheepCodec
from tests.conftest import ROOT

CODEC = GAME.codec


def _roundtrip(message):
    clone = type(message)()
    clone.ParseFromString(message.SerializeToString())
    assert clone == message
    return clone


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_everything_of_random_games_converts_and_round_trips(players: int, seed: int) -> None:
    state = GAME.new_state(players, seed, {"wolf": seed == 2, "bonus_actions": True})
    rng = random.Random(seed)
    kinds: set[str] = set()
    while not state.terminal:
        legal = state.legal_actions()
        for action in legal:
            message = _roundtrip(CODEC.action_to_proto(action))
            kinds.add(message.WhichOneof("kind"))
            assert CODEC.action_from_proto(message) == action
        for seat in [None, *range(players)]:
            _roundtrip(CODEC.observation_to_proto(state.observation(seat)))
        for event in state.apply(legal[rng.randrange(len(legal))]):
            for viewer in [None, *range(players)]:
                payload = event.visible_to(viewer)
                if payload is not None:
                    _roundtrip(CODEC.event_to_proto(payload))
    _roundtrip(CODEC.observation_to_proto(state.observation(0)))
    assert {"turn_fence", "place_fence", "stop_scoring"} <= kinds or players == 1


def test_codec_is_registered_and_wraps_into_the_arena_oneofs() -> None:
    assert get("stubborn-sheep") is GAME
    assert isinstance(CODEC, StubbornSheepCodec) and CODEC.field == "stubborn_sheep"
    state = GAME.new_state(3, 4)
    observation = arena_pb2.Observation(
        stubborn_sheep=CODEC.observation_to_proto(state.observation(0))
    )
    assert observation.WhichOneof("game") == "stubborn_sheep"
    action = arena_pb2.GameAction(stubborn_sheep=CODEC.action_to_proto(state.legal_actions()[0]))
    assert action.WhichOneof("game") == "stubborn_sheep"


def test_observation_message_carries_the_table() -> None:
    state = GAME.new_state(2, 7, {"wolf": True})
    while not isinstance(state.legal_actions()[0], PlaceFence):
        state.apply(state.legal_actions()[0])
    msg = CODEC.observation_to_proto(state.observation(0))
    assert msg.seat == 0 and msg.to_move == 0 and msg.players == 2
    assert msg.phase == pb.STUBBORN_SHEEP_PHASE_PLACE
    assert msg.wolf_area == state.wolf and msg.wolf_variant and not msg.bonus_actions
    assert [a.index for a in msg.areas] == list(range(6))
    for area, cards in zip(msg.areas, state.areas, strict=True):
        assert [s.id for s in area.sheep] == cards
        for sheep in area.sheep:
            assert sheep.colour == SHEEP_COLOUR[sheep.id] + 1
            assert sheep.bonus == SHEEP_BONUS[sheep.id] + 1
    for fence in msg.fences:
        top = state.stacks[fence.index][-1]
        assert fence.card.id == top and len(fence.card.icons) == 4
        assert [(i.colour - 1, i.side - 1) for i in fence.card.icons] == list(FENCES[top])
        assert fence.orientation == state.orient[fence.index] + 1
        icons = EFFECTIVE[top][state.orient[fence.index]]
        assert [j.colour - 1 for j in fence.jumps] == [c for c, _ in icons]
    assert [c.id for c in msg.hand] == state.hands[0]
    assert [s.hand_size for s in msg.seats] == [1, 1]
    assert msg.fence_pile == len(state.fence_pile) and msg.sheep_pile == len(state.sheep_pile)


def test_specific_messages() -> None:
    idle = CODEC.event_to_proto(IconJump(3, 1, 2, 2, 3, -1))
    assert idle.icon_jump.moved is False and not idle.icon_jump.HasField("sheep")
    moved = CODEC.event_to_proto(IconJump(3, 1, 2, 2, 3, 40))
    assert moved.icon_jump.moved and moved.icon_jump.sheep.id == 40
    score = CODEC.action_to_proto(Score(1, (19, 20), (54, 55)))
    assert score.score.colour == pb.STUBBORN_SHEEP_COLOUR_RED
    assert list(score.score.scored) == [19, 20] and list(score.score.discarded) == [54, 55]
    assert score.score.size == 4 and score.score.jokers == 2
    assert CODEC.action_from_proto(score) == Score(1, (19, 20), (54, 55))
    bonus = CODEC.action_to_proto(UseBonus(1, area=3))
    assert bonus.use_bonus.bonus == pb.STUBBORN_SHEEP_BONUS_MEADOW_TO_SIX
    assert bonus.use_bonus.area == 3 and bonus.use_bonus.fence == -1
    with pytest.raises(TypeError):
        CODEC.action_to_proto("nothing")
    with pytest.raises(TypeError):
        CODEC.event_to_proto("nothing")
    with pytest.raises(ValueError):
        CODEC.action_from_proto(pb.StubbornSheepAction())


def test_the_guide_names_every_event_kind_the_wire_carries() -> None:
    """A bot author learns the events from the guide's 'Events' section: each kind in
    the `StubbornSheepEvent` oneof is named there (`fence_oriented`, the setup's keep
    or turn of each fence, was missing)."""
    guide = (ROOT / "docs" / "games" / "stubborn-sheep.md").read_text(encoding="utf-8")
    section = guide.split("\n## Events\n", 1)[1].split("\n## ", 1)[0]
    kinds = [field.name for field in pb.StubbornSheepEvent.DESCRIPTOR.oneofs_by_name["kind"].fields]
    assert len(kinds) == 15
    assert [kind for kind in kinds if f"`{kind}`" not in section] == []
