"""The protobuf codec: everything converts and round-trips."""

from __future__ import annotations

import dataclasses
import random
import typing
from typing import Any

import pytest
from sheepfold.v1 import arena_pb2
from sheepfold.v1 import sheep_showdown_pb2 as pb

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown import events as E
from games.sheep_showdown.actions import (
    PlaceBlocker,
    PlaceDog,
    RocketJump,
    SelectDog,
    ShepherdJump,
    Steal,
    Step,
    UseCard,
)
from games.sheep_showdown.events import (
    END_REASON_WORDS,
    END_REASONS,
    CardStolen,
    DogMoved,
    DogOut,
    RoundEnded,
)


def roundtrip(message: object, cls: type) -> object:
    data = message.SerializeToString()  # type: ignore[attr-defined]
    back = cls.FromString(data)  # type: ignore[attr-defined]
    assert back == message
    return back


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (2, {"double_trouble": True}), (3, {}), (4, {}), (5, {}), (6, {})],
)
def test_every_observation_action_and_event_converts(
    players: int, options: dict[str, object]
) -> None:
    codec = GAME.codec
    assert codec.field == "sheep_showdown"
    kinds: set[str] = set()
    for seed in range(3):
        state = GAME.new_state(players, seed, options)
        chooser = random.Random(seed)
        while not state.terminal:
            for seat in [None, *range(players)]:
                obs = state.observation(seat)
                msg = roundtrip(codec.observation_to_proto(obs), pb.SheepShowdownObservation)
                assert list(msg.grid) == list(obs.grid)
                assert msg.HasField("seat") == (seat is not None)
            for action in state.legal_actions():
                wrapped = arena_pb2.GameAction(sheep_showdown=codec.action_to_proto(action))
                roundtrip(wrapped, arena_pb2.GameAction)
                kinds.add(codec.action_to_proto(action).WhichOneof("kind"))
            for event in state.apply(chooser.choice(state.legal_actions())):
                for viewer in [None, *range(players)]:
                    seen = event.visible_to(viewer)
                    if seen is not None:
                        wire = codec.event_to_proto(seen)
                        roundtrip(wire, pb.SheepShowdownEvent)
                        assert wire.WhichOneof("kind") is not None
                        roundtrip(arena_pb2.GameEvent(sheep_showdown=wire), arena_pb2.GameEvent)
        final = codec.observation_to_proto(state.observation(None))
        assert final.decision == pb.SHEEP_SHOWDOWN_DECISION_NONE
        assert not final.HasField("to_move")
    assert {"place_dog", "step"} <= kinds


def test_action_fields() -> None:
    codec = GAME.codec
    step = codec.action_to_proto(Step(3, 2)).step
    assert (step.dog, step.direction) == (3, pb.SHEEP_SHOWDOWN_DIRECTION_DOWN)
    jump = codec.action_to_proto(RocketJump(1, 0)).rocket_jump
    assert jump.direction == pb.SHEEP_SHOWDOWN_DIRECTION_UP
    place = codec.action_to_proto(PlaceDog(2, 4, 5)).place_dog
    assert (place.dog, place.cell.row, place.cell.col) == (2, 4, 5)
    wolf = codec.action_to_proto(SelectDog(1, "wolf")).select_dog
    assert wolf.purpose == pb.SHEEP_SHOWDOWN_DOG_PURPOSE_WOLF
    assert codec.action_to_proto(SelectDog(1, "move")).select_dog.purpose == (
        pb.SHEEP_SHOWDOWN_DOG_PURPOSE_MOVE
    )
    shep = codec.action_to_proto(ShepherdJump(0, 6, 1)).shepherd_jump
    assert (shep.cell.row, shep.cell.col) == (6, 1)
    assert codec.action_to_proto(PlaceBlocker(3, 3)).place_blocker.cell.row == 3
    for use in (True, False):  # "carry out" and "decline" must differ on the wire
        card = codec.action_to_proto(UseCard(1, C.ROCKET, use)).use_card
        assert (card.dog, card.card, card.use) == (1, pb.SHEEP_SHOWDOWN_CARD_ROCKET, use)
        steal = codec.action_to_proto(Steal(2, use)).steal
        assert (steal.victim, steal.take) == (2, use)
    with pytest.raises(TypeError):
        codec.action_to_proto(object())


@pytest.mark.parametrize(
    ("direction", "name"),
    [
        (0, "UP"),
        (1, "RIGHT"),
        (2, "DOWN"),
        (3, "LEFT"),
        (4, "UP_RIGHT"),
        (5, "DOWN_RIGHT"),
        (6, "DOWN_LEFT"),
        (7, "UP_LEFT"),
    ],
)
def test_every_direction_converts_and_round_trips(direction: int, name: str) -> None:
    """The four orthogonal directions and the four diagonal ones (a step onto a
    sliding sheep) each have their own wire value, and survive serialization."""
    assert C.DIRECTIONS[direction] == name.lower().replace("_", "-")
    wire = pb.SheepShowdownDirection.Value(f"SHEEP_SHOWDOWN_DIRECTION_{name}")
    assert wire == direction + 1
    message = GAME.codec.action_to_proto(Step(0, direction))
    back = roundtrip(arena_pb2.GameAction(sheep_showdown=message), arena_pb2.GameAction)
    assert back.sheep_showdown.step.direction == wire  # type: ignore[attr-defined]


def test_event_fields() -> None:
    codec = GAME.codec
    public = codec.event_to_proto(CardStolen(0, 1, None)).card_stolen
    assert not public.HasField("card")
    private = codec.event_to_proto(CardStolen(0, 1, C.WOLF)).card_stolen
    assert private.HasField("card") and private.card == pb.SHEEP_SHOWDOWN_CARD_WOLF
    moved = codec.event_to_proto(DogMoved(1, 1, 0, 0, 0, 2, "rocket", 1)).dog_moved
    assert (moved.to_cell.col, moved.how) == (2, pb.SHEEP_SHOWDOWN_MOVE_ROCKET)
    out = codec.event_to_proto(DogOut(1, 1, "no_step", None)).dog_out
    assert not out.HasField("by") and out.reason == pb.SHEEP_SHOWDOWN_OUT_REASON_NO_STEP
    with pytest.raises(TypeError):
        codec.event_to_proto(object())


def test_card_codes_match_the_wire_enum() -> None:
    for code, name in [
        (C.EMPTY, "EMPTY"),
        (C.SHEEP1, "SHEEP_1"),
        (C.SHEEP5, "SHEEP_5"),
        (C.SHEPHERD, "SHEPHERD"),
        (C.ROCKET, "ROCKET"),
        (C.BLOCKING, "BLOCKING"),
        (C.SLIDING, "SLIDING"),
        (C.BOMB, "BOMB"),
        (C.WOLF, "WOLF"),
        (C.BLOCKED, "BLOCKED"),
    ]:
        assert pb.SheepShowdownCard.Value(f"SHEEP_SHOWDOWN_CARD_{name}") == code


def test_the_event_union_names_every_event() -> None:
    """SheepShowdownEvent lists every event payload the engine defines, so a type
    checked against it (and a reader of it) sees the steal and card declines too."""
    defined = {
        obj
        for obj in vars(E).values()
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == E.__name__
    }
    assert set(typing.get_args(E.SheepShowdownEvent)) == defined


@pytest.mark.parametrize("reason", END_REASONS)
def test_a_round_end_says_why_in_words_and_whose_score_is_whose(reason: str) -> None:
    """A spectator read "round 3 ends (last_steps); round scores 2, 1, 14": the
    reason's identifier, and scores tied to no seat."""
    text = RoundEnded(3, reason, (2, 1, 14), (5, 3, 20)).text
    assert reason not in text, text
    assert text.startswith(f"round 3 ends: {END_REASON_WORDS[reason]}; "), text
    assert text.endswith("scores this round: seat 0 2, seat 1 1, seat 2 14"), text


def _enum_name(message: Any, name: str) -> str:
    field = message.DESCRIPTOR.fields_by_name[name]
    return field.enum_type.values_by_number[getattr(message, name)].name


def _check_value(message: Any, name: str, value: Any, where: str) -> None:
    """One engine field against the same-named proto field (enum values by name)."""
    field = message.DESCRIPTOR.fields_by_name[name]
    if value is None:
        assert not message.HasField(name), where
    elif isinstance(value, str):
        assert _enum_name(message, name).endswith("_" + value.upper().replace("-", "_")), where
    elif isinstance(value, tuple):
        assert list(getattr(message, name)) == list(value), where
    else:
        if field.has_presence:
            assert message.HasField(name), where
        assert getattr(message, name) == value, where


def _check_event(payload: Any, wire: pb.SheepShowdownEvent) -> None:
    """Every field of an engine event reaches its proto message: cells as
    (row, col) pairs, enums by name, an absent optional stays absent."""
    body = getattr(wire, wire.WhichOneof("kind"))
    where = repr(payload)
    values = {f.name: getattr(payload, f.name) for f in dataclasses.fields(payload)}
    for prefix in ("", "from_", "to_"):
        if prefix + "row" in values:
            cell = getattr(body, prefix + "cell")
            row, col = values.pop(prefix + "row"), values.pop(prefix + "col")
            assert (cell.row, cell.col) == (row, col), where
    for name, value in values.items():
        _check_value(body, name, value, where)


def _check_observation(obs: Any, msg: pb.SheepShowdownObservation) -> None:
    """Every field of the engine's observation reaches the proto message."""
    values = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
    dogs = values.pop("dogs")
    assert [(d.dog, d.owner, d.out) for d in msg.dogs] == [(d.dog, d.owner, d.out) for d in dogs]
    for view, dog in zip(dogs, msg.dogs, strict=True):
        assert dog.HasField("cell") == (view.row is not None)
        if view.row is not None:
            assert (dog.cell.row, dog.cell.col) == (view.row, view.col)
    rows = values.pop("round_scores")
    assert [tuple(r.scores) for r in msg.round_scores] == list(rows)
    rockets = values.pop("used_rockets")
    assert [(c.row, c.col) for c in msg.used_rockets] == list(rockets)
    entered = values.pop("entered_direction")
    assert msg.HasField("entered_direction") == (entered is not None)
    if entered is not None:
        assert msg.entered_direction == entered + 1
    for name, value in values.items():
        _check_value(msg, name, value, f"observation field {name}")


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {"double_trouble": True}, 1), (3, {}, 2), (6, {"rounds": 1}, 3)],
)
def test_every_field_of_observations_and_events_reaches_the_wire(
    players: int, options: dict[str, object], seed: int
) -> None:
    """A bot in another language sees only the wire: each value the engine puts
    in an observation or an event must arrive in the proto field of the same
    name (last steps, out turns, bomb counts, who pushed, the final ranks...)."""
    codec = GAME.codec
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    kinds: set[str] = set()
    while not state.terminal:
        for seat in (None, state.to_move):
            obs = state.observation(seat)
            _check_observation(obs, codec.observation_to_proto(obs))
        for event in state.apply(chooser.choice(state.legal_actions())):
            for viewer in (None, event.seat):
                seen = event.visible_to(viewer)
                if seen is not None:
                    wire = codec.event_to_proto(seen)
                    kinds.add(wire.WhichOneof("kind"))
                    _check_event(seen, wire)
    final = state.observation(0)
    _check_observation(final, codec.observation_to_proto(final))
    assert {"dog_moved", "card_taken", "player_out", "round_ended", "game_ended"} <= kinds
