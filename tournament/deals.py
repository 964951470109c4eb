"""Which deal each scheduled game plays.

A schedule numbers its deals (`ScheduledGame.seed`: the config's seed, plus
one for each further deal) so that every group plays the same deals. Those
numbers are public: anyone who knows the config knows them. Were they the
matches' seeds, a bot could rebuild its deal, and so every hidden card and
the order of every deck, by running the published engines on them.

So a tournament draws a random secret when it is first stored, and each
game's match seed is a keyed hash of its deal number under that secret: the
same deal number still gives the same deal to every group, and nobody without
the secret can tell which deal it is. A tournament stored without a secret
(made before there were secrets, or with `secret_deals = false`) plays its
deal numbers as seeds, as it always did, so its games stay comparable.

A ladder that grows plays its newcomers' games on the same deal numbers as
its first field's. Those first games are finished, and their records (in the
web viewer once a deal is done: its match seed and every hand) may have been
read by the author of a bot entered later, who could then build it to find
its deal among the published seeds with the public engines, and know every
card. So a game first scheduled by a later field (`ScheduledGame.field`) is
dealt under a seed of that field's own: the same deal number still gives the
same deal to every game of that field (a pair's two seat orders, every
newcomer), and a deal never before played. A tournament stored before this
(without `field_deals` in its stored config) keeps one deal per number.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.schedule import ScheduledGame

__all__ = ["SECRET_BYTES", "dealt", "kept_field_deals", "new_secret", "secret_seed"]

SECRET_BYTES = 16
_SEED_BITS = 63  # a match seed stays a positive signed 64-bit number, as deal numbers are


def new_secret() -> bytes:
    return os.urandom(SECRET_BYTES)


def secret_seed(secret: bytes, deal: int, field: int = 0) -> int:
    """The seed of the match that plays deal number `deal` under `secret`, for
    a game first scheduled by ladder field `field` (0: the first field, whose
    seeds are those of every tournament stored before fields had deals)."""
    text = str(deal) if field == 0 else f"{deal}/{field}"
    digest = hashlib.blake2b(text.encode(), key=secret, digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << _SEED_BITS) - 1)


def kept_field_deals(stored: Mapping[str, Any]) -> bool:
    """Whether a stored tournament's later ladder fields play deals of their
    own: only one first stored since they do (`field_deals` in its config)."""
    return stored.get("field_deals") is True


def dealt(
    games: Sequence[ScheduledGame], secret: bytes | None, field_deals: bool = False
) -> list[ScheduledGame]:
    """`games` with the seed each match is to be created with (unchanged without
    a secret); with `field_deals`, each game's under its ladder field."""
    if secret is None:
        return list(games)
    return [
        dataclasses.replace(
            game, secret_seed=secret_seed(secret, game.seed, game.field if field_deals else 0)
        )
        for game in games
    ]
