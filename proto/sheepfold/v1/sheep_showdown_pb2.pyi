from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SheepShowdownCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_CARD_EMPTY: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SHEEP_1: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SHEEP_2: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SHEEP_3: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SHEEP_5: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SHEPHERD: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_ROCKET: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_BLOCKING: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_SLIDING: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_BOMB: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_WOLF: _ClassVar[SheepShowdownCard]
    SHEEP_SHOWDOWN_CARD_BLOCKED: _ClassVar[SheepShowdownCard]

class SheepShowdownDirection(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_DIRECTION_UNSPECIFIED: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_UP: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_RIGHT: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_DOWN: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_LEFT: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_UP_RIGHT: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_DOWN_RIGHT: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_DOWN_LEFT: _ClassVar[SheepShowdownDirection]
    SHEEP_SHOWDOWN_DIRECTION_UP_LEFT: _ClassVar[SheepShowdownDirection]

class SheepShowdownDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_DECISION_NONE: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_PLACE_DOG: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_CHOOSE_DOG: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_STEP: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_SHEPHERD: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_ROCKET: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_BLOCKER: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_WOLF_DOG: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_WOLF_STEP: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_STEAL: _ClassVar[SheepShowdownDecision]
    SHEEP_SHOWDOWN_DECISION_USE_CARD: _ClassVar[SheepShowdownDecision]

class SheepShowdownDogPurpose(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_DOG_PURPOSE_UNSPECIFIED: _ClassVar[SheepShowdownDogPurpose]
    SHEEP_SHOWDOWN_DOG_PURPOSE_MOVE: _ClassVar[SheepShowdownDogPurpose]
    SHEEP_SHOWDOWN_DOG_PURPOSE_WOLF: _ClassVar[SheepShowdownDogPurpose]

class SheepShowdownMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_MOVE_UNSPECIFIED: _ClassVar[SheepShowdownMove]
    SHEEP_SHOWDOWN_MOVE_STEP: _ClassVar[SheepShowdownMove]
    SHEEP_SHOWDOWN_MOVE_WOLF: _ClassVar[SheepShowdownMove]
    SHEEP_SHOWDOWN_MOVE_ROCKET: _ClassVar[SheepShowdownMove]
    SHEEP_SHOWDOWN_MOVE_SLIDE: _ClassVar[SheepShowdownMove]
    SHEEP_SHOWDOWN_MOVE_SHEPHERD: _ClassVar[SheepShowdownMove]

class SheepShowdownOutReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_OUT_REASON_UNSPECIFIED: _ClassVar[SheepShowdownOutReason]
    SHEEP_SHOWDOWN_OUT_REASON_BLOCKED: _ClassVar[SheepShowdownOutReason]
    SHEEP_SHOWDOWN_OUT_REASON_BOMB: _ClassVar[SheepShowdownOutReason]
    SHEEP_SHOWDOWN_OUT_REASON_NO_STEP: _ClassVar[SheepShowdownOutReason]

class SheepShowdownEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHEEP_SHOWDOWN_END_REASON_UNSPECIFIED: _ClassVar[SheepShowdownEndReason]
    SHEEP_SHOWDOWN_END_REASON_LAST_STEPS: _ClassVar[SheepShowdownEndReason]
    SHEEP_SHOWDOWN_END_REASON_NOBODY_LEFT: _ClassVar[SheepShowdownEndReason]
    SHEEP_SHOWDOWN_END_REASON_TURN_CAP: _ClassVar[SheepShowdownEndReason]
SHEEP_SHOWDOWN_CARD_EMPTY: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SHEEP_1: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SHEEP_2: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SHEEP_3: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SHEEP_5: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SHEPHERD: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_ROCKET: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_BLOCKING: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_SLIDING: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_BOMB: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_WOLF: SheepShowdownCard
SHEEP_SHOWDOWN_CARD_BLOCKED: SheepShowdownCard
SHEEP_SHOWDOWN_DIRECTION_UNSPECIFIED: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_UP: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_RIGHT: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_DOWN: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_LEFT: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_UP_RIGHT: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_DOWN_RIGHT: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_DOWN_LEFT: SheepShowdownDirection
SHEEP_SHOWDOWN_DIRECTION_UP_LEFT: SheepShowdownDirection
SHEEP_SHOWDOWN_DECISION_NONE: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_PLACE_DOG: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_CHOOSE_DOG: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_STEP: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_SHEPHERD: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_ROCKET: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_BLOCKER: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_WOLF_DOG: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_WOLF_STEP: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_STEAL: SheepShowdownDecision
SHEEP_SHOWDOWN_DECISION_USE_CARD: SheepShowdownDecision
SHEEP_SHOWDOWN_DOG_PURPOSE_UNSPECIFIED: SheepShowdownDogPurpose
SHEEP_SHOWDOWN_DOG_PURPOSE_MOVE: SheepShowdownDogPurpose
SHEEP_SHOWDOWN_DOG_PURPOSE_WOLF: SheepShowdownDogPurpose
SHEEP_SHOWDOWN_MOVE_UNSPECIFIED: SheepShowdownMove
SHEEP_SHOWDOWN_MOVE_STEP: SheepShowdownMove
SHEEP_SHOWDOWN_MOVE_WOLF: SheepShowdownMove
SHEEP_SHOWDOWN_MOVE_ROCKET: SheepShowdownMove
SHEEP_SHOWDOWN_MOVE_SLIDE: SheepShowdownMove
SHEEP_SHOWDOWN_MOVE_SHEPHERD: SheepShowdownMove
SHEEP_SHOWDOWN_OUT_REASON_UNSPECIFIED: SheepShowdownOutReason
SHEEP_SHOWDOWN_OUT_REASON_BLOCKED: SheepShowdownOutReason
SHEEP_SHOWDOWN_OUT_REASON_BOMB: SheepShowdownOutReason
SHEEP_SHOWDOWN_OUT_REASON_NO_STEP: SheepShowdownOutReason
SHEEP_SHOWDOWN_END_REASON_UNSPECIFIED: SheepShowdownEndReason
SHEEP_SHOWDOWN_END_REASON_LAST_STEPS: SheepShowdownEndReason
SHEEP_SHOWDOWN_END_REASON_NOBODY_LEFT: SheepShowdownEndReason
SHEEP_SHOWDOWN_END_REASON_TURN_CAP: SheepShowdownEndReason

class SheepShowdownCell(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class SheepShowdownDog(_message.Message):
    __slots__ = ("dog", "owner", "cell", "out")
    DOG_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    dog: int
    owner: int
    cell: SheepShowdownCell
    out: bool
    def __init__(self, dog: _Optional[int] = ..., owner: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ..., out: _Optional[bool] = ...) -> None: ...

class SheepShowdownRoundScores(_message.Message):
    __slots__ = ("scores",)
    SCORES_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepShowdownObservation(_message.Message):
    __slots__ = ("seat", "players", "double_trouble", "size", "round", "rounds", "first_player", "to_move", "turn_player", "decision", "decision_dog", "grid", "dogs", "flock_sizes", "own_flock", "totals", "round_scores", "players_in", "turn", "turn_cap", "last_player", "last_steps_left", "out_at_turn", "used_rockets", "free_at_turn_start", "steal_from", "entered_direction")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_TROUBLE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    TURN_PLAYER_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DECISION_DOG_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    DOGS_FIELD_NUMBER: _ClassVar[int]
    FLOCK_SIZES_FIELD_NUMBER: _ClassVar[int]
    OWN_FLOCK_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_IN_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    LAST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    LAST_STEPS_LEFT_FIELD_NUMBER: _ClassVar[int]
    OUT_AT_TURN_FIELD_NUMBER: _ClassVar[int]
    USED_ROCKETS_FIELD_NUMBER: _ClassVar[int]
    FREE_AT_TURN_START_FIELD_NUMBER: _ClassVar[int]
    STEAL_FROM_FIELD_NUMBER: _ClassVar[int]
    ENTERED_DIRECTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    double_trouble: bool
    size: int
    round: int
    rounds: int
    first_player: int
    to_move: int
    turn_player: int
    decision: SheepShowdownDecision
    decision_dog: int
    grid: _containers.RepeatedScalarFieldContainer[SheepShowdownCard]
    dogs: _containers.RepeatedCompositeFieldContainer[SheepShowdownDog]
    flock_sizes: _containers.RepeatedScalarFieldContainer[int]
    own_flock: _containers.RepeatedScalarFieldContainer[SheepShowdownCard]
    totals: _containers.RepeatedScalarFieldContainer[int]
    round_scores: _containers.RepeatedCompositeFieldContainer[SheepShowdownRoundScores]
    players_in: _containers.RepeatedScalarFieldContainer[bool]
    turn: int
    turn_cap: int
    last_player: int
    last_steps_left: int
    out_at_turn: _containers.RepeatedScalarFieldContainer[int]
    used_rockets: _containers.RepeatedCompositeFieldContainer[SheepShowdownCell]
    free_at_turn_start: _containers.RepeatedScalarFieldContainer[int]
    steal_from: _containers.RepeatedScalarFieldContainer[int]
    entered_direction: SheepShowdownDirection
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., double_trouble: _Optional[bool] = ..., size: _Optional[int] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., first_player: _Optional[int] = ..., to_move: _Optional[int] = ..., turn_player: _Optional[int] = ..., decision: _Optional[_Union[SheepShowdownDecision, str]] = ..., decision_dog: _Optional[int] = ..., grid: _Optional[_Iterable[_Union[SheepShowdownCard, str]]] = ..., dogs: _Optional[_Iterable[_Union[SheepShowdownDog, _Mapping]]] = ..., flock_sizes: _Optional[_Iterable[int]] = ..., own_flock: _Optional[_Iterable[_Union[SheepShowdownCard, str]]] = ..., totals: _Optional[_Iterable[int]] = ..., round_scores: _Optional[_Iterable[_Union[SheepShowdownRoundScores, _Mapping]]] = ..., players_in: _Optional[_Iterable[bool]] = ..., turn: _Optional[int] = ..., turn_cap: _Optional[int] = ..., last_player: _Optional[int] = ..., last_steps_left: _Optional[int] = ..., out_at_turn: _Optional[_Iterable[int]] = ..., used_rockets: _Optional[_Iterable[_Union[SheepShowdownCell, _Mapping]]] = ..., free_at_turn_start: _Optional[_Iterable[int]] = ..., steal_from: _Optional[_Iterable[int]] = ..., entered_direction: _Optional[_Union[SheepShowdownDirection, str]] = ...) -> None: ...

class SheepShowdownPlaceDog(_message.Message):
    __slots__ = ("dog", "cell")
    DOG_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    dog: int
    cell: SheepShowdownCell
    def __init__(self, dog: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownSelectDog(_message.Message):
    __slots__ = ("dog", "purpose")
    DOG_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    dog: int
    purpose: SheepShowdownDogPurpose
    def __init__(self, dog: _Optional[int] = ..., purpose: _Optional[_Union[SheepShowdownDogPurpose, str]] = ...) -> None: ...

class SheepShowdownStep(_message.Message):
    __slots__ = ("dog", "direction")
    DOG_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    dog: int
    direction: SheepShowdownDirection
    def __init__(self, dog: _Optional[int] = ..., direction: _Optional[_Union[SheepShowdownDirection, str]] = ...) -> None: ...

class SheepShowdownShepherdJump(_message.Message):
    __slots__ = ("dog", "cell")
    DOG_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    dog: int
    cell: SheepShowdownCell
    def __init__(self, dog: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownRocketJump(_message.Message):
    __slots__ = ("dog", "direction")
    DOG_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    dog: int
    direction: SheepShowdownDirection
    def __init__(self, dog: _Optional[int] = ..., direction: _Optional[_Union[SheepShowdownDirection, str]] = ...) -> None: ...

class SheepShowdownPlaceBlocker(_message.Message):
    __slots__ = ("cell",)
    CELL_FIELD_NUMBER: _ClassVar[int]
    cell: SheepShowdownCell
    def __init__(self, cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownSteal(_message.Message):
    __slots__ = ("victim", "take")
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    victim: int
    take: bool
    def __init__(self, victim: _Optional[int] = ..., take: _Optional[bool] = ...) -> None: ...

class SheepShowdownUseCard(_message.Message):
    __slots__ = ("dog", "card", "use")
    DOG_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    USE_FIELD_NUMBER: _ClassVar[int]
    dog: int
    card: SheepShowdownCard
    use: bool
    def __init__(self, dog: _Optional[int] = ..., card: _Optional[_Union[SheepShowdownCard, str]] = ..., use: _Optional[bool] = ...) -> None: ...

class SheepShowdownAction(_message.Message):
    __slots__ = ("place_dog", "select_dog", "step", "shepherd_jump", "rocket_jump", "place_blocker", "steal", "use_card")
    PLACE_DOG_FIELD_NUMBER: _ClassVar[int]
    SELECT_DOG_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    SHEPHERD_JUMP_FIELD_NUMBER: _ClassVar[int]
    ROCKET_JUMP_FIELD_NUMBER: _ClassVar[int]
    PLACE_BLOCKER_FIELD_NUMBER: _ClassVar[int]
    STEAL_FIELD_NUMBER: _ClassVar[int]
    USE_CARD_FIELD_NUMBER: _ClassVar[int]
    place_dog: SheepShowdownPlaceDog
    select_dog: SheepShowdownSelectDog
    step: SheepShowdownStep
    shepherd_jump: SheepShowdownShepherdJump
    rocket_jump: SheepShowdownRocketJump
    place_blocker: SheepShowdownPlaceBlocker
    steal: SheepShowdownSteal
    use_card: SheepShowdownUseCard
    def __init__(self, place_dog: _Optional[_Union[SheepShowdownPlaceDog, _Mapping]] = ..., select_dog: _Optional[_Union[SheepShowdownSelectDog, _Mapping]] = ..., step: _Optional[_Union[SheepShowdownStep, _Mapping]] = ..., shepherd_jump: _Optional[_Union[SheepShowdownShepherdJump, _Mapping]] = ..., rocket_jump: _Optional[_Union[SheepShowdownRocketJump, _Mapping]] = ..., place_blocker: _Optional[_Union[SheepShowdownPlaceBlocker, _Mapping]] = ..., steal: _Optional[_Union[SheepShowdownSteal, _Mapping]] = ..., use_card: _Optional[_Union[SheepShowdownUseCard, _Mapping]] = ...) -> None: ...

class SheepShowdownRoundStarted(_message.Message):
    __slots__ = ("round", "first_player", "size", "grid")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    round: int
    first_player: int
    size: int
    grid: _containers.RepeatedScalarFieldContainer[SheepShowdownCard]
    def __init__(self, round: _Optional[int] = ..., first_player: _Optional[int] = ..., size: _Optional[int] = ..., grid: _Optional[_Iterable[_Union[SheepShowdownCard, str]]] = ...) -> None: ...

class SheepShowdownDogPlaced(_message.Message):
    __slots__ = ("seat", "dog", "cell")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    cell: SheepShowdownCell
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownDogMoved(_message.Message):
    __slots__ = ("seat", "dog", "from_cell", "to_cell", "how", "by")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    FROM_CELL_FIELD_NUMBER: _ClassVar[int]
    TO_CELL_FIELD_NUMBER: _ClassVar[int]
    HOW_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    from_cell: SheepShowdownCell
    to_cell: SheepShowdownCell
    how: SheepShowdownMove
    by: int
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., from_cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ..., to_cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ..., how: _Optional[_Union[SheepShowdownMove, str]] = ..., by: _Optional[int] = ...) -> None: ...

class SheepShowdownCardTaken(_message.Message):
    __slots__ = ("seat", "dog", "card", "cell")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    card: SheepShowdownCard
    cell: SheepShowdownCell
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., card: _Optional[_Union[SheepShowdownCard, str]] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownShepherdStays(_message.Message):
    __slots__ = ("seat", "dog")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ...) -> None: ...

class SheepShowdownBlockerPlaced(_message.Message):
    __slots__ = ("seat", "cell")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cell: SheepShowdownCell
    def __init__(self, seat: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ...) -> None: ...

class SheepShowdownBlockerDiscarded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class SheepShowdownBombExploded(_message.Message):
    __slots__ = ("seat", "dog", "cell", "removed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    cell: SheepShowdownCell
    removed: int
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., cell: _Optional[_Union[SheepShowdownCell, _Mapping]] = ..., removed: _Optional[int] = ...) -> None: ...

class SheepShowdownWolfNoTarget(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class SheepShowdownDogOut(_message.Message):
    __slots__ = ("seat", "dog", "reason", "by")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    reason: SheepShowdownOutReason
    by: int
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., reason: _Optional[_Union[SheepShowdownOutReason, str]] = ..., by: _Optional[int] = ...) -> None: ...

class SheepShowdownPlayerOut(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class SheepShowdownCardStolen(_message.Message):
    __slots__ = ("thief", "victim", "card")
    THIEF_FIELD_NUMBER: _ClassVar[int]
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    thief: int
    victim: int
    card: SheepShowdownCard
    def __init__(self, thief: _Optional[int] = ..., victim: _Optional[int] = ..., card: _Optional[_Union[SheepShowdownCard, str]] = ...) -> None: ...

class SheepShowdownLastPlayer(_message.Message):
    __slots__ = ("seat", "steps")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    steps: int
    def __init__(self, seat: _Optional[int] = ..., steps: _Optional[int] = ...) -> None: ...

class SheepShowdownRoundEnded(_message.Message):
    __slots__ = ("round", "reason", "round_scores", "totals")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    round: int
    reason: SheepShowdownEndReason
    round_scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., reason: _Optional[_Union[SheepShowdownEndReason, str]] = ..., round_scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepShowdownGameEnded(_message.Message):
    __slots__ = ("totals", "ranks")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class SheepShowdownStealDeclined(_message.Message):
    __slots__ = ("thief", "victim")
    THIEF_FIELD_NUMBER: _ClassVar[int]
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    thief: int
    victim: int
    def __init__(self, thief: _Optional[int] = ..., victim: _Optional[int] = ...) -> None: ...

class SheepShowdownCardDeclined(_message.Message):
    __slots__ = ("seat", "dog", "card", "by")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dog: int
    card: SheepShowdownCard
    by: int
    def __init__(self, seat: _Optional[int] = ..., dog: _Optional[int] = ..., card: _Optional[_Union[SheepShowdownCard, str]] = ..., by: _Optional[int] = ...) -> None: ...

class SheepShowdownEvent(_message.Message):
    __slots__ = ("round_started", "dog_placed", "dog_moved", "card_taken", "shepherd_stays", "blocker_placed", "blocker_discarded", "bomb_exploded", "wolf_no_target", "dog_out", "player_out", "card_stolen", "last_player", "round_ended", "game_ended", "steal_declined", "card_declined")
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    DOG_PLACED_FIELD_NUMBER: _ClassVar[int]
    DOG_MOVED_FIELD_NUMBER: _ClassVar[int]
    CARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SHEPHERD_STAYS_FIELD_NUMBER: _ClassVar[int]
    BLOCKER_PLACED_FIELD_NUMBER: _ClassVar[int]
    BLOCKER_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    BOMB_EXPLODED_FIELD_NUMBER: _ClassVar[int]
    WOLF_NO_TARGET_FIELD_NUMBER: _ClassVar[int]
    DOG_OUT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_OUT_FIELD_NUMBER: _ClassVar[int]
    CARD_STOLEN_FIELD_NUMBER: _ClassVar[int]
    LAST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    STEAL_DECLINED_FIELD_NUMBER: _ClassVar[int]
    CARD_DECLINED_FIELD_NUMBER: _ClassVar[int]
    round_started: SheepShowdownRoundStarted
    dog_placed: SheepShowdownDogPlaced
    dog_moved: SheepShowdownDogMoved
    card_taken: SheepShowdownCardTaken
    shepherd_stays: SheepShowdownShepherdStays
    blocker_placed: SheepShowdownBlockerPlaced
    blocker_discarded: SheepShowdownBlockerDiscarded
    bomb_exploded: SheepShowdownBombExploded
    wolf_no_target: SheepShowdownWolfNoTarget
    dog_out: SheepShowdownDogOut
    player_out: SheepShowdownPlayerOut
    card_stolen: SheepShowdownCardStolen
    last_player: SheepShowdownLastPlayer
    round_ended: SheepShowdownRoundEnded
    game_ended: SheepShowdownGameEnded
    steal_declined: SheepShowdownStealDeclined
    card_declined: SheepShowdownCardDeclined
    def __init__(self, round_started: _Optional[_Union[SheepShowdownRoundStarted, _Mapping]] = ..., dog_placed: _Optional[_Union[SheepShowdownDogPlaced, _Mapping]] = ..., dog_moved: _Optional[_Union[SheepShowdownDogMoved, _Mapping]] = ..., card_taken: _Optional[_Union[SheepShowdownCardTaken, _Mapping]] = ..., shepherd_stays: _Optional[_Union[SheepShowdownShepherdStays, _Mapping]] = ..., blocker_placed: _Optional[_Union[SheepShowdownBlockerPlaced, _Mapping]] = ..., blocker_discarded: _Optional[_Union[SheepShowdownBlockerDiscarded, _Mapping]] = ..., bomb_exploded: _Optional[_Union[SheepShowdownBombExploded, _Mapping]] = ..., wolf_no_target: _Optional[_Union[SheepShowdownWolfNoTarget, _Mapping]] = ..., dog_out: _Optional[_Union[SheepShowdownDogOut, _Mapping]] = ..., player_out: _Optional[_Union[SheepShowdownPlayerOut, _Mapping]] = ..., card_stolen: _Optional[_Union[SheepShowdownCardStolen, _Mapping]] = ..., last_player: _Optional[_Union[SheepShowdownLastPlayer, _Mapping]] = ..., round_ended: _Optional[_Union[SheepShowdownRoundEnded, _Mapping]] = ..., game_ended: _Optional[_Union[SheepShowdownGameEnded, _Mapping]] = ..., steal_declined: _Optional[_Union[SheepShowdownStealDeclined, _Mapping]] = ..., card_declined: _Optional[_Union[SheepShowdownCardDeclined, _Mapping]] = ...) -> None: ...
