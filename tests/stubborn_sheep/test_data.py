"""The components: 78 sheep with printed bonuses, and the 35 reconstructed fences.

Rules notes, "Components": every constraint listed there is checked on the files.
"""

from __future__ import annotations

from collections import Counter

from games.stubborn_sheep.data import (
    BONUS_COLOUR,
    BONUSES,
    COLOURS,
    DOWN,
    EFFECTIVE,
    FENCE_FILE,
    FENCES,
    LEFT,
    RIGHT,
    SHEEP,
    SHEEP_FILE,
    UP,
    load_fences,
    load_sheep,
)


def test_78_sheep_18_blue_18_red_18_yellow_24_white() -> None:
    """Rulebook: "78 Sheep cards in 4 colours: 18 blue, 18 red, 18 yellow and 24 white"."""
    assert len(SHEEP) == 78
    counts = Counter(COLOURS[colour] for colour, _ in SHEEP)
    assert counts == {"blue": 18, "red": 18, "yellow": 18, "white": 24}


def test_each_bonus_printed_on_six_cards_of_its_colour() -> None:
    """Notes: each card prints one bonus for the advanced rule, six cards of each."""
    counts = Counter(bonus for _, bonus in SHEEP)
    assert set(counts) == set(range(len(BONUSES))) and len(BONUSES) == 13
    assert all(count == 6 for count in counts.values())
    for colour, bonus in SHEEP:
        assert BONUS_COLOUR[bonus] == colour


def test_35_fences_of_4_icons_in_two_rows() -> None:
    """Notes: 35 fence cards, each with 4 sheep icons in two rows of a big and a small."""
    assert len(FENCES) == 35
    assert all(len(icons) == 4 for icons in FENCES)


def test_each_colour_appears_35_times_over_the_fences() -> None:
    counts = Counter(colour for icons in FENCES for colour, _ in icons)
    assert counts == {0: 35, 1: 35, 2: 35, 3: 35}


def test_every_fence_has_an_icon_on_each_side_and_20_split_2_2_15_split_3_1() -> None:
    splits = Counter()
    for icons in FENCES:
        left = sum(1 for _, side in icons if side == LEFT)
        right = sum(1 for _, side in icons if side == RIGHT)
        assert left >= 1 and right >= 1
        splits[tuple(sorted((left, right)))] += 1
    assert splits == {(2, 2): 20, (1, 3): 15}


def test_no_two_fences_are_identical() -> None:
    assert len(set(FENCES)) == 35
    # The reconstruction also avoids a card equal to another one turned.
    turned = {EFFECTIVE[card][DOWN] for card in range(35)}
    assert not turned & {EFFECTIVE[card][UP] for card in range(35)}


def test_files_say_they_are_reconstructions_and_reload_identically() -> None:
    """Rules README: a header comment says the list is a reconstruction."""
    for path in (FENCE_FILE, SHEEP_FILE):
        header = path.read_text().splitlines()[0:5]
        assert any("RECONSTRUCTION" in line for line in header), path
    assert load_fences() == FENCES
    assert load_sheep() == SHEEP


def test_turning_swaps_rows_and_sides() -> None:
    """Notes: `down` (turned 180 degrees): the outer row becomes the inner row, and
    left and right swap."""
    for icons in FENCES:
        down = EFFECTIVE[FENCES.index(icons)][DOWN]
        assert down[0] == (icons[2][0], 1 - icons[2][1])
        assert down[1] == (icons[3][0], 1 - icons[3][1])
        assert down[2] == (icons[0][0], 1 - icons[0][1])
        assert down[3] == (icons[1][0], 1 - icons[1][1])


def test_every_fence_shows_at_least_two_colours() -> None:
    """The file header's project choice: "every card shows at least 2 colours"."""
    for card, icons in enumerate(FENCES):
        assert len({colour for colour, _ in icons}) >= 2, card
