"""How many of a thing, in words, for every text Sheepfold shows a person: the
engines' event texts, the command line's lines and the viewer's pages. Here, at
the bottom of the import layers, so that each of those reaches the one copy.
"""

from __future__ import annotations

from collections.abc import Sequence


def noun(n: float, singular: str, plural: str | None = None) -> str:
    """`singular` for exactly one (1.0 too: "1 second"), else `plural` (the
    singular and an "s" unless given: "match", "matches")."""
    return singular if n == 1 else plural or singular + "s"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and its noun: "1 move", "2 moves", "0 moves"."""
    return f"{n} {noun(n, singular, plural)}"


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`count` with `n` grouped by thousands ("1,250 games"), for counts that grow."""
    return f"{n:,} {noun(n, singular, plural)}"


def seats(indices: Sequence[int]) -> str:
    """Seats by number, in words: "seat 0", "seats 0 and 2", "seats 0, 1 and 3"."""
    numbers = [str(index) for index in indices]
    if len(numbers) <= 1:
        return f"seat {''.join(numbers)}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"
