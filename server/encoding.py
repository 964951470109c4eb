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
from games.encoding import field_number, length_delimited, varint
from games.memo import Memo
from server import convert
from server.interceptors import HandlerRewrite

_RESPONSE_DECISION = field_number(arena_pb2.PlayResponse, "decision")
_RESPONSE_EVENT = field_number(arena_pb2.PlayResponse, "event")
_DECISION_OBSERVATION = field_number(arena_pb2.Decision, "observation")
_DECISION_ACTIONS = field_number(arena_pb2.Decision, "actions")
_DECISION_ID_TAG = varint(field_number(arena_pb2.Decision, "decision_id") << 3)  # varint fields
_DECISION_SEAT_TAG = varint(field_number(arena_pb2.Decision, "seat") << 3)
_DECISION_PROMPT = field_number(arena_pb2.Decision, "prompt")
_DECISION_CLOCK = field_number(arena_pb2.Decision, "clock")
_DECISION_EVENTS = field_number(arena_pb2.Decision, "events")
_EVENT_MOVE_TAG = varint(field_number(arena_pb2.EventMessage, "move") << 3)  # a varint field


@functools.cache
def _game_member(wrapper: Any, field: str) -> int:
    """The number of a game's member in a `oneof game` wrapper message."""
    return field_number(wrapper, field)


def decision_body(codec: Codec, head: bytes, observation: Any, actions: Sequence[Any]) -> bytes:
    """A `Decision` without events: `head` (from `decision_head`) with the
    observation and the legal actions."""
    observation_field = length_delimited(
        _game_member(arena_pb2.Observation, codec.field), codec.observation_bytes(observation)
    )
    return b"".join(
        [
            head,
            length_delimited(_DECISION_OBSERVATION, observation_field),
            *legal_actions_bytes(codec, actions),
        ]
    )


def decision_with_events(body: bytes, events: Sequence[bytes]) -> bytes:
    """A `PlayResponse` holding the `Decision` `body` with `events` (encoded
    `EventMessage`s, oldest first) added as its `events`."""
    if events:
        body = b"".join([body, *(length_delimited(_DECISION_EVENTS, e) for e in events)])
    return length_delimited(_RESPONSE_DECISION, body)


def decision_head(
    decision_id: int,
    seat: int,
    prompt: str,
    decision_seconds: float,
    time_bank_seconds: float,
    strikes: int,
    max_strikes: int,
) -> bytes:
    """A `Decision`'s id, seat, prompt and clock (proto3: zeros and empty text
    are left out, the clock message never is)."""
    head = _DECISION_ID_TAG + varint(decision_id) if decision_id else b""
    if seat:
        head += _DECISION_SEAT_TAG + varint(seat)
    if prompt:
        head += _prompt_field(prompt)
    return head + _clock_field(decision_seconds, time_bank_seconds, strikes, max_strikes)


@functools.lru_cache(maxsize=1024)
def _prompt_field(prompt: str) -> bytes:
    return length_delimited(_DECISION_PROMPT, prompt.encode())


@functools.lru_cache(maxsize=1024)
def _clock_field(
    decision_seconds: float, time_bank_seconds: float, strikes: int, max_strikes: int
) -> bytes:
    """A time bank changes only when a decision overruns: few distinct clocks."""
    clock = arena_pb2.Clock(
        decision_seconds=decision_seconds,
        time_bank_seconds=time_bank_seconds,
        strikes=strikes,
        max_strikes=max_strikes,
    )
    return length_delimited(_DECISION_CLOCK, clock.SerializeToString())


# Sheep & Garden offers about 35 placements a decision, 32,000 distinct ones over
# ten matches: 32,768 entries a game keep nearly all of them (8,192 missed 8.6
# actions a decision, 32,768 miss 0.8); about 12 MB for a game when full.
ACTION_MEMO_SIZE = 32_768


@functools.cache
def _action_memo(codec: Codec) -> Memo[Any, bytes]:
    """One memo per game: its codecs are shared objects, so every match of the
    game uses the same one."""
    return Memo(functools.partial(_legal_action_entry, codec), ACTION_MEMO_SIZE)


def legal_actions_bytes(codec: Codec, actions: Sequence[Any]) -> list[bytes]:
    """Each action as an entry of `Decision.actions`, tag included, memoised.

    Both memos here are keyed by value alone, one per game: actions and event
    payloads are frozen values, and within a game equal values are of one
    class (tests/contract/test_values_are_hashable.py checks it), so they
    encode alike."""
    return _action_memo(codec).many(actions)


def _legal_action_entry(codec: Codec, action: Any) -> bytes:
    return length_delimited(
        _DECISION_ACTIONS, convert.legal_action(codec, action).SerializeToString()
    )


def event_message(codec: Codec, move: int, payload: Any) -> bytes:
    """The `EventMessage` of the event `payload` of action number `move`."""
    return _EVENT_MOVE_TAG + varint(move) + _event_memo(codec)(payload)


def event_response(message: bytes) -> bytes:
    """A `PlayResponse` holding an `EventMessage` from `event_message`."""
    return length_delimited(_RESPONSE_EVENT, message)


# Events are frozen values and the same ones come back (a dog moving between the
# same cells, a card drawn and shown): with 16,384 entries a game three in four
# events or more hit after a few hundred games.
EVENT_MEMO_SIZE = 16_384


@functools.cache
def _event_memo(codec: Codec) -> Memo[Any, bytes]:
    return Memo(functools.partial(_event_body, codec), EVENT_MEMO_SIZE)


def _event_body(codec: Codec, payload: Any) -> bytes:
    """An `EventMessage` without its move number (zero, which proto3 leaves out):
    its text and its game's event."""
    return bytes(convert.event(codec, 0, payload).SerializeToString())


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
