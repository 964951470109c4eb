"""The card data file: the printed compositions and the layout repair."""

from __future__ import annotations

import random

import pytest

from games.sheep_showdown import cards as C


def test_full_box_is_the_printed_81_cards() -> None:
    """Rulebook, contents: 20 x 1-sheep, 22 x 2-sheep, 9 x 3-sheep, 4 x 5-sheep,
    6 x Shepherd, 4 x Rocket, 2 x Blocking, 2 x Sliding, 2 x Bomb, 10 x Wolf."""
    full = C.compositions()["full"]
    assert full == {
        "sheep1": 20,
        "sheep2": 22,
        "sheep3": 9,
        "sheep5": 4,
        "shepherd": 6,
        "rocket": 4,
        "blocking": 2,
        "sliding": 2,
        "bomb": 2,
        "wolf": 10,
    }
    assert sum(full.values()) == 81 == 9 * 9


def test_small_subset_is_the_printed_49_cards() -> None:
    """Rulebook, "Cards needed for 2-4 players (7 x 7 grid)"."""
    small = C.compositions()["small"]
    assert small == {
        "sheep1": 12,
        "sheep2": 12,
        "sheep3": 5,
        "sheep5": 2,
        "shepherd": 5,
        "rocket": 3,
        "blocking": 2,
        "sliding": 2,
        "bomb": 1,
        "wolf": 5,
    }
    assert sum(small.values()) == 49 == 7 * 7
    full = C.compositions()["full"]
    assert all(count <= full[name] for name, count in small.items())


def test_enough_shepherds_for_every_dog() -> None:
    """Dogs start on distinct shepherd cards: 4 dogs on 7x7, 6 on 9x9."""
    assert C.compositions()["small"]["shepherd"] >= 4
    assert C.compositions()["full"]["shepherd"] >= 6


@pytest.mark.parametrize("size", [7, 9])
def test_deck_matches_grid(size: int) -> None:
    assert len(C.deck(size)) == size * size


@pytest.mark.parametrize("size", [7, 9])
def test_layout_repair_on_many_seeds(size: int) -> None:
    """Rules note: no two shepherd cards orthogonally adjacent, no sliding sheep
    on the outer ring; the repair keeps the multiset of cards."""
    for seed in range(400):
        cards = list(C.deck(size))
        random.Random(seed).shuffle(cards)
        repaired = C.repair_layout(cards[:], size)
        assert C.layout_ok(repaired, size), seed
        assert sorted(repaired) == sorted(cards)


def test_layout_repair_is_deterministic_and_minimal() -> None:
    """A valid layout is left alone; an invalid one is always repaired the same way."""
    cards = list(C.deck(7))
    random.Random(3).shuffle(cards)
    once = C.repair_layout(cards[:], 7)
    assert C.repair_layout(once[:], 7) == once
    assert C.repair_layout(cards[:], 7) == once


def test_layout_repair_fixes_each_rule() -> None:
    """Two adjacent shepherds and an edge sliding sheep are moved."""
    size = 7
    cards = [C.SHEEP1] * 49
    cards[0] = C.SLIDING
    cards[10] = C.SHEPHERD
    cards[11] = C.SHEPHERD
    cards[17] = C.SHEPHERD  # below 10, diagonal to nothing else
    assert not C.layout_ok(cards, size)
    repaired = C.repair_layout(cards[:], size)
    assert C.layout_ok(repaired, size)
    assert repaired.count(C.SHEPHERD) == 3
    assert repaired.count(C.SLIDING) == 1
    assert repaired.index(C.SLIDING) not in C.geometry(size).ring
