"""`games.memo.Memo`: remembers a pure function's values, within its bound."""

from __future__ import annotations

import pytest

from games.memo import Memo


def test_a_value_is_computed_once_and_found_after() -> None:
    calls: list[int] = []

    def square(value: int) -> bytes:
        calls.append(value)
        return str(value * value).encode()

    memo: Memo[int, bytes] = Memo(square, limit=10)
    assert memo.many([3, 4, 3]) == [b"9", b"16", b"9"]
    assert memo(4) == b"16"
    assert calls == [3, 4] and memo.misses == 2 and len(memo) == 2


def test_the_oldest_entry_goes_first_when_the_memo_is_full() -> None:
    calls: list[int] = []

    def compute(value: int) -> bytes:
        calls.append(value)
        return bytes([value])

    memo: Memo[int, bytes] = Memo(compute, limit=2)
    memo.many([1, 2, 1, 3])  # 3 pushes out 1, the first in, though it was used again
    assert len(memo) == 2
    calls.clear()
    memo.many([2, 3, 1])
    assert calls == [1]


def test_a_memo_holds_at_least_one_entry() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Memo(lambda value: value, limit=0)
