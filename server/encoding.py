"""Play messages as bytes, put together from memoised encodings.

A decision is sent once and an event to a seat or two, so building a protobuf
tree for each, merging memoised pieces into it (a parse) and letting gRPC
serialise it again costs more than the game's own move. Protobuf reads a
message's fields in any order, and a sub-message field is just its own encoding
behind a tag and a length, so the server joins encodings instead: a decision's
scalar fields, its observation (from the codec's memoised pieces) and its legal
actions (one memoised encoding per action value); an event is its move number
joined to one memoised encoding per event value. The Play method's
response serialiser passes these bytes through (`PreEncodedResponses`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import Any

import grpc
from sheepfold.v1 import arena_pb2

from games.contract import Codec
from games.encoding import length_delimited, varint
from server.convert import legal_action_bytes
from server.interceptors import HandlerRewrite


def _number(message: Any, field: str) -> int:
    return int(message.DESCRIPTOR.fields_by_name[field].number)


_RESPONSE_DECISION = _number(arena_pb2.PlayResponse, "decision")
_RESPONSE_EVENT = _number(arena_pb2.PlayResponse, "event")
_DECISION_OBSERVATION = _number(arena_pb2.Decision, "observation")
_EVENT_MOVE_TAG = varint(_number(arena_pb2.EventMessage, "move") << 3)  # a varint field


@functools.cache
def _game_member(wrapper: Any, field: str) -> int:
    """The number of a game's member in a `oneof game` wrapper message."""
    return _number(wrapper, field)


def decision(
    codec: Codec,
    head: arena_pb2.Decision,
    observation: Any,
    actions: Sequence[Any],
) -> bytes:
    """A `PlayResponse` holding `head` (id, seat, prompt, clock) with the
    observation and the legal actions added."""
    observation_field = length_delimited(
        _game_member(arena_pb2.Observation, codec.field), codec.observation_bytes(observation)
    )
    body = b"".join(
        [
            head.SerializeToString(),
            length_delimited(_DECISION_OBSERVATION, observation_field),
            *[legal_action_bytes(codec, action) for action in actions],
        ]
    )
    return length_delimited(_RESPONSE_DECISION, body)


def event(codec: Codec, move: int, payload: Any) -> bytes:
    """A `PlayResponse` holding the event `payload` of action number `move`."""
    body = _event_body(codec, type(payload), payload)
    return length_delimited(_RESPONSE_EVENT, _EVENT_MOVE_TAG + varint(move) + body)


@functools.lru_cache(maxsize=16_384)
def _event_body(codec: Codec, kind: type, payload: Any) -> bytes:
    """An `EventMessage` without its move number: its text and its game's event.

    Events are frozen values and the same ones come back (a dog moving between
    the same cells, a card drawn and shown): with 16,384 entries three in four
    events or more hit after a few hundred games. `kind` keeps values of two
    classes that compare equal (named tuples) apart.
    """
    message = arena_pb2.EventMessage(text=payload.text)
    getattr(message.event, codec.field).CopyFrom(codec.event_to_proto(payload))
    return bytes(message.SerializeToString())


def serialize_response(message: Any) -> bytes:
    """A response serialiser that lets pre-encoded bytes through."""
    if isinstance(message, bytes):
        return message
    return bytes(message.SerializeToString())


class PreEncodedResponses(HandlerRewrite):
    """The given methods (full names, "/pkg.Service/Method") may answer with
    pre-encoded bytes as well as with messages."""

    def __init__(self, methods: Collection[str]) -> None:
        self.methods = frozenset(methods)

    def rewrite(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        if method not in self.methods:
            return handler
        return handler._replace(response_serializer=serialize_response)
