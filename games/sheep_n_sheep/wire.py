"""Protobuf codec for Sheep 'n' Sheep (messages in sheep_n_sheep.proto)."""

from __future__ import annotations

import functools
from typing import Any

from sheepfold.v1 import sheep_n_sheep_pb2 as pb

from games.encoding import PiecewiseObservationCodec, field_number, length_delimited
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
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.observation import Placement, SheepNSheepObservation

_COLOUR = {
    "white": pb.SHEEP_N_SHEEP_COLOUR_WHITE,
    "black": pb.SHEEP_N_SHEEP_COLOUR_BLACK,
    "brown": pb.SHEEP_N_SHEEP_COLOUR_BROWN,
    "pink": pb.SHEEP_N_SHEEP_COLOUR_PINK,
    "blue": pb.SHEEP_N_SHEEP_COLOUR_BLUE,
    "grey": pb.SHEEP_N_SHEEP_COLOUR_GREY,
}
_ICON = {
    "none": pb.SHEEP_N_SHEEP_ICON_NONE,
    "bell": pb.SHEEP_N_SHEEP_ICON_BELL,
    "heart": pb.SHEEP_N_SHEEP_ICON_HEART,
    "star": pb.SHEEP_N_SHEEP_ICON_STAR,
    "one_vp": pb.SHEEP_N_SHEEP_ICON_ONE_VP,
    "draw": pb.SHEEP_N_SHEEP_ICON_DRAW,
}
_PHASE = {
    "turn": pb.SHEEP_N_SHEEP_PHASE_TURN,
    "same": pb.SHEEP_N_SHEEP_PHASE_SAME,
    "run": pb.SHEEP_N_SHEEP_PHASE_RUN,
    "discard": pb.SHEEP_N_SHEEP_PHASE_DISCARD,
    "free": pb.SHEEP_N_SHEEP_PHASE_FREE,
    "over": pb.SHEEP_N_SHEEP_PHASE_OVER,
}
_KIND = {
    "same": pb.SHEEP_N_SHEEP_PLACEMENT_KIND_SAME,
    "run": pb.SHEEP_N_SHEEP_PLACEMENT_KIND_RUN,
    "free": pb.SHEEP_N_SHEEP_PLACEMENT_KIND_FREE,
}
_BRANCH = {
    "": pb.SHEEP_N_SHEEP_BRANCH_NONE,
    "up": pb.SHEEP_N_SHEEP_BRANCH_UP,
    "down": pb.SHEEP_N_SHEEP_BRANCH_DOWN,
}


def card_to_proto(card_id: int) -> pb.SheepNSheepCard:
    card = CARDS[card_id]
    return pb.SheepNSheepCard(
        id=card.id,
        colour=_COLOUR[card.colour],
        number=card.number,
        condition=card.condition,
        vp=card.vp,
        icon=_ICON[card.icon],
    )


# Prebuilt card messages. Passing one to a message constructor copies it, so these
# are never handed out or changed; this is three times faster than building anew.
_CARD_PB: tuple[pb.SheepNSheepCard, ...] = tuple(card_to_proto(card.id) for card in CARDS)


# Encoded observation fields. A card's encoding as a hand, discard or placed
# card entry never changes, so these are built once; a field's encoding is then
# the join of its entries, with a memo for pastures and the market (the same
# from one decision to the next until a card is placed or a set taken).
_HAND, _MARKET, _PASTURES, _DISCARD = (
    field_number(pb.SheepNSheepObservation, name)
    for name in ("hand", "market", "pastures", "discard")
)
_CARD_BYTES = tuple(card.SerializeToString() for card in _CARD_PB)
_HAND_ENTRY = tuple(length_delimited(_HAND, card) for card in _CARD_BYTES)
_DISCARD_ENTRY = tuple(length_delimited(_DISCARD, card) for card in _CARD_BYTES)
_SET_CARD = field_number(pb.SheepNSheepMarketSet, "cards")
_SET_CARD_ENTRY = tuple(length_delimited(_SET_CARD, card) for card in _CARD_BYTES)


@functools.lru_cache(maxsize=8192)
def _placed_card(x: int, y: int, card: int) -> bytes:
    return pb.SheepNSheepPasture(
        cards=[pb.SheepNSheepPlacedCard(cell=pb.SheepNSheepCell(x=x, y=y), card=_CARD_PB[card])]
    ).SerializeToString()


@functools.lru_cache(maxsize=2048)
def _pasture_bytes(seat: int, pasture: tuple[tuple[int, int, int], ...]) -> bytes:
    head = pb.SheepNSheepPasture(seat=seat).SerializeToString()
    cards = b"".join([_placed_card(x, y, c) for x, y, c in pasture])
    return length_delimited(_PASTURES, head + cards)


@functools.lru_cache(maxsize=1024)
def _market_bytes(market: tuple[tuple[int, int], ...]) -> bytes:
    return b"".join(
        [
            length_delimited(
                _MARKET,
                pb.SheepNSheepMarketSet(index=i).SerializeToString()
                + b"".join([_SET_CARD_ENTRY[c] for c in pair]),
            )
            for i, pair in enumerate(market)
        ]
    )


def _cell(cell: tuple[int, int] | None) -> pb.SheepNSheepCell | None:
    return None if cell is None else pb.SheepNSheepCell(x=cell[0], y=cell[1])


def _placement(placement: Placement) -> pb.SheepNSheepPlacement:
    return pb.SheepNSheepPlacement(
        phase=_PHASE[placement.kind],
        start=_cell(placement.start),
        placed=placement.placed,
        number=placement.number,
        tip=_cell(placement.tip),
        up_tip=_cell(placement.up_tip),
        up_next=placement.up_next,
        down_tip=_cell(placement.down_tip),
        down_next=placement.down_next,
    )


class SheepNSheepCodec(PiecewiseObservationCodec):
    field = "sheep_n_sheep"

    def observation_head(self, observation: SheepNSheepObservation) -> Any:
        obs = observation
        return pb.SheepNSheepObservation(
            seat=obs.seat,
            players=obs.players,
            to_move=obs.to_move,
            phase=_PHASE[obs.phase],
            turn=obs.turn,
            hand_sizes=obs.hand_sizes,
            deck_size=obs.deck_size,
            stock_size=obs.stock_size,
            end_triggered=obs.end_triggered,
            last_turn=obs.last_turn,
            placement=None if obs.placement is None else _placement(obs.placement),
        )

    def observation_pieces(self, observation: SheepNSheepObservation) -> bytes:
        # The card lists change a little per decision and the pastures only when a
        # card is placed: their encodings are reused.
        obs = observation
        return b"".join(
            (
                *[_HAND_ENTRY[c] for c in obs.hand],
                _market_bytes(obs.market),
                *[_pasture_bytes(seat, p) for seat, p in enumerate(obs.pastures)],
                *[_DISCARD_ENTRY[c] for c in obs.discard],
            )
        )

    def action_to_proto(self, action: Any) -> Any:
        msg = pb.SheepNSheepAction
        kind = type(action)
        if kind is Place:
            return msg(
                place=msg.Place(
                    card=_CARD_PB[action.card],
                    cell=pb.SheepNSheepCell(x=action.x, y=action.y),
                    branch=_BRANCH[action.branch],
                )
            )
        if kind is TakeSet:
            return msg(take_set=msg.TakeSet(index=action.index))
        if kind is BeginSame or kind is BeginRun:
            name = "same" if kind is BeginSame else "run"
            return msg(begin=msg.Begin(kind=_KIND[name], start=_cell(action.start)))
        if kind is BeginFree:
            return msg(begin=msg.Begin(kind=_KIND["free"]))
        if kind is Discard:
            return msg(discard=msg.Discard(card=_CARD_PB[action.card]))
        if kind is Stop:
            return msg(stop=msg.Stop())
        if kind is Pass:
            return msg(pass_turn=msg.Pass())
        raise TypeError(f"not a Sheep 'n' Sheep action: {action!r}")

    def event_to_proto(self, payload: Any) -> Any:
        msg = pb.SheepNSheepEvent
        kind = type(payload)
        if kind is ev.SetTaken:
            cards = [_CARD_PB[c] for c in payload.cards]
            return msg(set_taken=msg.SetTaken(seat=payload.seat, index=payload.index, cards=cards))
        if kind is ev.SetFormed:
            cards = [_CARD_PB[c] for c in payload.cards]
            return msg(
                set_formed=msg.SetFormed(
                    index=payload.index, cards=cards, from_stock=payload.from_stock
                )
            )
        if kind is ev.CardDrawn:
            card = None if payload.card is None else _CARD_PB[payload.card]
            return msg(
                card_drawn=msg.CardDrawn(
                    seat=payload.seat, card=card, from_stock=payload.from_stock
                )
            )
        if kind is ev.EndTriggered:
            return msg(
                end_triggered=msg.EndTriggered(seat=payload.seat, last_turn=payload.last_turn)
            )
        if kind is ev.PlacementBegun:
            return msg(
                placement_begun=msg.PlacementBegun(
                    seat=payload.seat, kind=_KIND[payload.kind], start=_cell(payload.start)
                )
            )
        if kind is ev.CardDiscarded:
            return msg(
                card_discarded=msg.CardDiscarded(seat=payload.seat, card=_CARD_PB[payload.card])
            )
        if kind is ev.CardPlaced:
            return msg(
                card_placed=msg.CardPlaced(
                    seat=payload.seat,
                    card=_CARD_PB[payload.card],
                    cell=pb.SheepNSheepCell(x=payload.x, y=payload.y),
                    branch=_BRANCH[payload.branch],
                )
            )
        if kind is ev.Passed:
            return msg(passed=msg.Passed(seat=payload.seat))
        if kind is ev.TurnEnded:
            return msg(turn_ended=msg.TurnEnded(seat=payload.seat, turn=payload.turn))
        if kind is ev.GameEnded:
            return msg(game_ended=msg.GameEnded(scores=payload.scores, winners=payload.winners))
        raise TypeError(f"not a Sheep 'n' Sheep event: {payload!r}")


# Codecs hold no state: one per game, shared by every match, so memos keyed on
# the codec (server.convert.legal_action_bytes) serve them all.
CODEC = SheepNSheepCodec()
