"""The rulebook's jump and turn sentences, checked two ways.

Two scenarios pin "you must immediately apply its ability": an ability is
resolved before the fence's next icon. Then a replay oracle: random games with
every player count and option are replayed from their events alone, on a table
model written from the rulebook sentences (not from the engine), and every icon
jump, ability, activation order, restock and the final round must agree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import Bump, PlaceFence
from games.stubborn_sheep.data import (
    BLUE,
    BONUS_COLOUR,
    BONUSES,
    EFFECTIVE,
    LEFT,
    RED,
    RIGHT,
    SHEEP_BONUS,
    SHEEP_COLOUR,
    WHITE,
    YELLOW,
)
from games.stubborn_sheep.events import (
    BLUE_RUN,
    BONUS_MOVE,
    RED_BUMP,
    YELLOW_COMPANION,
    BonusUsed,
    FenceActivated,
    FenceDrawn,
    FenceOriented,
    FencePlaced,
    FenceRotated,
    FinalRound,
    IconJump,
    SheepMoved,
    SheepPlaced,
    SheepScored,
    TurnStarted,
    WolfMoved,
)
from games.stubborn_sheep.state import StubbornSheepState

from .helpers import b, empty_areas, find_fence, frame3, payloads, pick, r, y

# ------------------------------------------------------- abilities come first


def test_a_yellow_takes_its_companion_before_the_next_icon() -> None:
    """Rulebook: "When you make a yellow, red or blue sheep jump over a fence, you must
    immediately apply its ability". The yellow's only companion is the blue a later icon
    of the same fence asks for: it has already left, so that icon moves nobody."""
    card, orientation = find_fence(lambda e: e[0] == (YELLOW, LEFT) and (BLUE, LEFT) in e[1:])
    blue_icon = EFFECTIVE[card][orientation].index((BLUE, LEFT))
    areas = empty_areas(6)
    areas[2] = [y(0), b(0)]
    areas[0] = [b(1)]  # another blue, so a blue moved by an icon would run
    state = frame3(card, areas)
    events = payloads(state.apply(pick(state, PlaceFence, fence=3, orientation=orientation)))
    start = events.index(IconJump(3, 0, YELLOW, 2, 3, y(0)))
    assert events[start + 1] == SheepMoved(YELLOW_COMPANION, b(0), 2, 3, 3)
    assert IconJump(3, blue_icon, BLUE, 2, 3, -1) in events[start + 2 :]


def test_a_red_bumps_before_the_next_icon() -> None:
    """Rulebook: the red's headbutt is applied "immediately": the yellow it sends away
    is gone before a later icon of the same fence asks for a yellow in that area."""
    card, orientation = find_fence(lambda e: e[0] == (RED, LEFT) and (YELLOW, RIGHT) in e[1:])
    yellow_icon = EFFECTIVE[card][orientation].index((YELLOW, RIGHT))
    areas = empty_areas(6)
    areas[2] = [r(0)]
    areas[3] = [y(0)]
    state = frame3(card, areas)
    state.apply(pick(state, PlaceFence, fence=3, orientation=orientation))
    events = payloads(state.apply(Bump(y(0), True)))
    assert events[0] == SheepMoved(RED_BUMP, y(0), 3, 4, 4)
    assert IconJump(3, yellow_icon, YELLOW, 3, 2, -1) in events


# ------------------------------------------------------------ replay oracle

RESTOCK_BONUSES = {"pen_plus_one", "meadow_to_six", "all_meadows_to_five"}
EXTRA_ACTIVATIONS = {"activate_twice", "activate_extra"}
TURN_BONUSES = RESTOCK_BONUSES | EXTRA_ACTIVATIONS | {"rotate_fence"}


@dataclass
class TurnSeen:
    seat: int
    placed: int = -1
    activated: list[int] = field(default_factory=list)
    bonuses: set[str] = field(default_factory=set)
    colours_used: set[int] = field(default_factory=set)
    drew: bool = False


def _play(players: int, seed: int, options: dict[str, bool]):
    """A random game: its first state (after setup), every event and, for each turn,
    the table right after its restock (areas, colours scored per seat, wolf, sheep left)."""
    state = GAME.new_state(players, seed, options)
    first = state.clone()
    rng = random.Random(seed)
    events = []
    restocked = []
    while not state.terminal:
        legal = state.legal_actions()
        new = payloads(state.apply(legal[rng.randrange(len(legal))]))
        events.extend(new)
        if any(isinstance(p, TurnStarted) for p in new) and not state.terminal:
            restocked.append(
                (
                    [list(a) for a in state.areas],
                    [state.distinct_colours(s) for s in range(players)],
                    state.wolf,
                    len(state.sheep_pile) + len(state.discard),
                )
            )
    return first, state, events, restocked


def _check_jump(jump: IconJump, after: list, areas: list[list[int]], n: int) -> None:
    """The ability sentences for one icon jump; `after` are the events that follow it."""
    src, dst = jump.from_area, jump.to_area
    follow = []
    for p in after:
        if isinstance(p, SheepMoved) and p.cause != BONUS_MOVE:
            follow.append(p)
        elif isinstance(p, BonusUsed) and BONUSES[p.bonus] not in TURN_BONUSES:
            if BONUSES[p.bonus].startswith("move_"):
                break
            follow.append(p)
        else:
            break
    moves = [p for p in follow if isinstance(p, SheepMoved)]
    used = {BONUSES[p.bonus] for p in follow if isinstance(p, BonusUsed)}
    if jump.colour == YELLOW:
        # "it takes another sheep with it" (2 with the yellow bonus), from where it left.
        want = min(len(areas[src]), 2 if "yellow_takes_two" in used else 1)
        assert [(m.cause, m.from_area, m.to_area) for m in moves] == [
            (YELLOW_COMPANION, src, dst)
        ] * want, jump
    elif jump.colour == RED:
        # "headbutts a sheep ... in the area where it has just arrived", if there is one.
        others = len(areas[dst]) - 1
        assert [(m.cause, m.from_area) for m in moves] == [(RED_BUMP, dst)] * min(others, 1)
        if moves:
            assert moves[0].card != jump.card and moves[0].to_area in ((dst - 1) % n, (dst + 1) % n)
    elif jump.colour == BLUE:
        # "continues to jump in the same direction until it reaches an area containing
        # at least one other blue sheep", unless it started in the only area with blues.
        step = 1 if dst == (src + 1) % n else -1

        def other_blue(area: int) -> bool:
            return any(SHEEP_COLOUR[c] == BLUE and c != jump.card for c in areas[area])

        path = []
        if any(other_blue(a) for a in range(n) if a != src):
            here = dst
            while not other_blue(here):
                here = (here + step) % n
                path.append(here)
        if "blue_single_step" in used:
            path = []
        elif "blue_stops_after_one" in used:
            path = path[:1]
        assert [(m.cause, m.to_area) for m in moves] == [(BLUE_RUN, a) for a in path], jump
    else:
        assert moves == [], jump  # white sheep have no jumping ability


def _wolf_target(areas: list[list[int]], first: StubbornSheepState, wolf: int) -> int:
    """ "move the wolf to the meadow containing the most sheep. If there is a tie, move
    it clockwise to the first tied meadow it encounters. If the wolf is already in the
    meadow containing the most sheep, it does not move."""
    most = max(len(areas[m]) for m in first.meadows)
    n = first.n
    for step in range(n):
        area = (wolf + step) % n
        if area in first.meadows and len(areas[area]) == most:
            return area
    raise AssertionError("no meadow")


def _wolf_prey(meadow: list[int]) -> list[int]:
    """The colours the wolf discards: "two sheep of the most represented colour. If
    several colours are tied for being the most numerous, discard one sheep of each"."""
    counts = [sum(1 for c in meadow if SHEEP_COLOUR[c] == colour) for colour in range(4)]
    top = max(counts)
    if not top:
        return []
    tied = [colour for colour in range(4) if counts[colour] == top]
    if len(tied) > 1:
        return tied
    return [tied[0]] * min(2, top)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"wolf": True}, {"bonus_actions": True}, {"wolf": True, "bonus_actions": True}],
    ids=["plain", "wolf", "bonus", "wolf+bonus"],
)
@pytest.mark.parametrize("seed", [3, 11])
def test_random_games_replay_by_the_rulebook(
    players: int, options: dict[str, bool], seed: int
) -> None:
    first, last, events, restocked = _play(players, seed, options)
    n = first.n
    areas = [list(a) for a in first.areas]
    tops = [stack[-1] for stack in first.stacks]
    orient = list(first.orient)
    turns: list[TurnSeen] = []
    final_at = -1
    wolf = first.wolf
    piles: list[list[list[int]]] = [[[], [], [], []] for _ in range(players)]
    assert wolf == (n - 1 if options.get("wolf") else -1)  # right of the first player
    cards_to_play = len(first.fence_pile) + sum(len(h) for h in first.hands)
    for index, p in enumerate(events):
        if isinstance(p, FenceOriented | FenceRotated):
            orient[p.fence] = p.orientation
        elif isinstance(p, FencePlaced):
            tops[p.fence], orient[p.fence] = p.card, p.orientation
            turns[-1].placed = p.fence
        elif isinstance(p, SheepPlaced):
            # "add no sheep to the meadow where the wolf is located" (bonuses too).
            assert p.area != wolf or p.reason == "setup"
            areas[p.area].extend(p.cards)
        elif isinstance(p, SheepScored):
            # "If you have 3, score 1 sheep and discard the other 2. If you have 4, score
            # 2 sheep and discard the other 2." Whites standing in are discarded first.
            assert len(p.scored) in (1, 2) and len(p.discarded) == 2
            assert all(SHEEP_COLOUR[c] == p.colour for c in p.scored)
            assert all(SHEEP_COLOUR[c] in (p.colour, WHITE) for c in p.discarded)
            piles[p.seat][p.colour].extend(p.scored)
            for card in p.scored + p.discarded:
                areas[first.pens[p.seat]].remove(card)
        elif isinstance(p, WolfMoved):
            assert (p.from_area, p.to_area) == (wolf, _wolf_target(areas, first, wolf))
            assert sorted(SHEEP_COLOUR[c] for c in p.discarded) == _wolf_prey(areas[p.to_area])
            for card in p.discarded:
                areas[p.to_area].remove(card)
            wolf = p.to_area
        elif isinstance(p, SheepMoved):
            areas[p.from_area].remove(p.card)
            areas[p.to_area].append(p.card)
        elif isinstance(p, TurnStarted):
            if turns:  # "The turn then passes to the next player, in clockwise order."
                assert p.seat == (turns[-1].seat + 1) % players
            else:  # seat 0 is the first player
                assert p.seat == 0
            turns.append(TurnSeen(p.seat))
        elif isinstance(p, BonusUsed):
            # "You may only use the bonus action of the card at the top of each colour
            # pile. Each bonus action may only be used once per round."
            assert options.get("bonus_actions") and p.seat == turns[-1].seat
            colour = BONUS_COLOUR[p.bonus]
            assert piles[p.seat][colour] and SHEEP_BONUS[piles[p.seat][colour][-1]] == p.bonus
            assert colour not in turns[-1].colours_used
            turns[-1].colours_used.add(colour)
            turns[-1].bonuses.add(BONUSES[p.bonus])
        elif isinstance(p, FenceActivated):
            turns[-1].activated.append(p.fence)
        elif isinstance(p, FenceDrawn):
            turns[-1].drew = True
        elif isinstance(p, FinalRound):
            final_at = len(turns)
        elif isinstance(p, IconJump):
            # "A sheep of the indicated colour jumps over the fence to the opposite side."
            colour, side = EFFECTIVE[tops[p.fence]][orient[p.fence]][p.icon]
            f = p.fence
            src, dst = ((f - 1) % n, f) if side == LEFT else (f, (f - 1) % n)
            assert (p.colour, p.from_area, p.to_area) == (colour, src, dst)
            if p.card < 0:  # "If there is no sheep of that colour ..."
                assert not any(SHEEP_COLOUR[c] == colour for c in areas[src])
                continue
            assert SHEEP_COLOUR[p.card] == colour and p.card in areas[src]
            areas[src].remove(p.card)
            areas[dst].append(p.card)
            _check_jump(p, events[index + 1 :], areas, n)
    assert areas == last.areas
    # Restock: meadows (not the wolf's) to 4, the pen to the colour gap (never solo).
    for turn, (table, colours, wolf, left) in zip(turns, restocked, strict=False):
        if turn.bonuses & RESTOCK_BONUSES or not left:
            continue
        assert all(len(table[m]) >= 4 for m in first.meadows if m != wolf)
        if players > 1:
            assert len(table[first.pens[turn.seat]]) >= max(colours) - colours[turn.seat]
    # Activation: the placed fence, then the other own fence, or left then right.
    for turn in turns:
        if turn.bonuses & EXTRA_ACTIVATIONS:
            continue
        right, left = first._own(turn.seat)
        f = turn.placed
        want = [f, right] if f == left else [f, left] if f == right else [f, left, right]
        assert turn.activated == want
    # End: every card in hand or pile is played, one a turn; after the last fence is
    # drawn every player plays exactly one more turn, without drawing.
    assert len(turns) == cards_to_play
    assert final_at == len(turns) - players
    assert not any(turn.drew for turn in turns[final_at:])
    assert isinstance(last, StubbornSheepState) and last.terminal
    # "The player who has scored the most sheep wins ... In case of a tie, the winner is
    # the player with the greatest number of complete sets of 4 different colours ...
    # If the tie persists, the tied players share the victory."
    assert piles == last.scored
    keys = [(sum(map(len, mine)), min(map(len, mine))) for mine in piles]
    result = last.result()
    assert result.scores == tuple(float(points) for points, _ in keys)
    assert result.ranks == tuple(1 + sum(other > key for other in keys) for key in keys)
