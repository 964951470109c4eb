"""Protobuf conversion for Sheep & Garden (the `sheep_and_garden` oneof member)."""

from __future__ import annotations

import functools
from typing import Any

from sheepfold.v1 import sheep_and_garden_pb2 as pb

from games.encoding import PiecewiseObservationCodec
from games.memo import Memo
from games.sheep_and_garden.data import OBJECTIVE_BY_ID, TILES, Tile
from games.sheep_and_garden.model import (
    GameEnded,
    Place,
    PlacedTile,
    Reshuffled,
    SheepAndGardenObservation,
    TilePlaced,
    TilesShown,
)


def tile_face_to_proto(tile: Tile) -> pb.SheepAndGardenTileFace:
    return pb.SheepAndGardenTileFace(
        tile=tile.id,
        name=tile.name,
        segments=tile.segments,
        areas=[
            pb.SheepAndGardenArea(
                terrain=area.terrain,
                segments=list(area.segments),
                sheep=area.objects[0],
                cows=area.objects[1],
                humans=area.objects[2],
                trees=area.objects[3],
                houses=area.objects[4],
                fish=area.objects[5],
            )
            for area in tile.areas
        ],
        roads=[
            pb.SheepAndGardenRoad(
                segments=list(piece.segments),
                city_area=-1 if piece.city is None else piece.city,
            )
            for piece in tile.roads
        ],
        lands=[pb.SheepAndGardenLandGroup(areas=list(group)) for group in tile.lands],
    )


def _face_bytes(tile: Tile) -> bytes:
    return pb.SheepAndGardenObservation(faces=[tile_face_to_proto(tile)]).SerializeToString()


# Every tile's face, encoded once.
_FACE_BYTES: dict[int, bytes] = {tile.id: _face_bytes(tile) for tile in TILES}


@functools.lru_cache(maxsize=4096)
def _placed_bytes(tile: int, x: int, y: int, rotation: int) -> bytes:
    placed = pb.SheepAndGardenPlacedTile(tile=tile, x=x, y=y, rotation=rotation)
    return pb.SheepAndGardenObservation(placed=[placed]).SerializeToString()


def _encode_board(placed: tuple[PlacedTile, ...]) -> tuple[bytes, frozenset[int]]:
    """The placed tiles' encodings, in order, and which tiles they are.

    Tiles never move, so a board is the board of the decision before plus one
    tile: that one is found in the memo (a hash of tuples of ints) and extended,
    where the whole board was encoded tile by tile every decision."""
    before = _BOARDS.peek(placed[:-1]) if placed else None
    if before is None:
        board = b"".join([_placed_bytes(*tile) for tile in placed])
        return board, frozenset(tile.tile for tile in placed)
    last = placed[-1]
    return before[0] + _placed_bytes(*last), before[1] | {last.tile}


# Boards of the matches in play (one entry a match is enough); a board of 70
# tiles takes about 4 KB.
_BOARDS: Memo[tuple[PlacedTile, ...], tuple[bytes, frozenset[int]]] = Memo(_encode_board, 1024)


@functools.lru_cache(maxsize=1024)
def _objective_bytes(
    slot: int, holders: tuple[int, ...], face_up: bool, enemy: bool, card_id: str | None
) -> bytes:
    entry = pb.SheepAndGardenObjective(
        slot=slot, holders=list(holders), face_up=face_up, enemy=enemy
    )
    if card_id is not None:
        card = OBJECTIVE_BY_ID[card_id]
        entry.card, entry.name, entry.text = card.id, card.name, card.text
    return pb.SheepAndGardenObservation(objectives=[entry]).SerializeToString()


class SheepAndGardenCodec(PiecewiseObservationCodec):
    field = "sheep_and_garden"

    def observation_head(self, observation: SheepAndGardenObservation) -> Any:
        message = pb.SheepAndGardenObservation(
            players=observation.players,
            display=list(observation.display),
            deck_size=observation.deck_size,
            finished=observation.finished,
            end_reason=observation.end_reason,
        )
        if observation.seat is not None:
            message.seat = observation.seat
        if observation.to_move is not None:
            message.to_move = observation.to_move
        return message

    def observation_pieces(self, observation: SheepAndGardenObservation) -> bytes:
        board, tiles = _BOARDS(observation.placed)
        return b"".join(
            (
                *(
                    _objective_bytes(view.slot, view.holders, view.face_up, view.enemy, view.card)
                    for view in observation.objectives
                ),
                board,
                *map(_FACE_BYTES.__getitem__, sorted(tiles.union(observation.display))),
            )
        )

    def action_to_proto(self, action: Place) -> Any:
        return pb.SheepAndGardenAction(
            tile=action.tile, x=action.x, y=action.y, rotation=action.rotation
        )

    def event_to_proto(self, payload: Any) -> Any:
        message = pb.SheepAndGardenEvent(text=payload.text)
        if isinstance(payload, TilePlaced):
            message.placed.CopyFrom(
                pb.SheepAndGardenTilePlaced(
                    seat=payload.seat,
                    tile=payload.tile,
                    x=payload.x,
                    y=payload.y,
                    rotation=payload.rotation,
                )
            )
        elif isinstance(payload, TilesShown):
            message.shown.tiles.extend(payload.tiles)
        elif isinstance(payload, Reshuffled):
            message.reshuffled.returned.extend(payload.returned)
        elif isinstance(payload, GameEnded):
            message.ended.CopyFrom(
                pb.SheepAndGardenGameEnded(
                    reason=payload.reason, placed=payload.placed, scores=list(payload.scores)
                )
            )
        else:
            raise TypeError(f"not a Sheep & Garden event: {payload!r}")
        return message


def action_from_proto(message: Any) -> Place:
    """The engine action a protobuf action stands for (for round-trip checks and bots)."""
    return Place(message.tile, message.x, message.y, message.rotation)


# Codecs hold no state: one per game, shared by every match, so memos keyed on
# the codec (server.convert.legal_action_bytes) serve them all.
CODEC = SheepAndGardenCodec()
