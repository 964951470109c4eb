from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SheepAndGardenArea(_message.Message):
    __slots__ = ("terrain", "segments", "sheep", "cows", "humans", "trees", "houses", "fish")
    TERRAIN_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    COWS_FIELD_NUMBER: _ClassVar[int]
    HUMANS_FIELD_NUMBER: _ClassVar[int]
    TREES_FIELD_NUMBER: _ClassVar[int]
    HOUSES_FIELD_NUMBER: _ClassVar[int]
    FISH_FIELD_NUMBER: _ClassVar[int]
    terrain: str
    segments: _containers.RepeatedScalarFieldContainer[int]
    sheep: int
    cows: int
    humans: int
    trees: int
    houses: int
    fish: int
    def __init__(self, terrain: _Optional[str] = ..., segments: _Optional[_Iterable[int]] = ..., sheep: _Optional[int] = ..., cows: _Optional[int] = ..., humans: _Optional[int] = ..., trees: _Optional[int] = ..., houses: _Optional[int] = ..., fish: _Optional[int] = ...) -> None: ...

class SheepAndGardenRoad(_message.Message):
    __slots__ = ("segments", "city_area")
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    CITY_AREA_FIELD_NUMBER: _ClassVar[int]
    segments: _containers.RepeatedScalarFieldContainer[int]
    city_area: int
    def __init__(self, segments: _Optional[_Iterable[int]] = ..., city_area: _Optional[int] = ...) -> None: ...

class SheepAndGardenLandGroup(_message.Message):
    __slots__ = ("areas",)
    AREAS_FIELD_NUMBER: _ClassVar[int]
    areas: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, areas: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepAndGardenTileFace(_message.Message):
    __slots__ = ("tile", "name", "segments", "areas", "roads", "lands")
    TILE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    ROADS_FIELD_NUMBER: _ClassVar[int]
    LANDS_FIELD_NUMBER: _ClassVar[int]
    tile: int
    name: str
    segments: str
    areas: _containers.RepeatedCompositeFieldContainer[SheepAndGardenArea]
    roads: _containers.RepeatedCompositeFieldContainer[SheepAndGardenRoad]
    lands: _containers.RepeatedCompositeFieldContainer[SheepAndGardenLandGroup]
    def __init__(self, tile: _Optional[int] = ..., name: _Optional[str] = ..., segments: _Optional[str] = ..., areas: _Optional[_Iterable[_Union[SheepAndGardenArea, _Mapping]]] = ..., roads: _Optional[_Iterable[_Union[SheepAndGardenRoad, _Mapping]]] = ..., lands: _Optional[_Iterable[_Union[SheepAndGardenLandGroup, _Mapping]]] = ...) -> None: ...

class SheepAndGardenPlacedTile(_message.Message):
    __slots__ = ("tile", "x", "y", "rotation")
    TILE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    tile: int
    x: int
    y: int
    rotation: int
    def __init__(self, tile: _Optional[int] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class SheepAndGardenObjective(_message.Message):
    __slots__ = ("slot", "card", "name", "text", "holders", "face_up", "enemy")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    HOLDERS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    ENEMY_FIELD_NUMBER: _ClassVar[int]
    slot: int
    card: str
    name: str
    text: str
    holders: _containers.RepeatedScalarFieldContainer[int]
    face_up: bool
    enemy: bool
    def __init__(self, slot: _Optional[int] = ..., card: _Optional[str] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., holders: _Optional[_Iterable[int]] = ..., face_up: _Optional[bool] = ..., enemy: _Optional[bool] = ...) -> None: ...

class SheepAndGardenObservation(_message.Message):
    __slots__ = ("players", "seat", "to_move", "placed", "display", "deck_size", "objectives", "faces", "finished", "end_reason")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVES_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    players: int
    seat: int
    to_move: int
    placed: _containers.RepeatedCompositeFieldContainer[SheepAndGardenPlacedTile]
    display: _containers.RepeatedScalarFieldContainer[int]
    deck_size: int
    objectives: _containers.RepeatedCompositeFieldContainer[SheepAndGardenObjective]
    faces: _containers.RepeatedCompositeFieldContainer[SheepAndGardenTileFace]
    finished: bool
    end_reason: str
    def __init__(self, players: _Optional[int] = ..., seat: _Optional[int] = ..., to_move: _Optional[int] = ..., placed: _Optional[_Iterable[_Union[SheepAndGardenPlacedTile, _Mapping]]] = ..., display: _Optional[_Iterable[int]] = ..., deck_size: _Optional[int] = ..., objectives: _Optional[_Iterable[_Union[SheepAndGardenObjective, _Mapping]]] = ..., faces: _Optional[_Iterable[_Union[SheepAndGardenTileFace, _Mapping]]] = ..., finished: _Optional[bool] = ..., end_reason: _Optional[str] = ...) -> None: ...

class SheepAndGardenAction(_message.Message):
    __slots__ = ("tile", "x", "y", "rotation")
    TILE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    tile: int
    x: int
    y: int
    rotation: int
    def __init__(self, tile: _Optional[int] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class SheepAndGardenTilePlaced(_message.Message):
    __slots__ = ("seat", "tile", "x", "y", "rotation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    tile: int
    x: int
    y: int
    rotation: int
    def __init__(self, seat: _Optional[int] = ..., tile: _Optional[int] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class SheepAndGardenTilesShown(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, tiles: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepAndGardenReshuffled(_message.Message):
    __slots__ = ("returned",)
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    returned: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, returned: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepAndGardenGameEnded(_message.Message):
    __slots__ = ("reason", "placed", "scores")
    REASON_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    reason: str
    placed: int
    scores: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, reason: _Optional[str] = ..., placed: _Optional[int] = ..., scores: _Optional[_Iterable[float]] = ...) -> None: ...

class SheepAndGardenEvent(_message.Message):
    __slots__ = ("text", "placed", "shown", "reshuffled", "ended")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    text: str
    placed: SheepAndGardenTilePlaced
    shown: SheepAndGardenTilesShown
    reshuffled: SheepAndGardenReshuffled
    ended: SheepAndGardenGameEnded
    def __init__(self, text: _Optional[str] = ..., placed: _Optional[_Union[SheepAndGardenTilePlaced, _Mapping]] = ..., shown: _Optional[_Union[SheepAndGardenTilesShown, _Mapping]] = ..., reshuffled: _Optional[_Union[SheepAndGardenReshuffled, _Mapping]] = ..., ended: _Optional[_Union[SheepAndGardenGameEnded, _Mapping]] = ...) -> None: ...
