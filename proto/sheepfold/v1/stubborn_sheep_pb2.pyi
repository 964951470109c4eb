from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StubbornSheepColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_COLOUR_UNSPECIFIED: _ClassVar[StubbornSheepColour]
    STUBBORN_SHEEP_COLOUR_BLUE: _ClassVar[StubbornSheepColour]
    STUBBORN_SHEEP_COLOUR_RED: _ClassVar[StubbornSheepColour]
    STUBBORN_SHEEP_COLOUR_YELLOW: _ClassVar[StubbornSheepColour]
    STUBBORN_SHEEP_COLOUR_WHITE: _ClassVar[StubbornSheepColour]

class StubbornSheepBonus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_BONUS_UNSPECIFIED: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_PEN_PLUS_ONE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_MEADOW_TO_SIX: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_ALL_MEADOWS_TO_FIVE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_ROTATE_FENCE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_ACTIVATE_TWICE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_ACTIVATE_EXTRA: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_YELLOW_TAKES_TWO: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_BLUE_STOPS_AFTER_ONE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_BLUE_SINGLE_STEP: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_MOVE_BLUE: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_MOVE_RED: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_MOVE_YELLOW: _ClassVar[StubbornSheepBonus]
    STUBBORN_SHEEP_BONUS_MOVE_WHITE: _ClassVar[StubbornSheepBonus]

class StubbornSheepSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_SIDE_UNSPECIFIED: _ClassVar[StubbornSheepSide]
    STUBBORN_SHEEP_SIDE_LEFT: _ClassVar[StubbornSheepSide]
    STUBBORN_SHEEP_SIDE_RIGHT: _ClassVar[StubbornSheepSide]

class StubbornSheepOrientation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_ORIENTATION_UNSPECIFIED: _ClassVar[StubbornSheepOrientation]
    STUBBORN_SHEEP_ORIENTATION_UP: _ClassVar[StubbornSheepOrientation]
    STUBBORN_SHEEP_ORIENTATION_DOWN: _ClassVar[StubbornSheepOrientation]

class StubbornSheepPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_PHASE_UNSPECIFIED: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_ORIENT: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_BLUE_BONUS: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_PLACE: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_BETWEEN: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_JUMPER: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_YELLOW_TAKES_TWO: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_COMPANION: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_BUMP: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_BLUE_MODIFIER: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_SCORE: _ClassVar[StubbornSheepPhase]
    STUBBORN_SHEEP_PHASE_OVER: _ClassVar[StubbornSheepPhase]

class StubbornSheepCause(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STUBBORN_SHEEP_CAUSE_UNSPECIFIED: _ClassVar[StubbornSheepCause]
    STUBBORN_SHEEP_CAUSE_YELLOW_COMPANION: _ClassVar[StubbornSheepCause]
    STUBBORN_SHEEP_CAUSE_RED_BUMP: _ClassVar[StubbornSheepCause]
    STUBBORN_SHEEP_CAUSE_BLUE_RUN: _ClassVar[StubbornSheepCause]
    STUBBORN_SHEEP_CAUSE_BONUS_MOVE: _ClassVar[StubbornSheepCause]
STUBBORN_SHEEP_COLOUR_UNSPECIFIED: StubbornSheepColour
STUBBORN_SHEEP_COLOUR_BLUE: StubbornSheepColour
STUBBORN_SHEEP_COLOUR_RED: StubbornSheepColour
STUBBORN_SHEEP_COLOUR_YELLOW: StubbornSheepColour
STUBBORN_SHEEP_COLOUR_WHITE: StubbornSheepColour
STUBBORN_SHEEP_BONUS_UNSPECIFIED: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_PEN_PLUS_ONE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_MEADOW_TO_SIX: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_ALL_MEADOWS_TO_FIVE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_ROTATE_FENCE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_ACTIVATE_TWICE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_ACTIVATE_EXTRA: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_YELLOW_TAKES_TWO: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_BLUE_STOPS_AFTER_ONE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_BLUE_SINGLE_STEP: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_MOVE_BLUE: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_MOVE_RED: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_MOVE_YELLOW: StubbornSheepBonus
STUBBORN_SHEEP_BONUS_MOVE_WHITE: StubbornSheepBonus
STUBBORN_SHEEP_SIDE_UNSPECIFIED: StubbornSheepSide
STUBBORN_SHEEP_SIDE_LEFT: StubbornSheepSide
STUBBORN_SHEEP_SIDE_RIGHT: StubbornSheepSide
STUBBORN_SHEEP_ORIENTATION_UNSPECIFIED: StubbornSheepOrientation
STUBBORN_SHEEP_ORIENTATION_UP: StubbornSheepOrientation
STUBBORN_SHEEP_ORIENTATION_DOWN: StubbornSheepOrientation
STUBBORN_SHEEP_PHASE_UNSPECIFIED: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_ORIENT: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_BLUE_BONUS: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_PLACE: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_BETWEEN: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_JUMPER: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_YELLOW_TAKES_TWO: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_COMPANION: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_BUMP: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_BLUE_MODIFIER: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_SCORE: StubbornSheepPhase
STUBBORN_SHEEP_PHASE_OVER: StubbornSheepPhase
STUBBORN_SHEEP_CAUSE_UNSPECIFIED: StubbornSheepCause
STUBBORN_SHEEP_CAUSE_YELLOW_COMPANION: StubbornSheepCause
STUBBORN_SHEEP_CAUSE_RED_BUMP: StubbornSheepCause
STUBBORN_SHEEP_CAUSE_BLUE_RUN: StubbornSheepCause
STUBBORN_SHEEP_CAUSE_BONUS_MOVE: StubbornSheepCause

class StubbornSheepSheep(_message.Message):
    __slots__ = ("id", "colour", "bonus")
    ID_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    id: int
    colour: StubbornSheepColour
    bonus: StubbornSheepBonus
    def __init__(self, id: _Optional[int] = ..., colour: _Optional[_Union[StubbornSheepColour, str]] = ..., bonus: _Optional[_Union[StubbornSheepBonus, str]] = ...) -> None: ...

class StubbornSheepIcon(_message.Message):
    __slots__ = ("colour", "side")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    colour: StubbornSheepColour
    side: StubbornSheepSide
    def __init__(self, colour: _Optional[_Union[StubbornSheepColour, str]] = ..., side: _Optional[_Union[StubbornSheepSide, str]] = ...) -> None: ...

class StubbornSheepFenceCard(_message.Message):
    __slots__ = ("id", "icons")
    ID_FIELD_NUMBER: _ClassVar[int]
    ICONS_FIELD_NUMBER: _ClassVar[int]
    id: int
    icons: _containers.RepeatedCompositeFieldContainer[StubbornSheepIcon]
    def __init__(self, id: _Optional[int] = ..., icons: _Optional[_Iterable[_Union[StubbornSheepIcon, _Mapping]]] = ...) -> None: ...

class StubbornSheepJump(_message.Message):
    __slots__ = ("colour", "from_area", "to_area")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    FROM_AREA_FIELD_NUMBER: _ClassVar[int]
    TO_AREA_FIELD_NUMBER: _ClassVar[int]
    colour: StubbornSheepColour
    from_area: int
    to_area: int
    def __init__(self, colour: _Optional[_Union[StubbornSheepColour, str]] = ..., from_area: _Optional[int] = ..., to_area: _Optional[int] = ...) -> None: ...

class StubbornSheepArea(_message.Message):
    __slots__ = ("index", "owner", "sheep")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    index: int
    owner: int
    sheep: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    def __init__(self, index: _Optional[int] = ..., owner: _Optional[int] = ..., sheep: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ...) -> None: ...

class StubbornSheepFence(_message.Message):
    __slots__ = ("index", "owner", "card", "orientation", "height", "left_area", "right_area", "jumps")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    LEFT_AREA_FIELD_NUMBER: _ClassVar[int]
    RIGHT_AREA_FIELD_NUMBER: _ClassVar[int]
    JUMPS_FIELD_NUMBER: _ClassVar[int]
    index: int
    owner: int
    card: StubbornSheepFenceCard
    orientation: StubbornSheepOrientation
    height: int
    left_area: int
    right_area: int
    jumps: _containers.RepeatedCompositeFieldContainer[StubbornSheepJump]
    def __init__(self, index: _Optional[int] = ..., owner: _Optional[int] = ..., card: _Optional[_Union[StubbornSheepFenceCard, _Mapping]] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ..., height: _Optional[int] = ..., left_area: _Optional[int] = ..., right_area: _Optional[int] = ..., jumps: _Optional[_Iterable[_Union[StubbornSheepJump, _Mapping]]] = ...) -> None: ...

class StubbornSheepScorePile(_message.Message):
    __slots__ = ("colour", "sheep")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    colour: StubbornSheepColour
    sheep: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    def __init__(self, colour: _Optional[_Union[StubbornSheepColour, str]] = ..., sheep: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ...) -> None: ...

class StubbornSheepPlayer(_message.Message):
    __slots__ = ("seat", "hand_size", "scored", "points", "sets")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_size: int
    scored: _containers.RepeatedCompositeFieldContainer[StubbornSheepScorePile]
    points: int
    sets: int
    def __init__(self, seat: _Optional[int] = ..., hand_size: _Optional[int] = ..., scored: _Optional[_Iterable[_Union[StubbornSheepScorePile, _Mapping]]] = ..., points: _Optional[int] = ..., sets: _Optional[int] = ...) -> None: ...

class StubbornSheepActivation(_message.Message):
    __slots__ = ("fence", "queue", "activated", "icon")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    ICON_FIELD_NUMBER: _ClassVar[int]
    fence: int
    queue: _containers.RepeatedScalarFieldContainer[int]
    activated: _containers.RepeatedScalarFieldContainer[int]
    icon: int
    def __init__(self, fence: _Optional[int] = ..., queue: _Optional[_Iterable[int]] = ..., activated: _Optional[_Iterable[int]] = ..., icon: _Optional[int] = ...) -> None: ...

class StubbornSheepObservation(_message.Message):
    __slots__ = ("seat", "players", "to_move", "current", "phase", "turn", "final_round", "turns_left", "areas", "fences", "hand", "seats", "sheep_pile", "discard_pile", "fence_pile", "wolf_area", "activation", "bonuses_available", "bonus_colours_used", "context", "wolf_variant", "bonus_actions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINAL_ROUND_FIELD_NUMBER: _ClassVar[int]
    TURNS_LEFT_FIELD_NUMBER: _ClassVar[int]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    FENCES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SHEEP_PILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    FENCE_PILE_FIELD_NUMBER: _ClassVar[int]
    WOLF_AREA_FIELD_NUMBER: _ClassVar[int]
    ACTIVATION_FIELD_NUMBER: _ClassVar[int]
    BONUSES_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    BONUS_COLOURS_USED_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    WOLF_VARIANT_FIELD_NUMBER: _ClassVar[int]
    BONUS_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    to_move: int
    current: int
    phase: StubbornSheepPhase
    turn: int
    final_round: bool
    turns_left: int
    areas: _containers.RepeatedCompositeFieldContainer[StubbornSheepArea]
    fences: _containers.RepeatedCompositeFieldContainer[StubbornSheepFence]
    hand: _containers.RepeatedCompositeFieldContainer[StubbornSheepFenceCard]
    seats: _containers.RepeatedCompositeFieldContainer[StubbornSheepPlayer]
    sheep_pile: int
    discard_pile: int
    fence_pile: int
    wolf_area: int
    activation: StubbornSheepActivation
    bonuses_available: _containers.RepeatedScalarFieldContainer[StubbornSheepBonus]
    bonus_colours_used: _containers.RepeatedScalarFieldContainer[StubbornSheepColour]
    context: _containers.RepeatedScalarFieldContainer[int]
    wolf_variant: bool
    bonus_actions: bool
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., to_move: _Optional[int] = ..., current: _Optional[int] = ..., phase: _Optional[_Union[StubbornSheepPhase, str]] = ..., turn: _Optional[int] = ..., final_round: _Optional[bool] = ..., turns_left: _Optional[int] = ..., areas: _Optional[_Iterable[_Union[StubbornSheepArea, _Mapping]]] = ..., fences: _Optional[_Iterable[_Union[StubbornSheepFence, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[StubbornSheepFenceCard, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[StubbornSheepPlayer, _Mapping]]] = ..., sheep_pile: _Optional[int] = ..., discard_pile: _Optional[int] = ..., fence_pile: _Optional[int] = ..., wolf_area: _Optional[int] = ..., activation: _Optional[_Union[StubbornSheepActivation, _Mapping]] = ..., bonuses_available: _Optional[_Iterable[_Union[StubbornSheepBonus, str]]] = ..., bonus_colours_used: _Optional[_Iterable[_Union[StubbornSheepColour, str]]] = ..., context: _Optional[_Iterable[int]] = ..., wolf_variant: _Optional[bool] = ..., bonus_actions: _Optional[bool] = ...) -> None: ...

class StubbornSheepTurnFence(_message.Message):
    __slots__ = ("fence", "turn")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    fence: int
    turn: bool
    def __init__(self, fence: _Optional[int] = ..., turn: _Optional[bool] = ...) -> None: ...

class StubbornSheepPlaceFence(_message.Message):
    __slots__ = ("fence", "orientation", "card")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    fence: int
    orientation: StubbornSheepOrientation
    card: int
    def __init__(self, fence: _Optional[int] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ..., card: _Optional[int] = ...) -> None: ...

class StubbornSheepPickSheep(_message.Message):
    __slots__ = ("sheep",)
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    sheep: int
    def __init__(self, sheep: _Optional[int] = ...) -> None: ...

class StubbornSheepBump(_message.Message):
    __slots__ = ("sheep", "clockwise")
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    CLOCKWISE_FIELD_NUMBER: _ClassVar[int]
    sheep: int
    clockwise: bool
    def __init__(self, sheep: _Optional[int] = ..., clockwise: _Optional[bool] = ...) -> None: ...

class StubbornSheepScore(_message.Message):
    __slots__ = ("colour", "size", "jokers", "scored", "discarded")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    JOKERS_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    colour: StubbornSheepColour
    size: int
    jokers: int
    scored: _containers.RepeatedScalarFieldContainer[int]
    discarded: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, colour: _Optional[_Union[StubbornSheepColour, str]] = ..., size: _Optional[int] = ..., jokers: _Optional[int] = ..., scored: _Optional[_Iterable[int]] = ..., discarded: _Optional[_Iterable[int]] = ...) -> None: ...

class StubbornSheepStopScoring(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StubbornSheepContinue(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StubbornSheepDecline(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StubbornSheepUseBonus(_message.Message):
    __slots__ = ("bonus", "fence", "area")
    BONUS_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    AREA_FIELD_NUMBER: _ClassVar[int]
    bonus: StubbornSheepBonus
    fence: int
    area: int
    def __init__(self, bonus: _Optional[_Union[StubbornSheepBonus, str]] = ..., fence: _Optional[int] = ..., area: _Optional[int] = ...) -> None: ...

class StubbornSheepMoveSheep(_message.Message):
    __slots__ = ("sheep", "clockwise", "fences")
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    CLOCKWISE_FIELD_NUMBER: _ClassVar[int]
    FENCES_FIELD_NUMBER: _ClassVar[int]
    sheep: int
    clockwise: bool
    fences: int
    def __init__(self, sheep: _Optional[int] = ..., clockwise: _Optional[bool] = ..., fences: _Optional[int] = ...) -> None: ...

class StubbornSheepAction(_message.Message):
    __slots__ = ("turn_fence", "place_fence", "pick_sheep", "bump", "score", "stop_scoring", "proceed", "decline", "use_bonus", "move_sheep")
    TURN_FENCE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FENCE_FIELD_NUMBER: _ClassVar[int]
    PICK_SHEEP_FIELD_NUMBER: _ClassVar[int]
    BUMP_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    STOP_SCORING_FIELD_NUMBER: _ClassVar[int]
    PROCEED_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    USE_BONUS_FIELD_NUMBER: _ClassVar[int]
    MOVE_SHEEP_FIELD_NUMBER: _ClassVar[int]
    turn_fence: StubbornSheepTurnFence
    place_fence: StubbornSheepPlaceFence
    pick_sheep: StubbornSheepPickSheep
    bump: StubbornSheepBump
    score: StubbornSheepScore
    stop_scoring: StubbornSheepStopScoring
    proceed: StubbornSheepContinue
    decline: StubbornSheepDecline
    use_bonus: StubbornSheepUseBonus
    move_sheep: StubbornSheepMoveSheep
    def __init__(self, turn_fence: _Optional[_Union[StubbornSheepTurnFence, _Mapping]] = ..., place_fence: _Optional[_Union[StubbornSheepPlaceFence, _Mapping]] = ..., pick_sheep: _Optional[_Union[StubbornSheepPickSheep, _Mapping]] = ..., bump: _Optional[_Union[StubbornSheepBump, _Mapping]] = ..., score: _Optional[_Union[StubbornSheepScore, _Mapping]] = ..., stop_scoring: _Optional[_Union[StubbornSheepStopScoring, _Mapping]] = ..., proceed: _Optional[_Union[StubbornSheepContinue, _Mapping]] = ..., decline: _Optional[_Union[StubbornSheepDecline, _Mapping]] = ..., use_bonus: _Optional[_Union[StubbornSheepUseBonus, _Mapping]] = ..., move_sheep: _Optional[_Union[StubbornSheepMoveSheep, _Mapping]] = ...) -> None: ...

class StubbornSheepFenceOriented(_message.Message):
    __slots__ = ("seat", "fence", "orientation", "turned")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    fence: int
    orientation: StubbornSheepOrientation
    turned: bool
    def __init__(self, seat: _Optional[int] = ..., fence: _Optional[int] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ..., turned: _Optional[bool] = ...) -> None: ...

class StubbornSheepSheepPlaced(_message.Message):
    __slots__ = ("area", "sheep", "reason")
    AREA_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    area: int
    sheep: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    reason: str
    def __init__(self, area: _Optional[int] = ..., sheep: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ..., reason: _Optional[str] = ...) -> None: ...

class StubbornSheepSheepReshuffled(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class StubbornSheepTurnStarted(_message.Message):
    __slots__ = ("seat", "turn", "final")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    final: bool
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ..., final: _Optional[bool] = ...) -> None: ...

class StubbornSheepBonusUsed(_message.Message):
    __slots__ = ("seat", "bonus", "fence", "area")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    AREA_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bonus: StubbornSheepBonus
    fence: int
    area: int
    def __init__(self, seat: _Optional[int] = ..., bonus: _Optional[_Union[StubbornSheepBonus, str]] = ..., fence: _Optional[int] = ..., area: _Optional[int] = ...) -> None: ...

class StubbornSheepFencePlaced(_message.Message):
    __slots__ = ("seat", "fence", "card", "orientation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    fence: int
    card: StubbornSheepFenceCard
    orientation: StubbornSheepOrientation
    def __init__(self, seat: _Optional[int] = ..., fence: _Optional[int] = ..., card: _Optional[_Union[StubbornSheepFenceCard, _Mapping]] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ...) -> None: ...

class StubbornSheepFenceRotated(_message.Message):
    __slots__ = ("fence", "orientation")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    fence: int
    orientation: StubbornSheepOrientation
    def __init__(self, fence: _Optional[int] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ...) -> None: ...

class StubbornSheepFenceActivated(_message.Message):
    __slots__ = ("fence", "card", "orientation")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    fence: int
    card: StubbornSheepFenceCard
    orientation: StubbornSheepOrientation
    def __init__(self, fence: _Optional[int] = ..., card: _Optional[_Union[StubbornSheepFenceCard, _Mapping]] = ..., orientation: _Optional[_Union[StubbornSheepOrientation, str]] = ...) -> None: ...

class StubbornSheepIconJump(_message.Message):
    __slots__ = ("fence", "icon", "colour", "from_area", "to_area", "moved", "sheep")
    FENCE_FIELD_NUMBER: _ClassVar[int]
    ICON_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    FROM_AREA_FIELD_NUMBER: _ClassVar[int]
    TO_AREA_FIELD_NUMBER: _ClassVar[int]
    MOVED_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    fence: int
    icon: int
    colour: StubbornSheepColour
    from_area: int
    to_area: int
    moved: bool
    sheep: StubbornSheepSheep
    def __init__(self, fence: _Optional[int] = ..., icon: _Optional[int] = ..., colour: _Optional[_Union[StubbornSheepColour, str]] = ..., from_area: _Optional[int] = ..., to_area: _Optional[int] = ..., moved: _Optional[bool] = ..., sheep: _Optional[_Union[StubbornSheepSheep, _Mapping]] = ...) -> None: ...

class StubbornSheepSheepMoved(_message.Message):
    __slots__ = ("cause", "sheep", "from_area", "to_area", "fence")
    CAUSE_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    FROM_AREA_FIELD_NUMBER: _ClassVar[int]
    TO_AREA_FIELD_NUMBER: _ClassVar[int]
    FENCE_FIELD_NUMBER: _ClassVar[int]
    cause: StubbornSheepCause
    sheep: StubbornSheepSheep
    from_area: int
    to_area: int
    fence: int
    def __init__(self, cause: _Optional[_Union[StubbornSheepCause, str]] = ..., sheep: _Optional[_Union[StubbornSheepSheep, _Mapping]] = ..., from_area: _Optional[int] = ..., to_area: _Optional[int] = ..., fence: _Optional[int] = ...) -> None: ...

class StubbornSheepSheepScored(_message.Message):
    __slots__ = ("seat", "colour", "scored", "discarded")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    colour: StubbornSheepColour
    scored: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    discarded: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    def __init__(self, seat: _Optional[int] = ..., colour: _Optional[_Union[StubbornSheepColour, str]] = ..., scored: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ..., discarded: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ...) -> None: ...

class StubbornSheepFenceDrawn(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: StubbornSheepFenceCard
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[StubbornSheepFenceCard, _Mapping]] = ...) -> None: ...

class StubbornSheepFinalRound(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class StubbornSheepWolfMoved(_message.Message):
    __slots__ = ("from_area", "to_area", "discarded")
    FROM_AREA_FIELD_NUMBER: _ClassVar[int]
    TO_AREA_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    from_area: int
    to_area: int
    discarded: _containers.RepeatedCompositeFieldContainer[StubbornSheepSheep]
    def __init__(self, from_area: _Optional[int] = ..., to_area: _Optional[int] = ..., discarded: _Optional[_Iterable[_Union[StubbornSheepSheep, _Mapping]]] = ...) -> None: ...

class StubbornSheepGameOver(_message.Message):
    __slots__ = ("scores",)
    SCORES_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ...) -> None: ...

class StubbornSheepEvent(_message.Message):
    __slots__ = ("fence_oriented", "sheep_placed", "sheep_reshuffled", "turn_started", "bonus_used", "fence_placed", "fence_rotated", "fence_activated", "icon_jump", "sheep_moved", "sheep_scored", "fence_drawn", "final_round", "wolf_moved", "game_over")
    FENCE_ORIENTED_FIELD_NUMBER: _ClassVar[int]
    SHEEP_PLACED_FIELD_NUMBER: _ClassVar[int]
    SHEEP_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    BONUS_USED_FIELD_NUMBER: _ClassVar[int]
    FENCE_PLACED_FIELD_NUMBER: _ClassVar[int]
    FENCE_ROTATED_FIELD_NUMBER: _ClassVar[int]
    FENCE_ACTIVATED_FIELD_NUMBER: _ClassVar[int]
    ICON_JUMP_FIELD_NUMBER: _ClassVar[int]
    SHEEP_MOVED_FIELD_NUMBER: _ClassVar[int]
    SHEEP_SCORED_FIELD_NUMBER: _ClassVar[int]
    FENCE_DRAWN_FIELD_NUMBER: _ClassVar[int]
    FINAL_ROUND_FIELD_NUMBER: _ClassVar[int]
    WOLF_MOVED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    fence_oriented: StubbornSheepFenceOriented
    sheep_placed: StubbornSheepSheepPlaced
    sheep_reshuffled: StubbornSheepSheepReshuffled
    turn_started: StubbornSheepTurnStarted
    bonus_used: StubbornSheepBonusUsed
    fence_placed: StubbornSheepFencePlaced
    fence_rotated: StubbornSheepFenceRotated
    fence_activated: StubbornSheepFenceActivated
    icon_jump: StubbornSheepIconJump
    sheep_moved: StubbornSheepSheepMoved
    sheep_scored: StubbornSheepSheepScored
    fence_drawn: StubbornSheepFenceDrawn
    final_round: StubbornSheepFinalRound
    wolf_moved: StubbornSheepWolfMoved
    game_over: StubbornSheepGameOver
    def __init__(self, fence_oriented: _Optional[_Union[StubbornSheepFenceOriented, _Mapping]] = ..., sheep_placed: _Optional[_Union[StubbornSheepSheepPlaced, _Mapping]] = ..., sheep_reshuffled: _Optional[_Union[StubbornSheepSheepReshuffled, _Mapping]] = ..., turn_started: _Optional[_Union[StubbornSheepTurnStarted, _Mapping]] = ..., bonus_used: _Optional[_Union[StubbornSheepBonusUsed, _Mapping]] = ..., fence_placed: _Optional[_Union[StubbornSheepFencePlaced, _Mapping]] = ..., fence_rotated: _Optional[_Union[StubbornSheepFenceRotated, _Mapping]] = ..., fence_activated: _Optional[_Union[StubbornSheepFenceActivated, _Mapping]] = ..., icon_jump: _Optional[_Union[StubbornSheepIconJump, _Mapping]] = ..., sheep_moved: _Optional[_Union[StubbornSheepSheepMoved, _Mapping]] = ..., sheep_scored: _Optional[_Union[StubbornSheepSheepScored, _Mapping]] = ..., fence_drawn: _Optional[_Union[StubbornSheepFenceDrawn, _Mapping]] = ..., final_round: _Optional[_Union[StubbornSheepFinalRound, _Mapping]] = ..., wolf_moved: _Optional[_Union[StubbornSheepWolfMoved, _Mapping]] = ..., game_over: _Optional[_Union[StubbornSheepGameOver, _Mapping]] = ...) -> None: ...
