from sheepfold.v1 import sheep_and_garden_pb2 as _sheep_and_garden_pb2
from sheepfold.v1 import sheep_n_sheep_pb2 as _sheep_n_sheep_pb2
from sheepfold.v1 import sheep_showdown_pb2 as _sheep_showdown_pb2
from sheepfold.v1 import stubborn_sheep_pb2 as _stubborn_sheep_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_WAITING: _ClassVar[MatchStatus]
    MATCH_STATUS_RUNNING: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABORTED: _ClassVar[MatchStatus]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_WAITING: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_ABORTED: MatchStatus

class OptionInfo(_message.Message):
    __slots__ = ("name", "kind", "default", "description", "choices", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    default: str
    description: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    minimum: int
    maximum: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., default: _Optional[str] = ..., description: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "options")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games",)
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class ClockSettings(_message.Message):
    __slots__ = ("decision_seconds", "time_bank_seconds", "max_strikes")
    DECISION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    decision_seconds: float
    time_bank_seconds: float
    max_strikes: int
    def __init__(self, decision_seconds: _Optional[float] = ..., time_bank_seconds: _Optional[float] = ..., max_strikes: _Optional[int] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "players", "options", "seed", "clock", "admin_token")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    players: int
    options: _containers.ScalarMap[str, str]
    seed: int
    clock: ClockSettings
    admin_token: str
    def __init__(self, game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seed: _Optional[int] = ..., clock: _Optional[_Union[ClockSettings, _Mapping]] = ..., admin_token: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match_id", "seat_tokens", "seed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    def __init__(self, match_id: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "connected", "strikes", "disqualified", "time_bank_seconds", "thinking_seconds", "joined")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    DISQUALIFIED_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    THINKING_SECONDS_FIELD_NUMBER: _ClassVar[int]
    JOINED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    connected: bool
    strikes: int
    disqualified: bool
    time_bank_seconds: float
    thinking_seconds: float
    joined: bool
    def __init__(self, seat: _Optional[int] = ..., connected: _Optional[bool] = ..., strikes: _Optional[int] = ..., disqualified: _Optional[bool] = ..., time_bank_seconds: _Optional[float] = ..., thinking_seconds: _Optional[float] = ..., joined: _Optional[bool] = ...) -> None: ...

class MatchResult(_message.Message):
    __slots__ = ("scores", "ranks", "winners", "details_json", "seats", "end_reason")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    DETAILS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    details_json: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    end_reason: str
    def __init__(self, scores: _Optional[_Iterable[float]] = ..., ranks: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., details_json: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("match_id", "game", "players", "options", "status", "seats", "moves", "to_move", "result", "seed", "clock", "created_at")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    players: int
    options: _containers.ScalarMap[str, str]
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    moves: int
    to_move: int
    result: MatchResult
    seed: int
    clock: ClockSettings
    created_at: float
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., moves: _Optional[int] = ..., to_move: _Optional[int] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ..., seed: _Optional[int] = ..., clock: _Optional[_Union[ClockSettings, _Mapping]] = ..., created_at: _Optional[float] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "admin_token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    admin_token: str
    def __init__(self, match_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("game", "status", "limit", "admin_token", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    status: MatchStatus
    limit: int
    admin_token: str
    page_token: str
    def __init__(self, game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., limit: _Optional[int] = ..., admin_token: _Optional[str] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchInfo]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("join", "answer")
    JOIN_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    join: Join
    answer: Answer
    def __init__(self, join: _Optional[_Union[Join, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class Join(_message.Message):
    __slots__ = ("match_id", "seat", "token", "events_in_decisions")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_IN_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    token: str
    events_in_decisions: bool
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., events_in_decisions: _Optional[bool] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("decision_id", "action_index")
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    decision_id: int
    action_index: int
    def __init__(self, decision_id: _Optional[int] = ..., action_index: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("joined", "decision", "event", "result", "error")
    JOINED_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    joined: Joined
    decision: Decision
    event: EventMessage
    result: MatchResult
    error: PlayError
    def __init__(self, joined: _Optional[_Union[Joined, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., event: _Optional[_Union[EventMessage, _Mapping]] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ..., error: _Optional[_Union[PlayError, _Mapping]] = ...) -> None: ...

class Joined(_message.Message):
    __slots__ = ("match_id", "seat", "game", "players", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    game: str
    players: int
    options: _containers.ScalarMap[str, str]
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("decision_seconds", "time_bank_seconds", "strikes", "max_strikes")
    DECISION_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    decision_seconds: float
    time_bank_seconds: float
    strikes: int
    max_strikes: int
    def __init__(self, decision_seconds: _Optional[float] = ..., time_bank_seconds: _Optional[float] = ..., strikes: _Optional[int] = ..., max_strikes: _Optional[int] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("decision_id", "seat", "prompt", "observation", "actions", "clock", "events")
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    decision_id: int
    seat: int
    prompt: str
    observation: Observation
    actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    clock: Clock
    events: _containers.RepeatedCompositeFieldContainer[EventMessage]
    def __init__(self, decision_id: _Optional[int] = ..., seat: _Optional[int] = ..., prompt: _Optional[str] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., events: _Optional[_Iterable[_Union[EventMessage, _Mapping]]] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("label", "action")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    label: str
    action: GameAction
    def __init__(self, label: _Optional[str] = ..., action: _Optional[_Union[GameAction, _Mapping]] = ...) -> None: ...

class PlayError(_message.Message):
    __slots__ = ("code", "message", "decision_id")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    decision_id: int
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., decision_id: _Optional[int] = ...) -> None: ...

class EventMessage(_message.Message):
    __slots__ = ("move", "text", "event")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    move: int
    text: str
    event: GameEvent
    def __init__(self, move: _Optional[int] = ..., text: _Optional[str] = ..., event: _Optional[_Union[GameEvent, _Mapping]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("sheep_showdown", "sheep_n_sheep", "stubborn_sheep", "sheep_and_garden")
    SHEEP_SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    SHEEP_N_SHEEP_FIELD_NUMBER: _ClassVar[int]
    STUBBORN_SHEEP_FIELD_NUMBER: _ClassVar[int]
    SHEEP_AND_GARDEN_FIELD_NUMBER: _ClassVar[int]
    sheep_showdown: _sheep_showdown_pb2.SheepShowdownObservation
    sheep_n_sheep: _sheep_n_sheep_pb2.SheepNSheepObservation
    stubborn_sheep: _stubborn_sheep_pb2.StubbornSheepObservation
    sheep_and_garden: _sheep_and_garden_pb2.SheepAndGardenObservation
    def __init__(self, sheep_showdown: _Optional[_Union[_sheep_showdown_pb2.SheepShowdownObservation, _Mapping]] = ..., sheep_n_sheep: _Optional[_Union[_sheep_n_sheep_pb2.SheepNSheepObservation, _Mapping]] = ..., stubborn_sheep: _Optional[_Union[_stubborn_sheep_pb2.StubbornSheepObservation, _Mapping]] = ..., sheep_and_garden: _Optional[_Union[_sheep_and_garden_pb2.SheepAndGardenObservation, _Mapping]] = ...) -> None: ...

class GameAction(_message.Message):
    __slots__ = ("sheep_showdown", "sheep_n_sheep", "stubborn_sheep", "sheep_and_garden")
    SHEEP_SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    SHEEP_N_SHEEP_FIELD_NUMBER: _ClassVar[int]
    STUBBORN_SHEEP_FIELD_NUMBER: _ClassVar[int]
    SHEEP_AND_GARDEN_FIELD_NUMBER: _ClassVar[int]
    sheep_showdown: _sheep_showdown_pb2.SheepShowdownAction
    sheep_n_sheep: _sheep_n_sheep_pb2.SheepNSheepAction
    stubborn_sheep: _stubborn_sheep_pb2.StubbornSheepAction
    sheep_and_garden: _sheep_and_garden_pb2.SheepAndGardenAction
    def __init__(self, sheep_showdown: _Optional[_Union[_sheep_showdown_pb2.SheepShowdownAction, _Mapping]] = ..., sheep_n_sheep: _Optional[_Union[_sheep_n_sheep_pb2.SheepNSheepAction, _Mapping]] = ..., stubborn_sheep: _Optional[_Union[_stubborn_sheep_pb2.StubbornSheepAction, _Mapping]] = ..., sheep_and_garden: _Optional[_Union[_sheep_and_garden_pb2.SheepAndGardenAction, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("sheep_showdown", "sheep_n_sheep", "stubborn_sheep", "sheep_and_garden")
    SHEEP_SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    SHEEP_N_SHEEP_FIELD_NUMBER: _ClassVar[int]
    STUBBORN_SHEEP_FIELD_NUMBER: _ClassVar[int]
    SHEEP_AND_GARDEN_FIELD_NUMBER: _ClassVar[int]
    sheep_showdown: _sheep_showdown_pb2.SheepShowdownEvent
    sheep_n_sheep: _sheep_n_sheep_pb2.SheepNSheepEvent
    stubborn_sheep: _stubborn_sheep_pb2.StubbornSheepEvent
    sheep_and_garden: _sheep_and_garden_pb2.SheepAndGardenEvent
    def __init__(self, sheep_showdown: _Optional[_Union[_sheep_showdown_pb2.SheepShowdownEvent, _Mapping]] = ..., sheep_n_sheep: _Optional[_Union[_sheep_n_sheep_pb2.SheepNSheepEvent, _Mapping]] = ..., stubborn_sheep: _Optional[_Union[_stubborn_sheep_pb2.StubbornSheepEvent, _Mapping]] = ..., sheep_and_garden: _Optional[_Union[_sheep_and_garden_pb2.SheepAndGardenEvent, _Mapping]] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("match_id", "from_start")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_START_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    from_start: bool
    def __init__(self, match_id: _Optional[str] = ..., from_start: _Optional[bool] = ...) -> None: ...

class Snapshot(_message.Message):
    __slots__ = ("move", "to_move", "observation")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    move: int
    to_move: int
    observation: Observation
    def __init__(self, move: _Optional[int] = ..., to_move: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ...) -> None: ...

class WatchResponse(_message.Message):
    __slots__ = ("snapshot", "event", "result")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    snapshot: Snapshot
    event: EventMessage
    result: MatchResult
    def __init__(self, snapshot: _Optional[_Union[Snapshot, _Mapping]] = ..., event: _Optional[_Union[EventMessage, _Mapping]] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id", "admin_token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    admin_token: str
    def __init__(self, match_id: _Optional[str] = ..., admin_token: _Optional[str] = ...) -> None: ...

class RecordedAction(_message.Message):
    __slots__ = ("move", "seat", "action_index", "label", "forced")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    move: int
    seat: int
    action_index: int
    label: str
    forced: bool
    def __init__(self, move: _Optional[int] = ..., seat: _Optional[int] = ..., action_index: _Optional[int] = ..., label: _Optional[str] = ..., forced: _Optional[bool] = ...) -> None: ...

class Replay(_message.Message):
    __slots__ = ("match_id", "game", "players", "options", "seed", "actions", "result", "clock", "rules_version")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    players: int
    options: _containers.ScalarMap[str, str]
    seed: int
    actions: _containers.RepeatedCompositeFieldContainer[RecordedAction]
    result: MatchResult
    clock: ClockSettings
    rules_version: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seed: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[RecordedAction, _Mapping]]] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ..., clock: _Optional[_Union[ClockSettings, _Mapping]] = ..., rules_version: _Optional[int] = ...) -> None: ...
