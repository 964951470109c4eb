"""Checks for a hand-built Stubborn Sheep position (`StubbornSheepState.from_position`).

A position names each sheep card and each fence card at most once, only real
cards, the right number of areas, fences, hands and score piles, and each scored
sheep in the pile of its own colour; a mistake is a ValueError naming it, never a
position the rules could not reach that plays on quietly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.stubborn_sheep.data import COLOURS, N_FENCES, N_SHEEP, ORIENTATIONS, SHEEP_COLOUR

STARTS = ("turn", "place", "score")


def check_each_once(cards: Iterable[int], count: int, kind: str) -> None:
    """Every card is a real one (id 0..count-1) and none is named twice."""
    seen: set[int] = set()
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < count:
            raise ValueError(f"{kind} card {card!r} is no card: ids are 0 to {count - 1}")
        if card in seen:
            raise ValueError(f"{kind} card {card} is in the position twice")
        seen.add(card)


def check_count(name: str, items: Sequence[object], want: int) -> None:
    if len(items) != want:
        raise ValueError(f"{name}: {len(items)} given, this table has {want}")


def check_position(
    players: int,
    n: int,
    meadows: Sequence[int],
    *,
    areas: Sequence[Sequence[int]],
    fences: Sequence[int],
    orientations: Sequence[int],
    hands: Sequence[Sequence[int]],
    scored: Sequence[Sequence[Sequence[int]]],
    sheep: Sequence[int],
    fence_cards: Sequence[int],
    wolf: int | None,
    current: int,
    start: str,
    final_left: int,
) -> None:
    """Raise ValueError unless the parts fit a table of `players` with `n` areas."""
    check_count("areas", areas, n)
    check_count("fences", fences, n)
    check_count("orientations", orientations, n)
    check_count("hands", hands, players)
    check_count("scored", scored, players)
    for seat, piles in enumerate(scored):
        check_count(f"scored[{seat}] (one pile per colour)", piles, len(COLOURS))
    check_each_once(sheep, N_SHEEP, "sheep")
    check_each_once(fence_cards, N_FENCES, "fence")
    for seat, piles in enumerate(scored):
        for colour, pile in enumerate(piles):
            for card in pile:
                if SHEEP_COLOUR[card] != colour:
                    raise ValueError(
                        f"sheep {card} is {COLOURS[SHEEP_COLOUR[card]]}, "
                        f"not in seat {seat}'s {COLOURS[colour]} pile"
                    )
    for fence, orientation in enumerate(orientations):
        if orientation not in range(len(ORIENTATIONS)):
            raise ValueError(
                f"fence {fence}: orientation {orientation!r} is neither 0 (up) nor 1 (down)"
            )
    if wolf is not None and wolf >= 0 and wolf not in meadows:
        raise ValueError(
            f"the wolf must be in a meadow ({', '.join(map(str, meadows))}), not area {wolf}"
        )
    if current not in range(players):
        raise ValueError(f"current seat {current!r} is not a seat of {players}")
    if start not in STARTS:
        raise ValueError(f"start {start!r} is none of {', '.join(STARTS)}")
    if start != "score" and not hands[current]:
        raise ValueError(f"seat {current} has no fence card in hand to play")
    if final_left != -1 and final_left not in range(1, players + 1):
        raise ValueError(
            f"final_left {final_left!r}: -1 before the final round, else 1 to {players}"
        )
