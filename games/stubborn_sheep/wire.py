"""Protobuf conversion for Stubborn Sheep (the `stubborn_sheep` member of the oneofs).

Enums on the wire are the engine's indices plus one (0 is UNSPECIFIED): the
tables below name them.
"""

from __future__ import annotations

import functools
from typing import Any

from sheepfold.v1 import stubborn_sheep_pb2 as pb

from games.encoding import PiecewiseObservationCodec, field_number, length_delimited
from games.stubborn_sheep import actions as act
from games.stubborn_sheep import events as ev
from games.stubborn_sheep.data import FENCES, SHEEP_BONUS, SHEEP_COLOUR
from games.stubborn_sheep.observation import StubbornSheepObservation
from games.stubborn_sheep.state import PHASES

# The wire's enum values by the engine's index (0 is UNSPECIFIED on the wire).
_COLOUR = (
    pb.STUBBORN_SHEEP_COLOUR_BLUE,
    pb.STUBBORN_SHEEP_COLOUR_RED,
    pb.STUBBORN_SHEEP_COLOUR_YELLOW,
    pb.STUBBORN_SHEEP_COLOUR_WHITE,
)
_BONUS = (
    pb.STUBBORN_SHEEP_BONUS_PEN_PLUS_ONE,
    pb.STUBBORN_SHEEP_BONUS_MEADOW_TO_SIX,
    pb.STUBBORN_SHEEP_BONUS_ALL_MEADOWS_TO_FIVE,
    pb.STUBBORN_SHEEP_BONUS_ROTATE_FENCE,
    pb.STUBBORN_SHEEP_BONUS_ACTIVATE_TWICE,
    pb.STUBBORN_SHEEP_BONUS_ACTIVATE_EXTRA,
    pb.STUBBORN_SHEEP_BONUS_YELLOW_TAKES_TWO,
    pb.STUBBORN_SHEEP_BONUS_BLUE_STOPS_AFTER_ONE,
    pb.STUBBORN_SHEEP_BONUS_BLUE_SINGLE_STEP,
    pb.STUBBORN_SHEEP_BONUS_MOVE_BLUE,
    pb.STUBBORN_SHEEP_BONUS_MOVE_RED,
    pb.STUBBORN_SHEEP_BONUS_MOVE_YELLOW,
    pb.STUBBORN_SHEEP_BONUS_MOVE_WHITE,
)
_SIDE = (
    pb.STUBBORN_SHEEP_SIDE_LEFT,
    pb.STUBBORN_SHEEP_SIDE_RIGHT,
)
_ORIENTATION = (
    pb.STUBBORN_SHEEP_ORIENTATION_UP,
    pb.STUBBORN_SHEEP_ORIENTATION_DOWN,
)
_PHASE = (
    pb.STUBBORN_SHEEP_PHASE_ORIENT,
    pb.STUBBORN_SHEEP_PHASE_BLUE_BONUS,
    pb.STUBBORN_SHEEP_PHASE_PLACE,
    pb.STUBBORN_SHEEP_PHASE_BETWEEN,
    pb.STUBBORN_SHEEP_PHASE_JUMPER,
    pb.STUBBORN_SHEEP_PHASE_YELLOW_TAKES_TWO,
    pb.STUBBORN_SHEEP_PHASE_COMPANION,
    pb.STUBBORN_SHEEP_PHASE_BUMP,
    pb.STUBBORN_SHEEP_PHASE_BLUE_MODIFIER,
    pb.STUBBORN_SHEEP_PHASE_SCORE,
    pb.STUBBORN_SHEEP_PHASE_OVER,
)
_CAUSE = (
    pb.STUBBORN_SHEEP_CAUSE_YELLOW_COMPANION,
    pb.STUBBORN_SHEEP_CAUSE_RED_BUMP,
    pb.STUBBORN_SHEEP_CAUSE_BLUE_RUN,
    pb.STUBBORN_SHEEP_CAUSE_BONUS_MOVE,
)


def sheep_msg(card: int) -> pb.StubbornSheepSheep:
    return pb.StubbornSheepSheep(
        id=card, colour=_COLOUR[SHEEP_COLOUR[card]], bonus=_BONUS[SHEEP_BONUS[card]]
    )


def fence_card_msg(card: int) -> pb.StubbornSheepFenceCard:
    return pb.StubbornSheepFenceCard(
        id=card,
        icons=[pb.StubbornSheepIcon(colour=_COLOUR[c], side=_SIDE[s]) for c, s in FENCES[card]],
    )


def _sheep(cards: tuple[int, ...]) -> list[pb.StubbornSheepSheep]:
    return [sheep_msg(card) for card in cards]


# A sheep card inside an area or a score pile, encoded once per card: a new
# area or pile is its few scalar fields joined to these.
_SHEEP_IN_AREA: tuple[bytes, ...] = tuple(
    length_delimited(
        field_number(pb.StubbornSheepArea, "sheep"), sheep_msg(card).SerializeToString()
    )
    for card in range(len(SHEEP_COLOUR))
)
_SHEEP_IN_PILE: tuple[bytes, ...] = tuple(
    length_delimited(
        field_number(pb.StubbornSheepScorePile, "sheep"), sheep_msg(card).SerializeToString()
    )
    for card in range(len(SHEEP_COLOUR))
)
_OBSERVATION_AREA = field_number(pb.StubbornSheepObservation, "areas")
_OBSERVATION_SEAT = field_number(pb.StubbornSheepObservation, "seats")
_PLAYER_PILE = field_number(pb.StubbornSheepPlayer, "scored")


# Encoded observation fields, by their content: bounded memos of pure functions.
@functools.lru_cache(maxsize=4096)
def _area_bytes(index: int, owner: int, sheep: tuple[int, ...]) -> bytes:
    head = pb.StubbornSheepArea(index=index, owner=owner).SerializeToString()
    return length_delimited(
        _OBSERVATION_AREA, head + b"".join([_SHEEP_IN_AREA[card] for card in sheep])
    )


@functools.lru_cache(maxsize=2048)
def _fence_bytes(
    index: int,
    owner: int,
    card: int,
    orientation: int,
    height: int,
    left_area: int,
    right_area: int,
    jumps: tuple[tuple[int, int, int], ...],
) -> bytes:
    fence = pb.StubbornSheepFence(
        index=index,
        owner=owner,
        card=fence_card_msg(card),
        orientation=_ORIENTATION[orientation],
        height=height,
        left_area=left_area,
        right_area=right_area,
        jumps=[
            pb.StubbornSheepJump(colour=_COLOUR[c], from_area=a, to_area=b) for c, a, b in jumps
        ],
    )
    return pb.StubbornSheepObservation(fences=[fence]).SerializeToString()


@functools.lru_cache(maxsize=2048)
def _seat_bytes(seat: int, hand_size: int, piles: tuple[tuple[int, ...], ...]) -> bytes:
    head = pb.StubbornSheepPlayer(
        seat=seat,
        hand_size=hand_size,
        points=sum(len(pile) for pile in piles),
        sets=min(len(pile) for pile in piles),
    ).SerializeToString()
    scored = [
        length_delimited(
            _PLAYER_PILE,
            pb.StubbornSheepScorePile(colour=_COLOUR[colour]).SerializeToString()
            + b"".join([_SHEEP_IN_PILE[card] for card in pile]),
        )
        for colour, pile in enumerate(piles)
    ]
    return length_delimited(_OBSERVATION_SEAT, head + b"".join(scored))


# A fence card in a hand, encoded once per card.
_HAND_CARD_BYTES: tuple[bytes, ...] = tuple(
    pb.StubbornSheepObservation(hand=[fence_card_msg(card)]).SerializeToString()
    for card in range(len(FENCES))
)


class StubbornSheepCodec(PiecewiseObservationCodec):
    field = "stubborn_sheep"

    def observation_head(self, obs: StubbornSheepObservation) -> pb.StubbornSheepObservation:
        msg = pb.StubbornSheepObservation(
            players=obs.players,
            current=obs.current,
            phase=_PHASE[PHASES.index(obs.phase)],
            turn=obs.turn,
            final_round=obs.final_round,
            turns_left=obs.turns_left,
            sheep_pile=obs.sheep_pile,
            discard_pile=obs.discard_pile,
            fence_pile=obs.fence_pile,
            wolf_area=obs.wolf,
            bonuses_available=[_BONUS[b] for b in obs.bonuses_available],
            bonus_colours_used=[_COLOUR[c] for c in obs.bonuses_used],
            context=list(obs.context),
            wolf_variant=obs.options_wolf,
            bonus_actions=obs.options_bonus_actions,
        )
        if obs.seat is not None:
            msg.seat = obs.seat
        if obs.to_move is not None:
            msg.to_move = obs.to_move
        msg.activation.fence = obs.activating
        msg.activation.icon = obs.icon
        msg.activation.queue.extend(obs.queue)
        msg.activation.activated.extend(obs.activated)
        return msg

    def observation_pieces(self, obs: StubbornSheepObservation) -> bytes:
        # Areas and fences change only where sheep moved or a fence was played, and
        # cards never change: their encodings are reused.
        return b"".join(
            (
                *(_area_bytes(a.index, a.owner, a.sheep) for a in obs.areas),
                *(
                    _fence_bytes(
                        f.index,
                        f.owner,
                        f.card,
                        f.orientation,
                        f.height,
                        f.left_area,
                        f.right_area,
                        f.jumps,
                    )
                    for f in obs.fences
                ),
                *(_HAND_CARD_BYTES[card] for card in obs.hand),
                *(
                    _seat_bytes(seat, obs.hand_sizes[seat], piles)
                    for seat, piles in enumerate(obs.scored)
                ),
            )
        )

    def action_to_proto(self, action: Any) -> pb.StubbornSheepAction:
        if isinstance(action, act.PlaceFence):
            return pb.StubbornSheepAction(
                place_fence=pb.StubbornSheepPlaceFence(
                    fence=action.fence,
                    orientation=_ORIENTATION[action.orientation],
                    card=action.card,
                )
            )
        if isinstance(action, act.PickSheep):
            return pb.StubbornSheepAction(pick_sheep=pb.StubbornSheepPickSheep(sheep=action.card))
        if isinstance(action, act.Bump):
            return pb.StubbornSheepAction(
                bump=pb.StubbornSheepBump(sheep=action.card, clockwise=action.clockwise)
            )
        if isinstance(action, act.Score):
            return pb.StubbornSheepAction(
                score=pb.StubbornSheepScore(
                    colour=_COLOUR[action.colour],
                    size=action.size,
                    jokers=action.jokers,
                    scored=list(action.scored),
                    discarded=list(action.discarded),
                )
            )
        if isinstance(action, act.StopScoring):
            return pb.StubbornSheepAction(stop_scoring=pb.StubbornSheepStopScoring())
        if isinstance(action, act.Continue):
            return pb.StubbornSheepAction(proceed=pb.StubbornSheepContinue())
        if isinstance(action, act.Decline):
            return pb.StubbornSheepAction(decline=pb.StubbornSheepDecline())
        if isinstance(action, act.UseBonus):
            return pb.StubbornSheepAction(
                use_bonus=pb.StubbornSheepUseBonus(
                    bonus=_BONUS[action.bonus], fence=action.fence, area=action.area
                )
            )
        if isinstance(action, act.MoveSheep):
            return pb.StubbornSheepAction(
                move_sheep=pb.StubbornSheepMoveSheep(
                    sheep=action.card, clockwise=action.clockwise, fences=action.fences
                )
            )
        if isinstance(action, act.TurnFence):
            return pb.StubbornSheepAction(
                turn_fence=pb.StubbornSheepTurnFence(fence=action.fence, turn=action.turn)
            )
        raise TypeError(f"not a Stubborn Sheep action: {action!r}")

    def action_from_proto(self, msg: pb.StubbornSheepAction) -> Any:
        """The engine action a message stands for (the inverse of `action_to_proto`)."""
        kind = msg.WhichOneof("kind")
        if kind == "place_fence":
            m = msg.place_fence
            return act.PlaceFence(m.fence, m.orientation - 1, m.card)
        if kind == "pick_sheep":
            return act.PickSheep(msg.pick_sheep.sheep)
        if kind == "bump":
            return act.Bump(msg.bump.sheep, msg.bump.clockwise)
        if kind == "score":
            m = msg.score
            return act.Score(m.colour - 1, tuple(m.scored), tuple(m.discarded))
        if kind == "stop_scoring":
            return act.StopScoring()
        if kind == "proceed":
            return act.Continue()
        if kind == "decline":
            return act.Decline()
        if kind == "use_bonus":
            m = msg.use_bonus
            return act.UseBonus(m.bonus - 1, m.fence, m.area)
        if kind == "move_sheep":
            m = msg.move_sheep
            return act.MoveSheep(m.sheep, m.clockwise, m.fences)
        if kind == "turn_fence":
            return act.TurnFence(msg.turn_fence.fence, msg.turn_fence.turn)
        raise ValueError("empty Stubborn Sheep action")

    def event_to_proto(self, payload: Any) -> pb.StubbornSheepEvent:
        p = payload
        if isinstance(p, ev.IconJump):
            m = pb.StubbornSheepIconJump(
                fence=p.fence,
                icon=p.icon,
                colour=_COLOUR[p.colour],
                from_area=p.from_area,
                to_area=p.to_area,
                moved=p.card >= 0,
            )
            if p.card >= 0:
                m.sheep.CopyFrom(sheep_msg(p.card))
            return pb.StubbornSheepEvent(icon_jump=m)
        if isinstance(p, ev.SheepMoved):
            return pb.StubbornSheepEvent(
                sheep_moved=pb.StubbornSheepSheepMoved(
                    cause=_CAUSE[p.cause],
                    sheep=sheep_msg(p.card),
                    from_area=p.from_area,
                    to_area=p.to_area,
                    fence=p.fence,
                )
            )
        if isinstance(p, ev.FenceActivated):
            return pb.StubbornSheepEvent(
                fence_activated=pb.StubbornSheepFenceActivated(
                    fence=p.fence,
                    card=fence_card_msg(p.card),
                    orientation=_ORIENTATION[p.orientation],
                )
            )
        if isinstance(p, ev.SheepPlaced):
            return pb.StubbornSheepEvent(
                sheep_placed=pb.StubbornSheepSheepPlaced(
                    area=p.area, sheep=_sheep(p.cards), reason=p.reason
                )
            )
        if isinstance(p, ev.FencePlaced):
            return pb.StubbornSheepEvent(
                fence_placed=pb.StubbornSheepFencePlaced(
                    seat=p.seat,
                    fence=p.fence,
                    card=fence_card_msg(p.card),
                    orientation=_ORIENTATION[p.orientation],
                )
            )
        if isinstance(p, ev.SheepScored):
            return pb.StubbornSheepEvent(
                sheep_scored=pb.StubbornSheepSheepScored(
                    seat=p.seat,
                    colour=_COLOUR[p.colour],
                    scored=_sheep(p.scored),
                    discarded=_sheep(p.discarded),
                )
            )
        if isinstance(p, ev.TurnStarted):
            return pb.StubbornSheepEvent(
                turn_started=pb.StubbornSheepTurnStarted(seat=p.seat, turn=p.turn, final=p.final)
            )
        if isinstance(p, ev.FenceDrawn):
            m = pb.StubbornSheepFenceDrawn(seat=p.seat)
            if p.card >= 0:
                m.card.CopyFrom(fence_card_msg(p.card))
            return pb.StubbornSheepEvent(fence_drawn=m)
        if isinstance(p, ev.WolfMoved):
            return pb.StubbornSheepEvent(
                wolf_moved=pb.StubbornSheepWolfMoved(
                    from_area=p.from_area, to_area=p.to_area, discarded=_sheep(p.discarded)
                )
            )
        if isinstance(p, ev.BonusUsed):
            return pb.StubbornSheepEvent(
                bonus_used=pb.StubbornSheepBonusUsed(
                    seat=p.seat, bonus=_BONUS[p.bonus], fence=p.fence, area=p.area
                )
            )
        if isinstance(p, ev.FenceRotated):
            return pb.StubbornSheepEvent(
                fence_rotated=pb.StubbornSheepFenceRotated(
                    fence=p.fence, orientation=_ORIENTATION[p.orientation]
                )
            )
        if isinstance(p, ev.FenceOriented):
            return pb.StubbornSheepEvent(
                fence_oriented=pb.StubbornSheepFenceOriented(
                    seat=p.seat,
                    fence=p.fence,
                    orientation=_ORIENTATION[p.orientation],
                    turned=p.turned,
                )
            )
        if isinstance(p, ev.SheepReshuffled):
            return pb.StubbornSheepEvent(
                sheep_reshuffled=pb.StubbornSheepSheepReshuffled(count=p.count)
            )
        if isinstance(p, ev.FinalRound):
            return pb.StubbornSheepEvent(final_round=pb.StubbornSheepFinalRound(seat=p.seat))
        if isinstance(p, ev.GameOver):
            return pb.StubbornSheepEvent(game_over=pb.StubbornSheepGameOver(scores=list(p.scores)))
        raise TypeError(f"not a Stubborn Sheep event: {p!r}")


# Codecs hold no state: one per game, shared by every match, so memos keyed on
# the codec (server.convert.legal_action_bytes) serve them all.
CODEC = StubbornSheepCodec()
