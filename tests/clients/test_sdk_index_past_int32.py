"""A `decide` that returns a whole number past the wire's int32 is told so.

The guide says a number too large for the wire's int32 stops the seat as
`None` or `1.5` do. It did, but with the line for those: "decide returned
1099511627776, not an action index (a whole number)", which tells the author
that a whole number is not one. The line now says what is wrong with it.
"""

from __future__ import annotations

import pytest

from clients.sdk import action_index


@pytest.mark.parametrize("returned", [2**31, 2**40, -(2**31) - 1, -(2**63)])
def test_a_number_past_int32_is_refused_as_out_of_range(returned: int) -> None:
    with pytest.raises(ValueError) as refused:
        action_index(returned)
    assert str(refused.value) == (
        f"decide returned {returned}, not an action index"
        " (past the wire's int32: -2147483648 to 2147483647)"
    )


@pytest.mark.parametrize("returned", [2**31 - 1, -(2**31), 0, -1])
def test_the_int32_bounds_are_still_sent(returned: int) -> None:
    """Those go to the server, which refuses one out of range and asks again."""
    assert action_index(returned) == returned


@pytest.mark.parametrize("returned", [None, 1.5, True])
def test_a_value_that_is_no_whole_number_keeps_its_line(returned: object) -> None:
    with pytest.raises(TypeError) as refused:
        action_index(returned)
    assert str(refused.value) == (
        f"decide returned {returned!r}, not an action index (a whole number)"
    )
