"""The card list reconstruction satisfies every constraint of the rules notes
(docs/games/sheep-n-sheep.md, "Cards")."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from importlib import resources

import pytest

from games.sheep_n_sheep.cards import CARDS, COLOURS, ICONS, load_cards
from tests.conftest import ROOT

EXPECTED = {  # colour: (condition, vp, cards)
    "white": (1, 2, 14),
    "black": (1, 2, 14),
    "brown": (2, 4, 16),
    "pink": (2, 4, 16),
    "blue": (3, 6, 18),
    "grey": (4, 8, 22),
}
ICON_COUNTS = {"bell": 15, "heart": 10, "star": 10, "one_vp": 10, "draw": 10, "none": 45}


def _raw() -> list[dict]:
    text = resources.files("games.sheep_n_sheep").joinpath("cards.toml").read_text("utf-8")
    return tomllib.loads(text)["cards"]


def test_header_says_it_is_a_reconstruction() -> None:
    text = resources.files("games.sheep_n_sheep").joinpath("cards.toml").read_text("utf-8")
    header = text.split("cards = [")[0]
    assert "RECONSTRUCTION" in header
    for constraint in ("14", "22", "20 cards each", "at most one", "more than 4"):
        assert constraint in header


def test_one_hundred_cards_with_ids_0_to_99() -> None:
    """'100 sheep cards, each with an id (0..99)'."""
    rows = _raw()
    assert [row["id"] for row in rows] == list(range(100))
    assert len(CARDS) == 100


def test_colours_counts_conditions_and_vp() -> None:
    """The table: six colours, their exact group size, VP and card count."""
    assert set(COLOURS) == set(EXPECTED)
    for colour, (condition, vp, count) in EXPECTED.items():
        cards = [c for c in CARDS if c.colour == colour]
        assert len(cards) == count, colour
        assert {c.condition for c in cards} == {condition}, colour
        assert {c.vp for c in cards} == {vp}, colour


def test_numbers_1_to_5_on_20_cards_each() -> None:
    """'each number appears on exactly 20 cards'."""
    assert Counter(c.number for c in CARDS) == {n: 20 for n in range(1, 6)}


def test_numbers_balanced_within_each_colour() -> None:
    """'within one colour the counts of the five numbers differ by at most 1'."""
    for colour in COLOURS:
        counts = Counter(c.number for c in CARDS if c.colour == colour)
        values = [counts[n] for n in range(1, 6)]
        assert max(values) - min(values) <= 1, (colour, values)


def test_icon_counts() -> None:
    """'bell 15, heart 10, star 10, one-VP sheep 10, draw-one-card 10, none 45'."""
    assert Counter(c.icon for c in CARDS) == ICON_COUNTS
    assert set(ICONS) == set(ICON_COUNTS)


def test_at_most_one_icon_per_card() -> None:
    """'At most one icon per card': the icon field is one string, one of the known icons."""
    for row in _raw():
        assert isinstance(row["icon"], str)
        assert row["icon"] in ICON_COUNTS
        assert set(row) == {"id", "colour", "number", "condition", "vp", "icon"}


def test_no_colour_carries_more_than_four_of_one_icon() -> None:
    """'Within each icon, no colour carries more than 4.'"""
    counts = Counter((c.icon, c.colour) for c in CARDS if c.icon != "none")
    assert max(counts.values()) <= 4, counts.most_common(3)


def test_loader_rejects_ids_out_of_order() -> None:
    bad = 'cards = [{ id = 1, colour = "white", number = 1, condition = 1, vp = 2, icon = "none" }]'
    with pytest.raises(ValueError, match="ids"):
        load_cards(bad)


def test_each_icon_is_spread_evenly_over_the_five_numbers() -> None:
    """The data file's header promises one more property than the notes ask for:
    'each icon is spread evenly over the five numbers (bell 3 per number, every
    other icon 2 per number)', so no placement number is richer in icons."""
    counts = Counter((c.icon, c.number) for c in CARDS)
    for icon, total in ICON_COUNTS.items():
        assert [counts[icon, n] for n in range(1, 6)] == [total // 5] * 5, icon


def test_the_guides_list_of_faces_with_copies_matches_the_cards() -> None:
    """The guide names the faces with two to four copies by their ids ('Twelve
    faces have two to four copies (ids 10-11, ...)') and the three with three or
    four; a bot author relies on them, so they must follow the card list."""
    guide = (ROOT / "docs" / "games" / "sheep-n-sheep.md").read_text()
    found = re.search(r"faces have two to four copies \(ids ([^)]*)\)", guide)
    assert found, "the guide lists the faces with copies"
    listed = [
        list(range(int(a), int(b) + 1))
        for a, b in (span.split("-") for span in re.sub(r"\s+", "", found.group(1)).split(","))
    ]
    faces: dict[tuple[str, int, str], list[int]] = {}
    for card in CARDS:
        faces.setdefault((card.colour, card.number, card.icon), []).append(card.id)
    assert listed == [ids for ids in faces.values() if len(ids) > 1]
    assert "Twelve faces" in guide and len(listed) == 12
    many = re.search(r"three faces of three or four copies \(([^)]*)\)", re.sub(r"\s+", " ", guide))
    assert many and many.group(1).split(", ") == [
        f"{ids[0]}-{ids[-1]}" for ids in listed if len(ids) >= 3
    ]
