"""A bounded memo of a pure function of one hashable value, for the hot path.

`functools.lru_cache` builds a key tuple and moves the entry to the front on
every hit; with tens of legal actions in a decision those hits add up to more
than the rest of the decision's encoding. Here a hit is one dict lookup, and
the oldest entry goes first when the memo is full (first in, first out: an
entry still in use is soon put back).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """`compute(key)` remembered for at most `limit` keys. Values must be truthy
    (non-empty bytes, say): a falsy one would be computed again every time."""

    def __init__(self, compute: Callable[[K], V], limit: int) -> None:
        if limit < 1:
            raise ValueError("a memo holds at least one entry")
        self._compute = compute
        self._limit = limit
        self._values: OrderedDict[K, V] = OrderedDict()
        self.misses = 0

    def __len__(self) -> int:
        return len(self._values)

    def __call__(self, key: K) -> V:
        return self._values.get(key) or self._miss(key)

    def peek(self, key: K) -> V | None:
        """The value if it is in the memo; nothing is computed."""
        return self._values.get(key)

    def many(self, keys: Sequence[K]) -> list[V]:
        """`[self(key) for key in keys]`, without a call per key on a hit."""
        get, miss = self._values.get, self._miss
        return [get(key) or miss(key) for key in keys]

    def clear(self) -> None:
        self._values.clear()

    def _miss(self, key: K) -> V:
        value = self._compute(key)
        self._values[key] = value
        self.misses += 1
        if len(self._values) > self._limit:
            self._values.popitem(last=False)
        return value
