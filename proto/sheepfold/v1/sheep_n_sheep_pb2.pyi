from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SheepNSheepColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_N_SHEEP_COLOUR_UNSPECIFIED: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_WHITE: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_BLACK: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_BROWN: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_PINK: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_BLUE: _ClassVar[SheepNSheepColour]
    SHEEP_N_SHEEP_COLOUR_GREY: _ClassVar[SheepNSheepColour]

class SheepNSheepIcon(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_N_SHEEP_ICON_UNSPECIFIED: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_NONE: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_BELL: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_HEART: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_STAR: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_ONE_VP: _ClassVar[SheepNSheepIcon]
    SHEEP_N_SHEEP_ICON_DRAW: _ClassVar[SheepNSheepIcon]

class SheepNSheepPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_N_SHEEP_PHASE_UNSPECIFIED: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_TURN: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_SAME: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_RUN: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_DISCARD: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_FREE: _ClassVar[SheepNSheepPhase]
    SHEEP_N_SHEEP_PHASE_OVER: _ClassVar[SheepNSheepPhase]

class SheepNSheepPlacementKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_N_SHEEP_PLACEMENT_KIND_UNSPECIFIED: _ClassVar[SheepNSheepPlacementKind]
    SHEEP_N_SHEEP_PLACEMENT_KIND_SAME: _ClassVar[SheepNSheepPlacementKind]
    SHEEP_N_SHEEP_PLACEMENT_KIND_RUN: _ClassVar[SheepNSheepPlacementKind]
    SHEEP_N_SHEEP_PLACEMENT_KIND_FREE: _ClassVar[SheepNSheepPlacementKind]

class SheepNSheepBranch(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_N_SHEEP_BRANCH_NONE: _ClassVar[SheepNSheepBranch]
    SHEEP_N_SHEEP_BRANCH_UP: _ClassVar[SheepNSheepBranch]
    SHEEP_N_SHEEP_BRANCH_DOWN: _ClassVar[SheepNSheepBranch]
SHEEP_N_SHEEP_COLOUR_UNSPECIFIED: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_WHITE: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_BLACK: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_BROWN: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_PINK: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_BLUE: SheepNSheepColour
SHEEP_N_SHEEP_COLOUR_GREY: SheepNSheepColour
SHEEP_N_SHEEP_ICON_UNSPECIFIED: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_NONE: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_BELL: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_HEART: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_STAR: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_ONE_VP: SheepNSheepIcon
SHEEP_N_SHEEP_ICON_DRAW: SheepNSheepIcon
SHEEP_N_SHEEP_PHASE_UNSPECIFIED: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_TURN: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_SAME: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_RUN: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_DISCARD: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_FREE: SheepNSheepPhase
SHEEP_N_SHEEP_PHASE_OVER: SheepNSheepPhase
SHEEP_N_SHEEP_PLACEMENT_KIND_UNSPECIFIED: SheepNSheepPlacementKind
SHEEP_N_SHEEP_PLACEMENT_KIND_SAME: SheepNSheepPlacementKind
SHEEP_N_SHEEP_PLACEMENT_KIND_RUN: SheepNSheepPlacementKind
SHEEP_N_SHEEP_PLACEMENT_KIND_FREE: SheepNSheepPlacementKind
SHEEP_N_SHEEP_BRANCH_NONE: SheepNSheepBranch
SHEEP_N_SHEEP_BRANCH_UP: SheepNSheepBranch
SHEEP_N_SHEEP_BRANCH_DOWN: SheepNSheepBranch

class SheepNSheepCard(_message.Message):
    __slots__ = ("id", "colour", "number", "condition", "vp", "icon")
    ID_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    ICON_FIELD_NUMBER: _ClassVar[int]
    id: int
    colour: SheepNSheepColour
    number: int
    condition: int
    vp: int
    icon: SheepNSheepIcon
    def __init__(self, id: _Optional[int] = ..., colour: _Optional[_Union[SheepNSheepColour, str]] = ..., number: _Optional[int] = ..., condition: _Optional[int] = ..., vp: _Optional[int] = ..., icon: _Optional[_Union[SheepNSheepIcon, str]] = ...) -> None: ...

class SheepNSheepCell(_message.Message):
    __slots__ = ("x", "y")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ...) -> None: ...

class SheepNSheepMarketSet(_message.Message):
    __slots__ = ("index", "cards")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    index: int
    cards: _containers.RepeatedCompositeFieldContainer[SheepNSheepCard]
    def __init__(self, index: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[SheepNSheepCard, _Mapping]]] = ...) -> None: ...

class SheepNSheepPlacedCard(_message.Message):
    __slots__ = ("cell", "card")
    CELL_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    cell: SheepNSheepCell
    card: SheepNSheepCard
    def __init__(self, cell: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ...) -> None: ...

class SheepNSheepPasture(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[SheepNSheepPlacedCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[SheepNSheepPlacedCard, _Mapping]]] = ...) -> None: ...

class SheepNSheepPlacement(_message.Message):
    __slots__ = ("phase", "start", "placed", "number", "tip", "up_tip", "up_next", "down_tip", "down_next")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    TIP_FIELD_NUMBER: _ClassVar[int]
    UP_TIP_FIELD_NUMBER: _ClassVar[int]
    UP_NEXT_FIELD_NUMBER: _ClassVar[int]
    DOWN_TIP_FIELD_NUMBER: _ClassVar[int]
    DOWN_NEXT_FIELD_NUMBER: _ClassVar[int]
    phase: SheepNSheepPhase
    start: SheepNSheepCell
    placed: int
    number: int
    tip: SheepNSheepCell
    up_tip: SheepNSheepCell
    up_next: int
    down_tip: SheepNSheepCell
    down_next: int
    def __init__(self, phase: _Optional[_Union[SheepNSheepPhase, str]] = ..., start: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., placed: _Optional[int] = ..., number: _Optional[int] = ..., tip: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., up_tip: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., up_next: _Optional[int] = ..., down_tip: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., down_next: _Optional[int] = ...) -> None: ...

class SheepNSheepObservation(_message.Message):
    __slots__ = ("seat", "players", "to_move", "phase", "turn", "hand", "hand_sizes", "market", "pastures", "deck_size", "stock_size", "discard", "end_triggered", "last_turn", "placement")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    MARKET_FIELD_NUMBER: _ClassVar[int]
    PASTURES_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    LAST_TURN_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    to_move: int
    phase: SheepNSheepPhase
    turn: int
    hand: _containers.RepeatedCompositeFieldContainer[SheepNSheepCard]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    market: _containers.RepeatedCompositeFieldContainer[SheepNSheepMarketSet]
    pastures: _containers.RepeatedCompositeFieldContainer[SheepNSheepPasture]
    deck_size: int
    stock_size: int
    discard: _containers.RepeatedCompositeFieldContainer[SheepNSheepCard]
    end_triggered: bool
    last_turn: int
    placement: SheepNSheepPlacement
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., to_move: _Optional[int] = ..., phase: _Optional[_Union[SheepNSheepPhase, str]] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[SheepNSheepCard, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., market: _Optional[_Iterable[_Union[SheepNSheepMarketSet, _Mapping]]] = ..., pastures: _Optional[_Iterable[_Union[SheepNSheepPasture, _Mapping]]] = ..., deck_size: _Optional[int] = ..., stock_size: _Optional[int] = ..., discard: _Optional[_Iterable[_Union[SheepNSheepCard, _Mapping]]] = ..., end_triggered: _Optional[bool] = ..., last_turn: _Optional[int] = ..., placement: _Optional[_Union[SheepNSheepPlacement, _Mapping]] = ...) -> None: ...

class SheepNSheepAction(_message.Message):
    __slots__ = ("take_set", "begin", "discard", "place", "stop", "pass_turn")
    class TakeSet(_message.Message):
        __slots__ = ("index",)
        INDEX_FIELD_NUMBER: _ClassVar[int]
        index: int
        def __init__(self, index: _Optional[int] = ...) -> None: ...
    class Begin(_message.Message):
        __slots__ = ("kind", "start")
        KIND_FIELD_NUMBER: _ClassVar[int]
        START_FIELD_NUMBER: _ClassVar[int]
        kind: SheepNSheepPlacementKind
        start: SheepNSheepCell
        def __init__(self, kind: _Optional[_Union[SheepNSheepPlacementKind, str]] = ..., start: _Optional[_Union[SheepNSheepCell, _Mapping]] = ...) -> None: ...
    class Discard(_message.Message):
        __slots__ = ("card",)
        CARD_FIELD_NUMBER: _ClassVar[int]
        card: SheepNSheepCard
        def __init__(self, card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ...) -> None: ...
    class Place(_message.Message):
        __slots__ = ("card", "cell", "branch")
        CARD_FIELD_NUMBER: _ClassVar[int]
        CELL_FIELD_NUMBER: _ClassVar[int]
        BRANCH_FIELD_NUMBER: _ClassVar[int]
        card: SheepNSheepCard
        cell: SheepNSheepCell
        branch: SheepNSheepBranch
        def __init__(self, card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ..., cell: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., branch: _Optional[_Union[SheepNSheepBranch, str]] = ...) -> None: ...
    class Stop(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class Pass(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    TAKE_SET_FIELD_NUMBER: _ClassVar[int]
    BEGIN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    PASS_TURN_FIELD_NUMBER: _ClassVar[int]
    take_set: SheepNSheepAction.TakeSet
    begin: SheepNSheepAction.Begin
    discard: SheepNSheepAction.Discard
    place: SheepNSheepAction.Place
    stop: SheepNSheepAction.Stop
    pass_turn: SheepNSheepAction.Pass
    def __init__(self, take_set: _Optional[_Union[SheepNSheepAction.TakeSet, _Mapping]] = ..., begin: _Optional[_Union[SheepNSheepAction.Begin, _Mapping]] = ..., discard: _Optional[_Union[SheepNSheepAction.Discard, _Mapping]] = ..., place: _Optional[_Union[SheepNSheepAction.Place, _Mapping]] = ..., stop: _Optional[_Union[SheepNSheepAction.Stop, _Mapping]] = ..., pass_turn: _Optional[_Union[SheepNSheepAction.Pass, _Mapping]] = ...) -> None: ...

class SheepNSheepEvent(_message.Message):
    __slots__ = ("set_taken", "set_formed", "card_drawn", "end_triggered", "placement_begun", "card_discarded", "card_placed", "passed", "turn_ended", "game_ended")
    class SetTaken(_message.Message):
        __slots__ = ("seat", "index", "cards")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        INDEX_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        seat: int
        index: int
        cards: _containers.RepeatedCompositeFieldContainer[SheepNSheepCard]
        def __init__(self, seat: _Optional[int] = ..., index: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[SheepNSheepCard, _Mapping]]] = ...) -> None: ...
    class SetFormed(_message.Message):
        __slots__ = ("index", "cards", "from_stock")
        INDEX_FIELD_NUMBER: _ClassVar[int]
        CARDS_FIELD_NUMBER: _ClassVar[int]
        FROM_STOCK_FIELD_NUMBER: _ClassVar[int]
        index: int
        cards: _containers.RepeatedCompositeFieldContainer[SheepNSheepCard]
        from_stock: int
        def __init__(self, index: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[SheepNSheepCard, _Mapping]]] = ..., from_stock: _Optional[int] = ...) -> None: ...
    class CardDrawn(_message.Message):
        __slots__ = ("seat", "card", "from_stock")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        FROM_STOCK_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: SheepNSheepCard
        from_stock: bool
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ..., from_stock: _Optional[bool] = ...) -> None: ...
    class EndTriggered(_message.Message):
        __slots__ = ("seat", "last_turn")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        LAST_TURN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        last_turn: int
        def __init__(self, seat: _Optional[int] = ..., last_turn: _Optional[int] = ...) -> None: ...
    class PlacementBegun(_message.Message):
        __slots__ = ("seat", "kind", "start")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        KIND_FIELD_NUMBER: _ClassVar[int]
        START_FIELD_NUMBER: _ClassVar[int]
        seat: int
        kind: SheepNSheepPlacementKind
        start: SheepNSheepCell
        def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[SheepNSheepPlacementKind, str]] = ..., start: _Optional[_Union[SheepNSheepCell, _Mapping]] = ...) -> None: ...
    class CardDiscarded(_message.Message):
        __slots__ = ("seat", "card")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: SheepNSheepCard
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ...) -> None: ...
    class CardPlaced(_message.Message):
        __slots__ = ("seat", "card", "cell", "branch")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        CARD_FIELD_NUMBER: _ClassVar[int]
        CELL_FIELD_NUMBER: _ClassVar[int]
        BRANCH_FIELD_NUMBER: _ClassVar[int]
        seat: int
        card: SheepNSheepCard
        cell: SheepNSheepCell
        branch: SheepNSheepBranch
        def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[SheepNSheepCard, _Mapping]] = ..., cell: _Optional[_Union[SheepNSheepCell, _Mapping]] = ..., branch: _Optional[_Union[SheepNSheepBranch, str]] = ...) -> None: ...
    class Passed(_message.Message):
        __slots__ = ("seat",)
        SEAT_FIELD_NUMBER: _ClassVar[int]
        seat: int
        def __init__(self, seat: _Optional[int] = ...) -> None: ...
    class TurnEnded(_message.Message):
        __slots__ = ("seat", "turn")
        SEAT_FIELD_NUMBER: _ClassVar[int]
        TURN_FIELD_NUMBER: _ClassVar[int]
        seat: int
        turn: int
        def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...
    class GameEnded(_message.Message):
        __slots__ = ("scores", "winners")
        SCORES_FIELD_NUMBER: _ClassVar[int]
        WINNERS_FIELD_NUMBER: _ClassVar[int]
        scores: _containers.RepeatedScalarFieldContainer[int]
        winners: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...
    SET_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SET_FORMED_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_BEGUN_FIELD_NUMBER: _ClassVar[int]
    CARD_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    CARD_PLACED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    set_taken: SheepNSheepEvent.SetTaken
    set_formed: SheepNSheepEvent.SetFormed
    card_drawn: SheepNSheepEvent.CardDrawn
    end_triggered: SheepNSheepEvent.EndTriggered
    placement_begun: SheepNSheepEvent.PlacementBegun
    card_discarded: SheepNSheepEvent.CardDiscarded
    card_placed: SheepNSheepEvent.CardPlaced
    passed: SheepNSheepEvent.Passed
    turn_ended: SheepNSheepEvent.TurnEnded
    game_ended: SheepNSheepEvent.GameEnded
    def __init__(self, set_taken: _Optional[_Union[SheepNSheepEvent.SetTaken, _Mapping]] = ..., set_formed: _Optional[_Union[SheepNSheepEvent.SetFormed, _Mapping]] = ..., card_drawn: _Optional[_Union[SheepNSheepEvent.CardDrawn, _Mapping]] = ..., end_triggered: _Optional[_Union[SheepNSheepEvent.EndTriggered, _Mapping]] = ..., placement_begun: _Optional[_Union[SheepNSheepEvent.PlacementBegun, _Mapping]] = ..., card_discarded: _Optional[_Union[SheepNSheepEvent.CardDiscarded, _Mapping]] = ..., card_placed: _Optional[_Union[SheepNSheepEvent.CardPlaced, _Mapping]] = ..., passed: _Optional[_Union[SheepNSheepEvent.Passed, _Mapping]] = ..., turn_ended: _Optional[_Union[SheepNSheepEvent.TurnEnded, _Mapping]] = ..., game_ended: _Optional[_Union[SheepNSheepEvent.GameEnded, _Mapping]] = ...) -> None: ...
