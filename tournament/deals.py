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
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Sequence

from tournament.schedule import ScheduledGame

__all__ = ["SECRET_BYTES", "dealt", "new_secret", "secret_seed"]

SECRET_BYTES = 16
_SEED_BITS = 63  # a match seed stays a positive signed 64-bit number, as deal numbers are


def new_secret() -> bytes:
    return os.urandom(SECRET_BYTES)


def secret_seed(secret: bytes, deal: int) -> int:
    """The seed of the match that plays deal number `deal` under `secret`."""
    digest = hashlib.blake2b(str(deal).encode(), key=secret, digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << _SEED_BITS) - 1)


def dealt(games: Sequence[ScheduledGame], secret: bytes | None) -> list[ScheduledGame]:
    """`games` with the seed each match is to be created with (unchanged without a secret)."""
    if secret is None:
        return list(games)
    return [dataclasses.replace(game, secret_seed=secret_seed(secret, game.seed)) for game in games]
