"""Protobuf codec for Sheep Showdown (messages in sheep_showdown.proto).

Card codes and the wire enum share numbers; directions are shifted by one
because 0 is UNSPECIFIED on the wire.
"""

from __future__ import annotations

import functools
from typing import Any

from sheepfold.v1 import sheep_showdown_pb2 as pb

from games.encoding import PiecewiseObservationCodec, field_number, length_delimited
from games.sheep_showdown import actions as A
from games.sheep_showdown import events as E
from games.sheep_showdown.state import SheepShowdownObservation

_MOVES = {
    "step": pb.SHEEP_SHOWDOWN_MOVE_STEP,
    "wolf": pb.SHEEP_SHOWDOWN_MOVE_WOLF,
    "rocket": pb.SHEEP_SHOWDOWN_MOVE_ROCKET,
    "slide": pb.SHEEP_SHOWDOWN_MOVE_SLIDE,
    "shepherd": pb.SHEEP_SHOWDOWN_MOVE_SHEPHERD,
}
_OUT = {
    "blocked": pb.SHEEP_SHOWDOWN_OUT_REASON_BLOCKED,
    "bomb": pb.SHEEP_SHOWDOWN_OUT_REASON_BOMB,
    "no_step": pb.SHEEP_SHOWDOWN_OUT_REASON_NO_STEP,
}
_ENDS = {
    "last_steps": pb.SHEEP_SHOWDOWN_END_REASON_LAST_STEPS,
    "nobody_left": pb.SHEEP_SHOWDOWN_END_REASON_NOBODY_LEFT,
    "turn_cap": pb.SHEEP_SHOWDOWN_END_REASON_TURN_CAP,
}
_PURPOSES = {"move": pb.SHEEP_SHOWDOWN_DOG_PURPOSE_MOVE, "wolf": pb.SHEEP_SHOWDOWN_DOG_PURPOSE_WOLF}
# The engine's directions (cards.DIRECTIONS: up, right, down, left, then the
# diagonals up-right, down-right, down-left, up-left) by number.
_DIRECTIONS = (
    pb.SHEEP_SHOWDOWN_DIRECTION_UP,
    pb.SHEEP_SHOWDOWN_DIRECTION_RIGHT,
    pb.SHEEP_SHOWDOWN_DIRECTION_DOWN,
    pb.SHEEP_SHOWDOWN_DIRECTION_LEFT,
    pb.SHEEP_SHOWDOWN_DIRECTION_UP_RIGHT,
    pb.SHEEP_SHOWDOWN_DIRECTION_DOWN_RIGHT,
    pb.SHEEP_SHOWDOWN_DIRECTION_DOWN_LEFT,
    pb.SHEEP_SHOWDOWN_DIRECTION_UP_LEFT,
)
_DECISIONS = {
    "none": pb.SHEEP_SHOWDOWN_DECISION_NONE,
    "place_dog": pb.SHEEP_SHOWDOWN_DECISION_PLACE_DOG,
    "choose_dog": pb.SHEEP_SHOWDOWN_DECISION_CHOOSE_DOG,
    "step": pb.SHEEP_SHOWDOWN_DECISION_STEP,
    "shepherd": pb.SHEEP_SHOWDOWN_DECISION_SHEPHERD,
    "rocket": pb.SHEEP_SHOWDOWN_DECISION_ROCKET,
    "blocker": pb.SHEEP_SHOWDOWN_DECISION_BLOCKER,
    "wolf_dog": pb.SHEEP_SHOWDOWN_DECISION_WOLF_DOG,
    "wolf_step": pb.SHEEP_SHOWDOWN_DECISION_WOLF_STEP,
    "steal": pb.SHEEP_SHOWDOWN_DECISION_STEAL,
    "use_card": pb.SHEEP_SHOWDOWN_DECISION_USE_CARD,
}


def _cell(row: int, col: int) -> pb.SheepShowdownCell:
    return pb.SheepShowdownCell(row=row, col=col)


_OBSERVATION_DOG = field_number(pb.SheepShowdownObservation, "dogs")


# Encoded observation fields, by their content: the grid changes when a card
# is taken or covered, a dog when it moves, the round scores once a round.
@functools.lru_cache(maxsize=2048)
def _grid_bytes(grid: tuple[int, ...]) -> bytes:
    return bytes(pb.SheepShowdownObservation(grid=list(grid)).SerializeToString())  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type


@functools.lru_cache(maxsize=4096)
def _dog_bytes(dog: int, owner: int, row: int | None, col: int | None, out: bool) -> bytes:
    message = pb.SheepShowdownDog(dog=dog, owner=owner, out=out)
    if row is not None and col is not None:
        message.cell.CopyFrom(_cell(row, col))
    return length_delimited(_OBSERVATION_DOG, message.SerializeToString())


@functools.lru_cache(maxsize=256)
def _round_scores_bytes(round_scores: tuple[tuple[int, ...], ...]) -> bytes:
    return bytes(
        pb.SheepShowdownObservation(
            round_scores=[
                pb.SheepShowdownRoundScores(scores=list(scores)) for scores in round_scores
            ]
        ).SerializeToString()
    )


class SheepShowdownCodec(PiecewiseObservationCodec):
    field = "sheep_showdown"

    def observation_head(self, obs: SheepShowdownObservation) -> pb.SheepShowdownObservation:
        msg = pb.SheepShowdownObservation(
            players=obs.players,
            double_trouble=obs.double_trouble,
            size=obs.size,
            round=obs.round,
            rounds=obs.rounds,
            first_player=obs.first_player,
            decision=_DECISIONS[obs.decision],
            flock_sizes=list(obs.flock_sizes),
            own_flock=list(obs.own_flock),  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type
            totals=list(obs.totals),
            players_in=list(obs.players_in),
            turn=obs.turn,
            turn_cap=obs.turn_cap,
            last_steps_left=obs.last_steps_left,
            out_at_turn=list(obs.out_at_turn),
            used_rockets=[_cell(row, col) for row, col in obs.used_rockets],
            free_at_turn_start=list(obs.free_at_turn_start),
            steal_from=list(obs.steal_from),
        )
        if obs.entered_direction is not None:
            msg.entered_direction = _DIRECTIONS[obs.entered_direction]
        if obs.seat is not None:
            msg.seat = obs.seat
        if obs.to_move is not None:
            msg.to_move = obs.to_move
        if obs.turn_player is not None:
            msg.turn_player = obs.turn_player
        if obs.decision_dog is not None:
            msg.decision_dog = obs.decision_dog
        if obs.last_player is not None:
            msg.last_player = obs.last_player
        return msg

    def observation_pieces(self, obs: SheepShowdownObservation) -> bytes:
        return b"".join(
            [
                _grid_bytes(obs.grid),
                *[_dog_bytes(d.dog, d.owner, d.row, d.col, d.out) for d in obs.dogs],
                _round_scores_bytes(obs.round_scores),
            ]
        )

    def action_to_proto(self, action: Any) -> pb.SheepShowdownAction:
        if isinstance(action, A.Step):
            return pb.SheepShowdownAction(
                step=pb.SheepShowdownStep(dog=action.dog, direction=_DIRECTIONS[action.direction])
            )
        if isinstance(action, A.SelectDog):
            return pb.SheepShowdownAction(
                select_dog=pb.SheepShowdownSelectDog(
                    dog=action.dog, purpose=_PURPOSES[action.purpose]
                )
            )
        if isinstance(action, A.PlaceDog):
            return pb.SheepShowdownAction(
                place_dog=pb.SheepShowdownPlaceDog(
                    dog=action.dog, cell=_cell(action.row, action.col)
                )
            )
        if isinstance(action, A.ShepherdJump):
            return pb.SheepShowdownAction(
                shepherd_jump=pb.SheepShowdownShepherdJump(
                    dog=action.dog, cell=_cell(action.row, action.col)
                )
            )
        if isinstance(action, A.RocketJump):
            return pb.SheepShowdownAction(
                rocket_jump=pb.SheepShowdownRocketJump(
                    dog=action.dog, direction=_DIRECTIONS[action.direction]
                )
            )
        if isinstance(action, A.PlaceBlocker):
            return pb.SheepShowdownAction(
                place_blocker=pb.SheepShowdownPlaceBlocker(cell=_cell(action.row, action.col))
            )
        if isinstance(action, A.Steal):
            return pb.SheepShowdownAction(
                steal=pb.SheepShowdownSteal(victim=action.victim, take=action.take)
            )
        if isinstance(action, A.UseCard):
            return pb.SheepShowdownAction(
                use_card=pb.SheepShowdownUseCard(
                    dog=action.dog,
                    card=action.card,  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type
                    use=action.use,
                )
            )
        raise TypeError(f"not a Sheep Showdown action: {action!r}")

    def event_to_proto(self, payload: Any) -> pb.SheepShowdownEvent:
        msg = pb.SheepShowdownEvent()
        if isinstance(payload, E.DogMoved):
            msg.dog_moved.CopyFrom(
                pb.SheepShowdownDogMoved(
                    seat=payload.seat,
                    dog=payload.dog,
                    from_cell=_cell(payload.from_row, payload.from_col),
                    to_cell=_cell(payload.to_row, payload.to_col),
                    how=_MOVES[payload.how],
                    by=payload.by,
                )
            )
        elif isinstance(payload, E.CardTaken):
            msg.card_taken.CopyFrom(
                pb.SheepShowdownCardTaken(
                    seat=payload.seat,
                    dog=payload.dog,
                    card=payload.card,  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type
                    cell=_cell(payload.row, payload.col),
                )
            )
        elif isinstance(payload, E.RoundStarted):
            msg.round_started.CopyFrom(
                pb.SheepShowdownRoundStarted(
                    round=payload.round,
                    first_player=payload.first_player,
                    size=payload.size,
                    grid=list(payload.grid),  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type
                )
            )
        elif isinstance(payload, E.DogPlaced):
            msg.dog_placed.CopyFrom(
                pb.SheepShowdownDogPlaced(
                    seat=payload.seat, dog=payload.dog, cell=_cell(payload.row, payload.col)
                )
            )
        elif isinstance(payload, E.ShepherdStays):
            msg.shepherd_stays.CopyFrom(
                pb.SheepShowdownShepherdStays(seat=payload.seat, dog=payload.dog)
            )
        elif isinstance(payload, E.BlockerPlaced):
            msg.blocker_placed.CopyFrom(
                pb.SheepShowdownBlockerPlaced(
                    seat=payload.seat, cell=_cell(payload.row, payload.col)
                )
            )
        elif isinstance(payload, E.BlockerDiscarded):
            msg.blocker_discarded.CopyFrom(pb.SheepShowdownBlockerDiscarded(seat=payload.seat))
        elif isinstance(payload, E.BombExploded):
            msg.bomb_exploded.CopyFrom(
                pb.SheepShowdownBombExploded(
                    seat=payload.seat,
                    dog=payload.dog,
                    cell=_cell(payload.row, payload.col),
                    removed=payload.removed,
                )
            )
        elif isinstance(payload, E.WolfNoTarget):
            msg.wolf_no_target.CopyFrom(pb.SheepShowdownWolfNoTarget(seat=payload.seat))
        elif isinstance(payload, E.DogOut):
            out = pb.SheepShowdownDogOut(
                seat=payload.seat, dog=payload.dog, reason=_OUT[payload.reason]
            )
            if payload.by is not None:
                out.by = payload.by
            msg.dog_out.CopyFrom(out)
        elif isinstance(payload, E.PlayerOut):
            msg.player_out.CopyFrom(pb.SheepShowdownPlayerOut(seat=payload.seat, turn=payload.turn))
        elif isinstance(payload, E.CardStolen):
            stolen = pb.SheepShowdownCardStolen(thief=payload.thief, victim=payload.victim)
            if payload.card is not None:
                stolen.card = payload.card  # type: ignore[assignment]  # card codes are the enum's numbers; the stubs want the enum type
            msg.card_stolen.CopyFrom(stolen)
        elif isinstance(payload, E.LastPlayer):
            msg.last_player.CopyFrom(
                pb.SheepShowdownLastPlayer(seat=payload.seat, steps=payload.steps)
            )
        elif isinstance(payload, E.RoundEnded):
            msg.round_ended.CopyFrom(
                pb.SheepShowdownRoundEnded(
                    round=payload.round,
                    reason=_ENDS[payload.reason],
                    round_scores=list(payload.round_scores),
                    totals=list(payload.totals),
                )
            )
        elif isinstance(payload, E.GameEnded):
            msg.game_ended.CopyFrom(
                pb.SheepShowdownGameEnded(totals=list(payload.totals), ranks=list(payload.ranks))
            )
        elif isinstance(payload, E.StealDeclined):
            msg.steal_declined.CopyFrom(
                pb.SheepShowdownStealDeclined(thief=payload.thief, victim=payload.victim)
            )
        elif isinstance(payload, E.CardDeclined):
            msg.card_declined.CopyFrom(
                pb.SheepShowdownCardDeclined(
                    seat=payload.seat,
                    dog=payload.dog,
                    card=payload.card,  # type: ignore[arg-type]  # card codes are the enum's numbers; the stubs want the enum type
                    by=payload.by,
                )
            )
        else:
            raise TypeError(f"not a Sheep Showdown event: {payload!r}")
        return msg


# Codecs hold no state: one per game, shared by every match, so memos keyed on
# the codec (server.convert.legal_action_bytes) serve them all.
CODEC = SheepShowdownCodec()
