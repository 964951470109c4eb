"""What the four games' protobuf codecs share: observations as bytes.

The server sends each observation once, as bytes; a codec that builds its
observation from memoised encodings (a small head message plus pieces that
change little from one decision to the next) hands the bytes over joined,
without parsing them into a message first.
"""

from __future__ import annotations

from typing import Any


def varint(value: int) -> bytes:
    """Protobuf's base-128 encoding of a non-negative integer."""
    if 0 <= value < _SMALL_LIMIT:
        return _SMALL[value]
    return _varint(value)


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# Tags, lengths and move numbers are nearly all below 2**14 (two bytes): every
# message field costs one or two of these, so they are looked up, not built.
_SMALL_LIMIT = 1 << 14
_SMALL = tuple(_varint(value) for value in range(_SMALL_LIMIT))


def field_number(message: Any, field: str) -> int:
    """The number of `field` in the protobuf message class `message`."""
    return int(message.DESCRIPTOR.fields_by_name[field].number)


def length_delimited(field_number: int, payload: bytes) -> bytes:
    """`payload` as the value of a bytes, string or message field: joined with
    other fields' encodings it adds that field to the message."""
    return varint(field_number << 3 | 2) + varint(len(payload)) + payload


class ObservationCodec:
    """`observation_bytes` for a codec that builds its observation message whole."""

    def observation_to_proto(self, observation: Any) -> Any:
        raise NotImplementedError

    def observation_bytes(self, observation: Any) -> bytes:
        """The encoding of `observation_to_proto(observation)` (fields may come in
        another order; protobuf reads them in any)."""
        return bytes(self.observation_to_proto(observation).SerializeToString())


class PiecewiseObservationCodec(ObservationCodec):
    """An observation = `observation_head` (a message with the fields that change
    every decision) merged with `observation_pieces` (memoised encodings)."""

    def observation_head(self, observation: Any) -> Any:
        raise NotImplementedError

    def observation_pieces(self, observation: Any) -> bytes:
        raise NotImplementedError

    def observation_to_proto(self, observation: Any) -> Any:
        message = self.observation_head(observation)
        message.MergeFromString(self.observation_pieces(observation))
        return message

    def observation_bytes(self, observation: Any) -> bytes:
        head: bytes = self.observation_head(observation).SerializeToString()
        return head + self.observation_pieces(observation)
