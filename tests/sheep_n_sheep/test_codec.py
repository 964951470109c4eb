"""The protobuf codec: every observation, action and event of random games
converts, survives SerializeToString/ParseFromString, and decodes back to the
same values (so nothing a seat may see is lost on the wire)."""

from __future__ import annotations

import re

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st
from sheepfold.v1 import arena_pb2
from sheepfold.v1 import sheep_n_sheep_pb2 as pb

from games.sheep_n_sheep import events as ev
from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Discard,
    Pass,
    Place,
    Stop,
    TakeSet,
)
from games.sheep_n_sheep.cards import CARDS, COLOURS, ICONS
from games.sheep_n_sheep.observation import Placement, SheepNSheepObservation
from games.sheep_n_sheep.state import SheepNSheepState

from .play import GAME, play

CODEC = GAME.codec
PHASES = ("turn", "same", "run", "discard", "free", "over")
KINDS = ("same", "run", "free")
BRANCHES = ("", "up", "down")


def _roundtrip(message: Message) -> Message:
    copy = type(message)()
    copy.ParseFromString(message.SerializeToString())
    assert copy == message
    return copy


def _card(message: pb.SheepNSheepCard) -> int:
    card = CARDS[message.id]
    assert COLOURS[message.colour - 1] == card.colour
    assert ICONS[message.icon - 1] == card.icon
    assert (message.number, message.condition, message.vp) == (
        card.number,
        card.condition,
        card.vp,
    )
    return message.id


def _cell(message: Message, name: str) -> tuple[int, int] | None:
    if not message.HasField(name):
        return None
    cell = getattr(message, name)
    return cell.x, cell.y


def _opt(message: Message, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def decode_observation(m: pb.SheepNSheepObservation) -> SheepNSheepObservation:
    placement = None
    if m.HasField("placement"):
        p = m.placement
        placement = Placement(
            kind=PHASES[p.phase - 1],
            start=_cell(p, "start"),
            placed=p.placed,
            number=_opt(p, "number"),
            tip=_cell(p, "tip"),
            up_tip=_cell(p, "up_tip"),
            up_next=_opt(p, "up_next"),
            down_tip=_cell(p, "down_tip"),
            down_next=_opt(p, "down_next"),
        )
    assert [s.index for s in m.market] == list(range(len(m.market)))
    assert [p.seat for p in m.pastures] == list(range(m.players))
    return SheepNSheepObservation(
        seat=_opt(m, "seat"),
        players=m.players,
        to_move=_opt(m, "to_move"),
        phase=PHASES[m.phase - 1],
        turn=m.turn,
        hand=tuple(_card(c) for c in m.hand),
        hand_sizes=tuple(m.hand_sizes),
        market=tuple(tuple(_card(c) for c in s.cards) for s in m.market),  # type: ignore[misc]
        pastures=tuple(
            tuple((pc.cell.x, pc.cell.y, _card(pc.card)) for pc in p.cards) for p in m.pastures
        ),
        deck_size=m.deck_size,
        stock_size=m.stock_size,
        discard=tuple(_card(c) for c in m.discard),
        end_triggered=m.end_triggered,
        last_turn=_opt(m, "last_turn"),
        placement=placement,
    )


def decode_action(m: pb.SheepNSheepAction) -> object:
    kind = m.WhichOneof("kind")
    if kind == "take_set":
        return TakeSet(m.take_set.index)
    if kind == "begin":
        begin_kind = KINDS[m.begin.kind - 1]
        if begin_kind == "free":
            assert not m.begin.HasField("start")
            return BeginFree()
        start = _cell(m.begin, "start")
        return BeginSame(start) if begin_kind == "same" else BeginRun(start)
    if kind == "discard":
        return Discard(_card(m.discard.card))
    if kind == "place":
        p = m.place
        return Place(_card(p.card), p.cell.x, p.cell.y, BRANCHES[p.branch])
    if kind == "stop":
        return Stop()
    assert kind == "pass_turn"
    return Pass()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def check_event(payload: object, m: pb.SheepNSheepEvent) -> None:
    kind = m.WhichOneof("kind")
    assert kind == _snake(type(payload).__name__)
    inner = getattr(m, kind)
    if hasattr(payload, "seat"):
        assert inner.seat == payload.seat
    if isinstance(payload, ev.CardDrawn):
        assert (_card(inner.card) if inner.HasField("card") else None) == payload.card
        assert inner.from_stock == payload.from_stock
    elif hasattr(payload, "card"):
        assert _card(inner.card) == payload.card
    if hasattr(payload, "cards"):
        assert tuple(_card(c) for c in inner.cards) == payload.cards
    if isinstance(payload, ev.CardPlaced):
        assert (inner.cell.x, inner.cell.y, BRANCHES[inner.branch]) == (
            payload.x,
            payload.y,
            payload.branch,
        )
    if isinstance(payload, ev.GameEnded):
        assert tuple(inner.scores) == payload.scores
        assert tuple(inner.winners) == payload.winners
    if isinstance(payload, ev.PlacementBegun):
        assert (KINDS[inner.kind - 1], _cell(inner, "start")) == (payload.kind, payload.start)


def _check_all(state: SheepNSheepState, action: object, events: list) -> None:
    for viewer in (None, *range(state.players)):
        obs = state.observation(viewer)
        msg = _roundtrip(CODEC.observation_to_proto(obs))
        assert decode_observation(msg) == obs
    wrapped = arena_pb2.Observation(**{CODEC.field: CODEC.observation_to_proto(obs)})
    assert wrapped.WhichOneof("game") == "sheep_n_sheep"
    for legal in state.legal_actions():
        msg = _roundtrip(CODEC.action_to_proto(legal))
        assert decode_action(msg) == legal
    for event in events:
        for payload in (event.payload, event.redacted):
            if payload is not None:
                msg = _roundtrip(CODEC.event_to_proto(payload))
                check_event(payload, msg)
                _roundtrip(arena_pb2.GameEvent(**{CODEC.field: msg}))


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_observation_action_and_event_round_trips(players: int, seed: int) -> None:
    play(players, seed, each=_check_all)


def test_first_turn_actions_round_trip() -> None:
    """The very first decision (before any action) too."""
    state = GAME.new_state(2, seed=9)
    for legal in state.legal_actions():
        assert decode_action(_roundtrip(CODEC.action_to_proto(legal))) == legal
    obs = state.observation(1)
    assert decode_observation(_roundtrip(CODEC.observation_to_proto(obs))) == obs


def test_codec_rejects_foreign_values() -> None:
    with pytest.raises(TypeError):
        CODEC.action_to_proto("take set 0")
    with pytest.raises(TypeError):
        CODEC.event_to_proto(object())
    assert CODEC.field == "sheep_n_sheep"
