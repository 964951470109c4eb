"""Engine values to wire messages, for any game, through the game's codec."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sheepfold.v1 import arena_pb2

from games.contract import Codec, Result
from games.options import OptionSpec


def game_info(game: Any) -> arena_pb2.GameInfo:
    return arena_pb2.GameInfo(
        name=game.name,
        title=game.title,
        min_players=game.min_players,
        max_players=game.max_players,
        options=[option_info(spec) for spec in game.option_specs],
    )


def option_info(spec: OptionSpec) -> arena_pb2.OptionInfo:
    info = arena_pb2.OptionInfo(
        name=spec.name,
        kind=spec.kind,
        default=spec.format_default(),
        description=spec.description,
        choices=list(spec.choices),
    )
    if spec.minimum is not None:
        info.minimum = spec.minimum
    if spec.maximum is not None:
        info.maximum = spec.maximum
    return info


def observation(codec: Codec, value: Any) -> arena_pb2.Observation:
    wrapper = arena_pb2.Observation()
    fill_observation(codec, wrapper, value)
    return wrapper


def fill_observation(codec: Codec, target: arena_pb2.Observation, value: Any) -> None:
    """Fill `target` in place: nested protobuf constructors copy, this does not."""
    getattr(target, codec.field).CopyFrom(codec.observation_to_proto(value))


def legal_action(codec: Codec, action: Any) -> arena_pb2.LegalAction:
    wrapper = arena_pb2.LegalAction(label=action.label)
    getattr(wrapper.action, codec.field).CopyFrom(codec.action_to_proto(action))
    return wrapper


def legal_actions(codec: Codec, actions: Sequence[Any]) -> list[arena_pb2.LegalAction]:
    return [legal_action(codec, action) for action in actions]


def event(codec: Codec, move: int, payload: Any) -> arena_pb2.EventMessage:
    message = arena_pb2.EventMessage()
    fill_event(codec, message, move, payload)
    return message


def fill_event(codec: Codec, target: arena_pb2.EventMessage, move: int, payload: Any) -> None:
    target.move = move
    target.text = payload.text
    getattr(target.event, codec.field).CopyFrom(codec.event_to_proto(payload))


def match_result(
    result: Result,
    seats: Sequence[arena_pb2.SeatInfo],
    end_reason: str,
) -> arena_pb2.MatchResult:
    # A disqualified seat wins nothing, even when every seat was disqualified
    # and so all share the first (and last) place.
    out = {seat.seat for seat in seats if seat.disqualified}
    return arena_pb2.MatchResult(
        scores=[float(score) for score in result.scores],
        ranks=list(result.ranks),
        winners=[seat for seat in result.winners if seat not in out],
        details_json=json.dumps(result.details, sort_keys=True, default=str),
        seats=list(seats),
        end_reason=end_reason,
    )
