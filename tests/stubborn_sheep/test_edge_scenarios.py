"""Rule scenarios at the edges a fresh audit found unpinned: the largest table
(5 players, the last seat across the seam), the wolf's prey after sheep have
jumped into its meadow, and every way the scoring sentences allow a pen to be
scored, enumerated from the rulebook independently of the engine.

Five players: seat s owns fence 2s (right, towards the previous seat), pen 2s
and fence 2s+1 (left, towards the next seat); area 2s+1 is the meadow between
seat s and seat s+1, so seat 4's left fence 9 borders the meadow shared with
seat 0 (area 9).
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations, permutations

import pytest

from games.stubborn_sheep.actions import PlaceFence, Score
from games.stubborn_sheep.data import BLUE, LEFT, N_SHEEP, RIGHT, SHEEP_COLOUR, UP, WHITE
from games.stubborn_sheep.events import FenceActivated, IconJump, WolfMoved
from games.stubborn_sheep.state import StubbornSheepState

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, until_next_turn, w, y

# ------------------------------------------------------------------ five players


@pytest.mark.parametrize(
    ("fence", "order"),
    [(2, [2, 9, 8]), (0, [0, 9, 8]), (9, [9, 8]), (8, [8, 9])],
)
def test_the_fifth_seat_activates_its_left_fence_across_the_seam_first(
    fence: int, order: list[int]
) -> None:
    """Rulebook: "If you placed it on one of your own fences, activate your other fence.
    If you placed it on a fence that does not belong to you, activate both of your
    fences, starting with the one on the left, then the one on the right." Seat 4 of
    five owns fence 8 (right) and fence 9 (left, towards seat 0): placing on seat 1's
    fence 2 or seat 0's fence 0 activates it, then 9, then 8."""
    state = StubbornSheepState.from_position(5, areas=empty_areas(10), current=4, start="place")
    events = until_next_turn(state.apply(pick(state, PlaceFence, fence=fence, orientation=UP)))
    assert [p.fence for p in events if isinstance(p, FenceActivated)] == order


def test_the_fifth_seat_restocks_only_its_own_pen_to_the_colour_gap() -> None:
    """Rulebook: "Look at the sheep scored by the player who has scored the greatest
    number of different colours. Count how many more colours that player has than you.
    Add sheep ... to your pen until it contains a number of sheep equal to that count.
    Do not restock the pens of other players." Seat 1 has scored all 4 colours (5
    sheep), seat 2 more sheep of 2 colours, seat 4 one colour: pen 8 gets 3 sheep, the
    other pens none, and all five meadows are filled to 4."""
    scored: list[list[list[int]]] = [
        [[], [], [], []],
        [[b(0), b(1)], [r(0)], [y(0)], [w(0)]],
        [[b(2), b(3), b(4), b(5)], [r(1), r(2), r(3)], [], []],
        [[], [], [], []],
        [[b(6)], [], [], []],
    ]
    state = StubbornSheepState.from_position(
        5, areas=empty_areas(10), scored=scored, current=4, start="turn"
    )
    assert [len(state.areas[pen]) for pen in state.pens] == [0, 0, 0, 0, 3]
    assert [len(state.areas[m]) for m in state.meadows] == [4] * 5


# ------------------------------------------------------------------ the wolf


def test_the_wolf_takes_the_sheep_longest_in_its_meadow_not_one_that_just_jumped_in() -> None:
    """Rulebook: "In that meadow, discard two sheep of the most represented colour";
    notes: the ones that have been in that meadow longest. A white sheep jumps from
    pen 1 (area 2) into meadow 3 during seat 0's turn, making meadow 3 the fullest with
    three whites: the wolf discards the two whites that were there before it."""
    card, orientation = find_fence(
        lambda icons: (
            any(c == WHITE and s == LEFT for c, s in icons)
            and not any(c in (WHITE, BLUE) and s == RIGHT for c, s in icons)
        )
    )
    areas = empty_areas(6)
    areas[2] = [w(2)]
    areas[3] = [w(0), b(0), w(1)]
    state = frame3(card, areas, wolf=1)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    jumps = [p.card for p in events if isinstance(p, IconJump) and p.card >= 0]
    assert jumps == [w(2)]
    (moved,) = [p for p in events if isinstance(p, WolfMoved)]
    assert moved == WolfMoved(1, 3, (w(0), w(1)))
    assert state.areas[3] == [b(0), w(2)]


def test_the_wolf_starts_right_of_the_first_player_with_four_players() -> None:
    """Rulebook: "Place the wolf in the meadow to the right of the first player": with
    four players the meadow between seat 3 and seat 0, area 7, which borders seat 0's
    right fence (fence 0)."""
    state = StubbornSheepState.new_game(4, 1, wolf=True, bonus=False)
    assert state.wolf == 7 and state.area_owner[7] == -1 and state.fence_owner[0] == 0


# ------------------------------------------------------------------ scoring


def _rulebook_groups(pen: list[int]) -> set[tuple[int, tuple[int, ...], frozenset[int]]]:
    """Every group the scoring sentences allow, as (colour, scored cards with the top
    one last, discarded cards). "If your pen contains 3 or 4 sheep of the same colour,
    you may score them. If you have 3, score 1 sheep and discard the other 2. If you
    have 4, score 2 sheep and discard the other 2" (notes: with 5 or more of a colour
    the player picks which ones form the group). "You may use up to 2 white sheep as if
    they were any other colour ... you must discard the white sheep before discarding
    sheep of the chosen colour" (notes: at least one sheep of the colour itself). "You
    may also score white sheep as a colour in their own right" (then no stand-ins)."""
    by_colour = [[card for card in pen if SHEEP_COLOUR[card] == c] for c in range(4)]
    groups = set()
    for colour, own in enumerate(by_colour):
        stand_ins = 0 if colour == WHITE else 2
        for size in (3, 4):
            for kept in range(1, size + 1):
                jokers = size - kept
                if jokers > stand_ins or (len(own) <= 4 and kept != len(own)):
                    continue
                for chosen in combinations(own, kept):
                    for whites in combinations(by_colour[WHITE], jokers):
                        for scored in permutations(chosen, size - 2):
                            discarded = frozenset(whites) | (frozenset(chosen) - set(scored))
                            if len(discarded) == 2:  # the whites are among the 2 discarded
                                groups.add((colour, scored, discarded))
    return groups


def test_the_scoring_options_are_exactly_the_groups_the_rulebook_allows() -> None:
    """Random pens of 0 to 9 sheep: the engine offers each group the sentences allow
    once, and nothing else (no 3 of 4 reds, no third white, no white kept on the pile
    while a stand-in, no group of stand-ins without its colour)."""
    rng = random.Random(2024)
    for _ in range(400):
        pen = rng.sample(range(N_SHEEP), rng.randrange(10))
        areas = empty_areas(6)
        areas[0] = pen
        state = frame3(20, areas, start="score")
        offered = [a for a in state.legal_actions() if isinstance(a, Score)]
        as_groups = {(a.colour, a.scored, frozenset(a.discarded)) for a in offered}
        assert len(as_groups) == len(offered), pen
        assert as_groups == _rulebook_groups(pen), sorted(SHEEP_COLOUR[c] for c in pen)


# ------------------------------------------------------------------ what is public


@pytest.mark.parametrize("players", [1, 2, 5])
def test_every_seat_sees_the_whole_table_face_up(players: int) -> None:
    """Rulebook: fences are placed "face up", sheep are placed "face up" in pens and
    meadows, scored sheep are placed "face up" in score piles; notes: everything on the
    table and all scored piles are public. Through a random game with both options,
    every seat's observation shows the table exactly as it lies (each fence's top card,
    how it lies and its height, every area's sheep, every seat's piles bottom to top,
    the wolf, the sizes of the piles and hands) and differs from a spectator's only in
    its seat and its own hand."""
    state = StubbornSheepState.new_game(players, 17, wolf=True, bonus=True)
    rng = random.Random(17)
    while not state.terminal:
        public = state.observation(None)
        assert [a.sheep for a in public.areas] == [tuple(a) for a in state.areas]
        assert [(f.card, f.orientation, f.height) for f in public.fences] == [
            (stack[-1], state.orient[f], len(stack)) for f, stack in enumerate(state.stacks)
        ]
        assert public.scored == tuple(
            tuple(tuple(pile) for pile in piles) for piles in state.scored
        )
        assert public.wolf == state.wolf
        assert (public.sheep_pile, public.discard_pile, public.fence_pile) == (
            len(state.sheep_pile),
            len(state.discard),
            len(state.fence_pile),
        )
        assert public.hand_sizes == tuple(len(hand) for hand in state.hands)
        for seat in range(players):
            mine = state.observation(seat)
            assert mine.hand == tuple(state.hands[seat])
            assert replace(mine, seat=None, hand=()) == public
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
