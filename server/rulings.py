"""The server's rulings on a match, as pure functions: which legal action a
missed deadline forces, how disqualified seats rank, and the end reason of a
match nobody joined (clients such as the tournament runner recognise it)."""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["NOBODY_JOINED", "TOO_LARGE", "forced_action_index", "ranks_with_disqualified_last"]

# Why a match that no seat joined within the start timeout was aborted, unplayed.
NOBODY_JOINED = "no seat joined within the start timeout"
# Why the server played a decision for its seat: larger than the server sends in
# one message (`serve --max-message-bytes`), so never sent (RecordedMove.forced,
# the forced-moves metric's reason).
TOO_LARGE = "too large"


def forced_action_index(seed: int, move: int, count: int) -> int:
    """Index of the random legal action forced at move number `move` of a match."""
    return random.Random(f"{seed}:forced:{move}").randrange(count)


def ranks_with_disqualified_last(
    ranks: Sequence[int], disqualified: Sequence[bool]
) -> tuple[int, ...]:
    """Disqualified seats share the last rank; the others keep their order."""
    if not any(disqualified):
        return tuple(ranks)
    kept = [i for i, dq in enumerate(disqualified) if not dq]
    out = [0] * len(ranks)
    for i in kept:
        out[i] = 1 + sum(1 for j in kept if ranks[j] < ranks[i])
    for i, dq in enumerate(disqualified):
        if dq:
            out[i] = len(kept) + 1
    return tuple(out)
