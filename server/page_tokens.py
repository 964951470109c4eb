"""ListMatches page tokens: where the next page starts, and for which filters.

A listing is ordered newest `created_at` first and, of matches created at the
same instant, by `match_id`: a key each match keeps for good, hosted or only
stored, running or over. A token holds the key of the last match a page listed
and the game and status that page was asked for; the next page lists what
comes after that key. So a match is never listed twice, nor skipped because it
finished (and moved from the hosted matches to the store) between two pages;
matches created after the first page are newer than every key and are not in
the pages that follow it.

The token is signed with a key of this server process's, so a client can
neither make one up nor change one: anything but a token this server made for
these filters is refused (`PageTokenError`, said to the client as it is).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import secrets
from typing import NamedTuple

from server.records import MatchRecord

_VERSION = 1
_MAC_BYTES = 16
MAX_TOKEN_CHARS = 512  # a real one is about 130; anything longer is not read


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


class PageTokens:
    def __init__(self, key: bytes | None = None) -> None:
        self._key = key or secrets.token_bytes(32)

    def make(self, game: str, status: int, after: Position) -> str:
        payload = json.dumps(
            [_VERSION, game, status, after.created_at, after.match_id], separators=(",", ":")
        ).encode()
        token = self._mac(payload) + payload
        return base64.urlsafe_b64encode(token).decode().rstrip("=")

    def read(self, token: str, game: str, status: int) -> Position:
        """The position a token starts after; PageTokenError if it is not one
        made by this server for `game` and `status`."""
        if len(token) > MAX_TOKEN_CHARS:
            raise PageTokenError("the page token is not one this server gave")
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise PageTokenError("the page token is not one this server gave") from None
        mac, payload = raw[:_MAC_BYTES], raw[_MAC_BYTES:]
        if not hmac.compare_digest(mac, self._mac(payload)):
            raise PageTokenError(
                "the page token is not one this server gave (or the server restarted "
                "since): list again from the first page, without a page token"
            )
        version, its_game, its_status, created_at, match_id = json.loads(payload)
        if (
            version != _VERSION
            or not isinstance(created_at, int | float)
            or not math.isfinite(created_at)
        ):
            raise PageTokenError("the page token is not one this server gave")
        if its_game != game or its_status != status:
            raise PageTokenError(
                "the page token was given for another game or status: ask for the next "
                "pages with the same game and status as the first, or start again "
                "without a page token"
            )
        return Position.of(float(created_at), match_id)

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()[:_MAC_BYTES]
