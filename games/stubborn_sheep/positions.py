"""Checks for a hand-built Stubborn Sheep position (`StubbornSheepState.from_position`).

A position names each sheep card and each fence card at most once, only real
cards, the right number of areas, fences, hands and score piles, and each scored
sheep in the pile of its own colour; a mistake is a ValueError naming it, never a
position the rules could not reach that plays on quietly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.options import brief
from games.positions import whole_number
from games.stubborn_sheep.data import COLOURS, N_FENCES, N_SHEEP, ORIENTATIONS, SHEEP_COLOUR
from games.words import noun

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


def check_bonus(bonus: object) -> None:
    """The bonus_actions option is a bool: a truthy "no" turned it on."""
    if not isinstance(bonus, bool):
        raise ValueError(
            f"bonus (the bonus_actions option) must be True or False, not {brief(bonus)}"
        )


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
        if not whole_number(orientation) or orientation not in range(len(ORIENTATIONS)):
            raise ValueError(
                f"fence {fence}: orientation {orientation!r} is neither 0 (up) nor 1 (down)"
            )
    # None or -1 (as observations give it): no wolf.
    if wolf is not None and (not whole_number(wolf) or (wolf != -1 and wolf not in meadows)):
        raise ValueError(
            f"the wolf must be in a meadow ({', '.join(map(str, meadows))}), not area {wolf!r}"
        )
    if not whole_number(current) or current not in range(players):
        raise ValueError(f"current seat {current!r} is not a seat of {players}")
    if start not in STARTS:
        raise ValueError(f"start {start!r} is none of {', '.join(STARTS)}")
    if start != "score" and not hands[current]:
        raise ValueError(f"seat {current} has no fence card in hand to play")
    if final_left != -1 and (
        not whole_number(final_left) or final_left not in range(1, players + 1)
    ):
        raise ValueError(
            f"final_left {final_left!r}: -1 before the final round, else 1 to {players}"
        )
    check_hand_sizes(players, hands, current, start, final_left)


def hand_sizes(players: int, current: int, start: str, final_left: int) -> list[int]:
    """How many fence cards each seat holds at this point of a game: one card,
    played in its turn's placement and replaced at the turn's end while the
    fence pile lasts. So before the final round every seat holds 1, the seat
    scoring (its card placed) 0; in the final round nobody draws, and only the
    seats still to play (`final_left` of them from `current` on, clockwise)
    hold 1, again but the seat scoring. A seat or `final_left` out of range
    (refused by `check_position`) gives everybody 1."""
    if current not in range(players) or final_left not in (-1, *range(1, players + 1)):
        return [1] * players
    to_play = players if final_left == -1 else final_left
    sizes = [1 if (seat - current) % players < to_play else 0 for seat in range(players)]
    if start == "score":
        sizes[current] = 0
    return sizes


def check_hand_sizes(
    players: int, hands: Sequence[Sequence[int]], current: int, start: str, final_left: int
) -> None:
    """ValueError unless each seat holds what `hand_sizes` says a game gives it."""
    for seat, (hand, want) in enumerate(
        zip(hands, hand_sizes(players, current, start, final_left), strict=True)
    ):
        if len(hand) != want:
            when = "before the final round" if final_left == -1 else f"with final_left {final_left}"
            at = f"at {start!r}" if seat == current else f"with seat {current} at {start!r}"
            cards = "fence card" if len(hand) == 1 else "fence cards"
            raise ValueError(
                f"seat {seat} holds {len(hand)} {cards} {at} {when}: a game gives it {want}"
                " (one card a turn, placed in the turn and drawn again at its end; none"
                " drawn in the final round)"
            )


def check_fence_pile(pile: Sequence[int], final_left: int) -> None:
    """ValueError for an empty fence pile before the final round, or one with
    cards in it: the draw that empties the pile starts that round, so no game
    gets to either (a seat would come to a turn with no card to draw, or the
    game would end with cards never drawn)."""
    if final_left == -1 and not pile:
        raise ValueError(
            "the fence pile is empty before the final round: the draw that "
            "empties it starts the final round (give final_left)"
        )
    if final_left != -1 and pile:
        raise ValueError(
            f"{len(pile)} {noun(len(pile), 'fence card')} in the pile in the final round: the draw "
            "that empties it starts the final round (give fence_pile=[])"
        )


def check_turn(players: int, current: int, turn: int) -> int:
    """`turn`, when it is `current`'s: turns count from 0 and go round the table,
    so turn t is seat t mod `players`'s; else a ValueError."""
    if type(turn) is not int or turn < 0 or turn % players != current:
        raise ValueError(
            f"turn {turn!r} is not seat {current}'s: turns count from 0, turn t being "
            f"seat t mod {players}'s"
        )
    return turn
