"""ListMatches page tokens: where the next page starts, and for which filters.

A listing is ordered newest `created_at` first and, of matches created at the
same instant, by `match_id`: a key each match keeps for good, hosted or only
stored, running or over. A token holds the key of the last match a page listed
and the game and status that page was asked for; the next page lists what
comes after that key. So a match is never listed twice, nor skipped because it
finished (and moved from the hosted matches to the store) between two pages;
matches created after the first page are newer than every key and are not in
the pages that follow it.

A token is opaque to clients but not secret: it is the key and the filters
in base64, checked field by field when it comes back. One made up or changed
can only name another place in the listing, which any client may list anyway,
so nothing is signed; and a token lasts across restarts of the server (a
bookmarked page of the web viewer still opens). Anything that does not read
as a token for these filters is refused (`PageTokenError`, said to the client
as it is).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from typing import Any, NamedTuple

from server.records import MatchRecord

_VERSION = 1
MAX_TOKEN_CHARS = 512  # a real one is about 110; anything longer is not read
MAX_MATCH_ID_CHARS = 128  # match ids are 16 characters
NOT_A_TOKEN = (
    "the page token is not one this server gave: list again from the first page, "
    "without a page token"
)


class PageTokenError(ValueError):
    """A page token that is not one this server made for these filters."""


class Position(NamedTuple):
    """A match's place in a listing: sorted ascending, newest first (a tuple,
    for the speed of its comparisons in server/hosted.py)."""

    newness: float  # -created_at
    match_id: str

    @classmethod
    def of(cls, created_at: float, match_id: str) -> Position:
        return cls(-created_at, match_id)

    @classmethod
    def of_record(cls, record: MatchRecord) -> Position:
        return cls.of(record.created_at, record.match_id)

    @property
    def created_at(self) -> float:
        return -self.newness


def make_page_token(game: str, status: int, after: Position) -> str:
    """The token of the page after `after`, in a listing of `game` and `status`."""
    payload = json.dumps(
        [_VERSION, game, status, after.created_at, after.match_id], separators=(",", ":")
    ).encode()
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def read_page_token(token: str, game: str, status: int) -> Position:
    """The position a token starts after; PageTokenError if it does not read
    as a token made for `game` and `status`."""
    fields = _fields(token)
    if fields is None:
        raise PageTokenError(NOT_A_TOKEN)
    its_game, its_status, created_at, match_id = fields
    if its_game != game or its_status != status:
        raise PageTokenError(
            "the page token was given for another game or status: ask for the next "
            "pages with the same game and status as the first, or start again "
            "without a page token"
        )
    return Position.of(created_at, match_id)


def _fields(token: str) -> tuple[str, int, float, str] | None:
    """A token's game, status, created_at and match id, or None when it is not
    a token: each field of the type and range a made one has."""
    if len(token) > MAX_TOKEN_CHARS:
        return None
    try:
        decoded: Any = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError):  # not base64, not UTF-8, not JSON
        return None
    if not isinstance(decoded, list) or len(decoded) != 5:
        return None
    version, game, status, created_at, match_id = decoded
    if (
        version != _VERSION
        or not _is_text(game)
        or type(status) is not int
        or type(created_at) not in (int, float)
        or not _is_text(match_id)
        or len(match_id) > MAX_MATCH_ID_CHARS
    ):
        return None
    try:
        when = float(created_at)  # a whole number of 309 digits or more is past a float
    except OverflowError:
        return None
    if not math.isfinite(when):
        return None
    return game, status, when, match_id


def _is_text(value: Any) -> bool:
    """Whether `value` is a string UTF-8 can carry: JSON's escapes spell lone
    surrogates (`"\\ud800"`), which no database query or protobuf string takes."""
    if not isinstance(value, str):
        return False
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True
