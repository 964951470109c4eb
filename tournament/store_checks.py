"""The checks of a tournament database's rows as they are read back: a row
edited by hand (the sqlite3 shell keeps text or 2.7 in an INTEGER column, inf
in a REAL one, and deletes seats without their game) is one StoreError naming
it and what to do, never a wrong value read on or a traceback further on."""

from __future__ import annotations

import json
import math
from typing import Any, TypeGuard

from games.words import count
from tournament.store_errors import StoreError
from tournament.store_records import SeatRecord, TournamentRecord

__all__ = [
    "check_numbers",
    "check_seats",
    "damaged_game",
    "is_time",
    "stored_count",
    "stored_object",
    "stored_text",
    "stored_time",
    "stored_version",
    "tournament_record",
]


def stored_count(path: str, name: str, column: str, value: object) -> int:
    """A tournament's count column as an int; a StoreError for one edited into
    anything else (SQLite keeps text in an INTEGER column, and a report
    then stopped with a TypeError traceback)."""
    if isinstance(value, int):
        return value
    raise _edited(path, name, column, "a whole number", value)


def stored_text(path: str, name: str, column: str, value: object) -> str:
    """A tournament's text column (its game) as a str; a StoreError for one
    edited into a blob (a TEXT column keeps a number as its text), which the
    web viewer's list page once failed on with a TypeError (a 500)."""
    if isinstance(value, str):
        return value
    raise _edited(path, name, column, "a text", value)


def _edited(path: str, name: str, column: str, wanted: str, value: object) -> StoreError:
    return StoreError(
        f"tournament {name!r} in {path}: its {column} is not {wanted} "
        f"(edited by hand?), it holds {repr(value)[:40]}; put the value back, or use another "
        "name or database"
    )


def stored_object(path: str, name: str, column: str, text: str) -> dict[str, Any]:
    """A tournament's JSON column as a dict; a StoreError for one edited into
    anything else (it once stopped a run with a JSONDecodeError traceback)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as error:
        value, why = None, f": {error}"
    else:
        why = f", it holds {type(value).__name__}"
    if isinstance(value, dict):
        return value
    raise StoreError(
        f"tournament {name!r} in {path}: its {column} is not a JSON object "
        f"(edited by hand?){why}; put the value back, or use another name or database"
    )


def is_time(value: object) -> TypeGuard[float]:
    """Whether a stored created_at or updated_at is a time in seconds since 1970."""
    return isinstance(value, (int, float)) and math.isfinite(value) and value >= 0


def stored_time(path: str, tournament_id: int, name: str, column: str, value: object) -> float:
    """A tournament's created_at or updated_at (seconds since 1970); a
    StoreError for one edited into text or inf (a report then took the newest
    tournament by a text's place in SQLite's order, after every number)."""
    if is_time(value):
        return float(value)
    raise StoreError(
        f"tournament {name!r} in {path}: its {column} is not a time in seconds since 1970 "
        f"(edited by hand?), it holds {repr(value)[:40]}; put the value back, or set it to now "
        f"(UPDATE tournaments SET {column} = strftime('%s', 'now') WHERE id = {tournament_id} "
        "in the sqlite3 shell)"
    )


def stored_version(path: str, rows: list[tuple[Any, ...]], current: int) -> int:
    """The schema version of a tournament database: its schema_version table's
    one row, a whole number from 0. A StoreError for a table edited by hand
    (text or inf stopped every command with a traceback, 3.5 was version 3 and
    ran the fourth migration again, no row ran every migration again)."""
    values = [row[0] for row in rows]
    if len(values) == 1 and isinstance(values[0], int) and values[0] >= 0:
        return values[0]
    if len(values) == 1:
        held = f"holds {repr(values[0])[:40]}"
    else:
        held = f"has {count(len(values), 'row') if values else 'no row'}"
    raise StoreError(
        f"the schema version of {path} is not one whole number (edited by hand?): its "
        f"schema_version table {held}; put "
        f"back the one row it held (this sheepfold writes version {current}: DELETE FROM "
        f"schema_version; INSERT INTO schema_version VALUES ({current}) in the sqlite3 shell, "
        "if this sheepfold wrote the file)"
    )


def check_numbers(path: str, row: tuple[Any, ...], seats: list[SeatRecord]) -> None:
    """A StoreError unless a game's numbers are finite numbers, whole where
    the column is INTEGER: SQLite keeps text (or 2.7) in an INTEGER column
    and inf in a REAL one, and the report then stopped with a TypeError."""
    numbers: list[tuple[str, object, bool]] = [
        ("seed", row[3], True),
        ("grp", row[4], True),
        ("rotation", row[5], True),
        ("duration_seconds", row[8], False),
        ("finished_at", row[9], False),
    ]
    for seat in seats:
        numbers += [
            ("score", seat.score, False),
            ("rank", seat.rank, True),
            ("server_rank", seat.server_rank, True),
            ("strikes", seat.strikes, True),
        ]
    for column, value, whole in numbers:
        kinds = (int,) if whole else (int, float)
        if isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value):
            continue
        raise damaged_game(path, row[0], row[1], row[2], column, value, whole=whole)


def damaged_game(
    path: str, game_id: int, key: str, match_id: str, column: str, value: object, *, whole: bool
) -> StoreError:
    return StoreError(
        f"game {key!r} (match {match_id}) in {path}: its {column} is not a "
        f"{'whole number' if whole else 'finite number'} (edited by hand?), it holds "
        f"{repr(value)[:40]}; put the value back, or delete the game (DELETE FROM "
        f"games WHERE id = {game_id} in the sqlite3 shell) and run the tournament "
        "again to play it again"
    )


def check_seats(
    path: str, game_id: int, key: str, match_id: str, seed: int, seats: list[SeatRecord]
) -> None:
    """A StoreError unless a game has a seat for each bot of its key
    (`seed:bot|bot`; for a key of another form, any seat): seats deleted by
    hand leave a game nobody can rate and a resume never plays again."""
    prefix, _, named = key.partition(":")
    stored, wanted = len(seats), len(named.split("|")) if prefix == str(seed) else 1
    joined = "|".join(seat.bot for seat in seats)  # an old bot name may hold '|'
    if stored == wanted or (stored and (prefix != str(seed) or joined == named)):
        return
    have = "no seat" if not stored else count(stored, "seat")
    raise StoreError(
        f"game {key!r} (match {match_id}) in {path} has {have} of {wanted} stored "
        "(the database was edited by hand); delete the game (DELETE FROM games WHERE "
        f"id = {game_id} in the sqlite3 shell) and run the tournament again to play it again"
    )


def tournament_record(path: str, row: tuple[Any, ...]) -> TournamentRecord:
    """A tournaments row (id, name, game, players, options_json, anchor,
    scheduled, config_json, created_at, updated_at) as a record; a StoreError
    naming what in it was edited into nonsense."""
    return TournamentRecord(
        id=row[0],
        name=row[1],
        game=stored_text(path, row[1], "game", row[2]),
        players=stored_count(path, row[1], "players", row[3]),
        options=stored_object(path, row[1], "options_json", row[4]),
        anchor=row[5],
        scheduled=stored_count(path, row[1], "scheduled", row[6]),
        config=stored_object(path, row[1], "config_json", row[7]),
        created_at=stored_time(path, row[0], row[1], "created_at", row[8]),
        updated_at=stored_time(path, row[0], row[1], "updated_at", row[9]),
    )
