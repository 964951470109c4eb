"""Matches as lists of frames, the plain data the match page draws.

Frame n is the match after move n (frame 0: the set-up): who played the move,
what happened, and the observation the page draws. A live match's frames come
from the server's Watch stream (public information only). A finished match's
frames come from replaying its recorded actions through the engine, which also
gives what each seat saw and, for the "all cards" view, every seat's hand.
"""

from __future__ import annotations

import base64
import functools
import gzip
import json
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from sheepfold.v1 import arena_pb2

import games
from games.solo_title import solo_title
from server import convert

PUBLIC = "public"
ALL = "all"


class ViewError(ValueError):
    """A view name that is not public, all or seat-N for this match."""


def to_dict(message: Message) -> dict[str, Any]:
    """A protobuf message as JSON-ready data, every field present (the page's
    drawing code then needs no defaults of its own): what
    `json_format.MessageToDict(message, preserving_proto_field_name=True,
    always_print_fields_with_no_presence=True)` gives, several times faster,
    which matters because a live match converts every move."""
    return _converter(message.DESCRIPTOR)(message)


_LONG = {
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED64,
}


# How a field's value (each item, for a repeated one) becomes JSON-ready data;
# None: as it is.
_Value: TypeAlias = Callable[[Any], Any] | None


@functools.cache
def _converter(descriptor: Descriptor) -> Callable[[Message], dict[str, Any]]:
    fields: list[tuple[str, bool, bool, _Value]] = []
    for field in descriptor.fields:
        value: _Value
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type.GetOptions().map_entry:
                entry = field.message_type.fields_by_name["value"]
                if entry.type == FieldDescriptor.TYPE_MESSAGE:
                    value = _message_map(entry.message_type)
                else:
                    value = dict
                fields.append((field.name, False, False, value))
                continue
            value = _message(field.message_type)
        elif field.type == FieldDescriptor.TYPE_ENUM:
            names = {v.number: v.name for v in field.enum_type.values}
            value = _enum_name(names)
        elif field.type in _LONG:
            value = str
        elif field.type == FieldDescriptor.TYPE_BYTES:
            value = _base64
        else:
            value = None
        fields.append((field.name, field.is_repeated, field.has_presence, value))

    def convert(message: Message) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, repeated, presence, value in fields:
            if repeated:
                items = getattr(message, name)
                out[name] = [value(x) for x in items] if value else list(items)
            elif presence and not message.HasField(name):
                continue
            else:
                item = getattr(message, name)
                out[name] = value(item) if value else item
        return out

    return convert


# A field's converter, made once per field: closures, the quickest to call.


def _message(descriptor: Descriptor) -> Callable[[Message], dict[str, Any]]:
    return lambda message: _converter(descriptor)(message)


def _message_map(descriptor: Descriptor) -> Callable[[Mapping[Any, Message]], dict[Any, Any]]:
    return lambda entries: {key: _converter(descriptor)(e) for key, e in entries.items()}


def _enum_name(names: Mapping[int, str]) -> Callable[[int], str | int]:
    """A number without a name here (a newer schema's value) stays a number."""
    return lambda number: names.get(number, number)


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def observation_dict(observation: arena_pb2.Observation) -> dict[str, Any]:
    field = observation.WhichOneof("game")
    return to_dict(getattr(observation, field)) if field else {}


def result_dict(result: arena_pb2.MatchResult) -> dict[str, Any]:
    data = to_dict(result)
    data["details"] = _json_or_empty(result.details_json)
    del data["details_json"]
    title = solo_title(data["details"])
    if title:
        data["solo_title"] = title
    return data


def _json_or_empty(text: str) -> Any:
    import json

    try:
        return json.loads(text) if text else {}
    except ValueError:
        return {}


def check_view(view: str) -> str:
    """`view` if it is spelled as a view is ("public", "all", "seat-N" with one
    digit), else ViewError: one spelling per view, so one cache entry per view."""
    if view in (PUBLIC, ALL) or (
        len(view) == 6 and view.startswith("seat-") and view[5] in "0123456789"
    ):
        return view
    raise ViewError(f"unknown view {view[:40]!r}: use public, all, or seat-N")


def parse_view(view: str, players: int) -> int | str:
    """ "public", "all", or a seat number from "seat-N"."""
    if view in (PUBLIC, ALL):
        return view
    if check_view(view) and int(view[5:]) < players:
        return int(view[5:])
    raise ViewError(f"unknown view {view!r}: use public, all, or seat-0 to seat-{players - 1}")


@dataclass(frozen=True, slots=True)
class ReplayFrames:
    """Every frame of a finished match in one view, plus the match's header."""

    header: dict[str, Any]
    frames: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return {**self.header, "frames": self.frames}


def replay_frames(replay: arena_pb2.Replay, view: int | str) -> ReplayFrames:
    """Replay `replay` through the engine and describe each move as `view` saw it.

    Raises ValueError (games.InvalidOptions, IndexError turned into ValueError)
    when the record does not replay: unknown game, bad options, an action index
    the engine does not offer.
    """
    game = games.get(replay.game)
    codec = game.codec
    state = game.new_state(replay.players, replay.seed, dict(replay.options))
    seats = range(replay.players)

    def observe(state: Any) -> dict[str, Any]:
        frame: dict[str, Any] = {}
        if view == ALL:
            frame["observation"] = observation_dict(
                convert.observation(codec, state.observation(None))
            )
            frame["seats"] = [
                observation_dict(convert.observation(codec, state.observation(seat)))
                for seat in seats
            ]
        else:
            seat = None if view == PUBLIC else int(view)
            frame["observation"] = observation_dict(
                convert.observation(codec, state.observation(seat))
            )
        return frame

    frames = [
        {
            "move": 0,
            "seat": None,
            "label": "set-up",
            "forced": "",
            "events": [],
            "to_move": state.to_move,
            **observe(state),
        }
    ]
    for recorded in replay.actions:
        actions = state.legal_actions()
        if not 0 <= recorded.action_index < len(actions):
            raise ValueError(
                f"move {recorded.move}: action index {recorded.action_index} is not among "
                f"the {len(actions)} legal actions; the record does not replay"
            )
        action = actions[recorded.action_index]
        events = state.apply(action)
        frames.append(
            {
                "move": recorded.move,
                "seat": recorded.seat,
                "label": action.label,
                "forced": "forced" if recorded.forced else "",
                "events": _events(events, view),
                "to_move": state.to_move,
                **observe(state),
            }
        )
    header = {
        "match_id": replay.match_id,
        "game": replay.game,
        "title": game.title,
        "players": replay.players,
        "options": dict(replay.options),
        "seed": str(replay.seed),
        "view": view if isinstance(view, str) else f"seat-{view}",
        "result": result_dict(replay.result) if replay.HasField("result") else None,
    }
    return ReplayFrames(header, frames)


def _events(events: list[Any], view: int | str) -> list[dict[str, Any]]:
    out = []
    for event in events:
        if view == ALL:
            out.append({"text": event.payload.text, "to": event.seat})
            continue
        viewer = None if view == PUBLIC else int(view)
        payload = event.visible_to(viewer)
        if payload is not None:
            private = event.seat is not None and payload is event.payload
            out.append({"text": payload.text, "to": event.seat if private else None})
    return out


def watch_item(message: arena_pb2.WatchResponse) -> dict[str, Any]:
    """One Watch message as the live page receives it."""
    kind = message.WhichOneof("kind")
    if kind == "snapshot":
        snapshot = message.snapshot
        return {
            "kind": "snapshot",
            "move": snapshot.move,
            "to_move": snapshot.to_move if snapshot.HasField("to_move") else None,
            "observation": observation_dict(snapshot.observation),
        }
    if kind == "event":
        return {"kind": "event", "move": message.event.move, "text": message.event.text}
    if kind == "result":
        return {"kind": "result", "result": result_dict(message.result)}
    return {"kind": "unknown"}


def match_info_dict(info: arena_pb2.MatchInfo) -> dict[str, Any]:
    data = to_dict(info)
    data["status"] = arena_pb2.MatchStatus.Name(info.status).removeprefix("MATCH_STATUS_").lower()
    data["to_move"] = info.to_move if info.HasField("to_move") else None
    data["seed"] = str(info.seed) if info.HasField("seed") else None
    data["result"] = result_dict(info.result) if info.HasField("result") else None
    try:
        data["title"] = games.get(info.game).title
    except games.InvalidOptions:
        data["title"] = info.game
    return data


def render_json(replay_bytes: bytes, view: int | str) -> tuple[bytes, bytes]:
    """A finished match's frames in `view` as JSON, plain and gzipped. Runs in
    the viewer's replay process, so it takes and gives bytes; a record that
    does not replay is a ValueError."""
    replay = arena_pb2.Replay.FromString(replay_bytes)
    try:
        data = replay_frames(replay, view).as_dict()
    except (games.InvalidOptions, ValueError) as error:
        raise ValueError(f"the match record does not replay: {error}") from None
    plain = json.dumps(data, separators=(",", ":")).encode()
    return plain, gzip.compress(plain, 5)


def ignore_interrupts() -> None:
    """The replay process leaves Ctrl-C to the viewer, which ends it on the way out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
