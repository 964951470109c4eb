"""The bound in all that a flood from many addresses cannot turn against light
clients: past the cap, an address is let in while it holds less than its share
of the room left below twice the cap; at twice the cap, nobody."""

from __future__ import annotations

import pytest

from server.fair_share import FairShare, Over, Tally, first

BOUND = FairShare(per_address=10, cap=100)


def test_below_the_cap_only_the_address_bound_counts() -> None:
    assert BOUND.over(held=9, total=99, sharing=2) is None
    assert BOUND.over(held=10, total=10, sharing=1) is Over.ADDRESS


def test_past_the_cap_an_address_gets_its_share_of_the_room_left() -> None:
    # 150 held by 10 addresses: 50 left below 200, 5 each.
    assert BOUND.over(held=4, total=150, sharing=10) is None
    assert BOUND.over(held=5, total=150, sharing=10) is Over.SHARE
    # An address holding nothing gets in however many share.
    assert BOUND.over(held=0, total=199, sharing=10_000) is None


def test_at_twice_the_cap_nobody_gets_in() -> None:
    assert BOUND.over(held=0, total=200, sharing=2) is Over.CEILING


def test_a_flood_from_a_fixed_set_of_addresses_stops_near_the_cap() -> None:
    """Addresses asking in turn, each for more than its own bound lets it hold
    (each gets one at least: 200 addresses would fill the room to the ceiling)."""
    for addresses in (11, 20, 50):
        held = Tally()
        for _ in range(BOUND.per_address + 1):
            for number in range(addresses):
                address = f"a{number}"
                if BOUND.over(held[address], held.total, held.sharing(address)) is None:
                    held.add(address)
        assert held.total <= BOUND.cap + addresses, (addresses, held.total)
        # And one more address holding nothing still gets in.
        assert BOUND.over(0, held.total, held.sharing("light")) is None


def test_new_addresses_one_after_another_never_pass_twice_the_cap() -> None:
    """Each new address takes what it may: the room left shrinks with every
    one, slowly, but there it stops."""
    held = Tally()
    for number in range(10_000):
        address = f"a{number}"
        while BOUND.over(held[address], held.total, held.sharing(address)) is None:
            held.add(address)
        if number == 20:
            assert held.total < 2 * BOUND.cap - 30  # room left for light clients
    assert held.total == 2 * BOUND.cap


def test_the_address_bound_is_told_first_then_the_ceiling() -> None:
    assert first(None, Over.SHARE, Over.ADDRESS) is Over.ADDRESS
    assert first(Over.SHARE, Over.CEILING) is Over.CEILING
    assert first(None, None) is None


def test_a_tally_forgets_addresses_that_hold_nothing() -> None:
    held = Tally()
    held.add("a", 3)
    held.add("b")
    assert (held.total, held.sharing("a"), held.sharing("c")) == (4, 2, 3)
    held.remove("a", 3)
    assert (held.total, held["a"], held.sharing("a")) == (1, 0, 2)


def test_a_bound_has_room_for_one_at_least() -> None:
    with pytest.raises(ValueError):
        FairShare(per_address=0, cap=1)
