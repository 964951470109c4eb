"""Search support for Stubborn Sheep: sampling a state from an observation, and
the heuristic that `greedy` and `mcts` use (see `games.ai`).

Sampling (`from_observation`). Everything on the table is public: the sheep in
every area (in arrival order), the top card, orientation and height of every
fence stack, every score pile, the wolf, the turn's activation bookkeeping and
the pending decision (phase, context, the icon being resolved). Hidden from a
seat are the other hands, the order of the fence and sheep piles, the fences
removed at setup, and (because the observation does not list them) the cards
covered in the fence stacks and the contents of the sheep discard pile. The
unseen sheep (not in an area or a score pile) are shuffled with `rng` and split
into the sheep pile and the discard pile by their public sizes; the unseen
fence cards (not on top of a stack, not in the seat's hand) are shuffled and
dealt to the other hands, the fence pile, the covered slots of the stacks and
the box, by their public sizes. The pending decision is rebuilt by putting the
engine's pending steps back on its stack: during an activation the icons after
the one being resolved, then either the next activation step or (for a red
`activate_extra` used before placing) the placement.

The heuristic (`evaluate`), per seat, in scored sheep:

- the sheep scored so far (the final score), plus `SET_WEIGHT` per complete set
  of 4 colours (the tie-break);
- the pen's promise: per colour, `PEN_VALUE[n]` for `n` sheep of that colour in
  the seat's pen (capped at 4). A group of 3 scores 1 and one of 4 scores 2, so
  `PEN_VALUE[3] < 1` and `PEN_VALUE[4] < 2`: scoring always beats keeping. White
  sheep count as their own colour with `WHITE_VALUE` (a little more: they are
  jokers for every other colour);
- the next activation of the seat's own two fences (they activate on each of
  its turns): every icon that would bring a sheep of its colour into the pen
  from a neighbouring area adds `INFLOW` times the marginal pen value of one
  more sheep of that colour; every icon that would send one of the pen's sheep
  out subtracts `OUTFLOW` times the marginal value lost. Only the seat to move
  with its activations still to come, or the next seats, will see them, so
  this is an estimate, weighted low.

On a finished game it returns the final scores.
"""

from __future__ import annotations

import random
from typing import Any

from games.stubborn_sheep import phases
from games.stubborn_sheep.actions import Decline, UseBonus
from games.stubborn_sheep.data import (
    EFFECTIVE,
    N_FENCES,
    N_SHEEP,
    SHEEP_COLOUR,
    WHITE,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.state import StubbornSheepState

SET_WEIGHT = 0.01
PEN_VALUE = (0.0, 0.15, 0.45, 0.8, 1.7)
WHITE_VALUE = (0.0, 0.2, 0.5, 0.8, 1.7)
INFLOW = 0.5
OUTFLOW = 0.5

# The engine step that poses each decision again.
_STEP_OF_PHASE: dict[int, Any] = {
    phases.PH_PLACE: (phases.T_PLACE,),
    phases.PH_BETWEEN: (phases.T_BETWEEN,),
    phases.PH_SCORE: (phases.T_SCORE,),
    phases.PH_COMPANION: phases.T_COMPANIONS,
    phases.PH_BUMP: phases.T_BUMP,
}


def from_observation(observation: Any, seat: int, rng: random.Random) -> StubbornSheepState:
    """A full state consistent with `observation` (a StubbornSheepObservation
    message) as `seat` sees it; the hidden parts drawn with `rng`."""
    obs = observation
    players = obs.players
    state = StubbornSheepState(players, rng.getrandbits(64), obs.wolf_variant, obs.bonus_actions)
    n = state.n
    if len(obs.areas) != n or len(obs.fences) != n:
        raise ValueError("the observation's circle does not fit its player count")

    # Public: the table, the score piles, the turn.
    state.areas = [[sheep.id for sheep in area.sheep] for area in obs.areas]
    state.orient = [fence.orientation - 1 for fence in obs.fences]
    state.scored = [[[sheep.id for sheep in pile.sheep] for pile in p.scored] for p in obs.seats]
    state.wolf = obs.wolf_area
    state.current = obs.current
    state.turn = obs.turn
    state.final_left = obs.turns_left
    state.used = sum(1 << (colour - 1) for colour in obs.bonus_colours_used)
    state.queue = list(obs.activation.queue)
    state.activated = list(obs.activation.activated)
    state.activating = obs.activation.fence
    state.icon = obs.activation.icon

    # Hidden sheep: the pile and the discard, split by their public sizes.
    seen_sheep = {card for area in state.areas for card in area}
    seen_sheep.update(card for piles in state.scored for pile in piles for card in pile)
    unseen_sheep = [card for card in range(N_SHEEP) if card not in seen_sheep]
    if len(unseen_sheep) != obs.sheep_pile + obs.discard_pile:
        raise ValueError("sheep pile and discard sizes do not match the unseen sheep")
    rng.shuffle(unseen_sheep)
    state.sheep_pile = unseen_sheep[: obs.sheep_pile]
    state.discard = unseen_sheep[obs.sheep_pile :]

    # Hidden fences: other hands, the pile, the covered cards, the box.
    own_hand = [card.id for card in obs.hand]
    tops = [fence.card.id for fence in obs.fences]
    seen_fences = set(tops) | set(own_hand)
    unseen = [card for card in range(N_FENCES) if card not in seen_fences]
    rng.shuffle(unseen)
    deal = iter(unseen)
    try:
        state.hands = [
            list(own_hand) if s == seat else [next(deal) for _ in range(p.hand_size)]
            for s, p in enumerate(obs.seats)
        ]
        state.fence_pile = [next(deal) for _ in range(obs.fence_pile)]
        state.stacks = [
            [*(next(deal) for _ in range(fence.height - 1)), fence.card.id] for fence in obs.fences
        ]
    except StopIteration:
        raise ValueError("more hidden fence cards than unseen ones") from None
    state.fence_box = list(deal)

    _resume(state, obs.phase - 1, tuple(obs.context))
    state._events = []
    return state


def _resume(state: StubbornSheepState, phase: int, ctx: tuple[int, ...]) -> None:
    """Put the engine's pending steps back and let it pose the decision again."""
    tasks = state._tasks
    if phase == phases.PH_OVER:
        state.phase, state.ctx, state._legal = phases.PH_OVER, (), ()
        return
    if phase == phases.PH_ORIENT:
        order = state.orient_order()
        state.setup_order = order[order.index(ctx[0]) :]
        state._next_orient()
        return
    if phase == phases.PH_BLUE:
        tasks.append((phases.T_PLACE,))
        state._decide(phases.PH_BLUE, (), (Decline(), *state._blue_options()))
        return
    if phase in (
        phases.PH_JUMPER,
        phases.PH_TAKES_TWO,
        phases.PH_COMPANION,
        phases.PH_BUMP,
        phases.PH_BLUE_MOD,
    ):
        f, k = state.activating, state.icon
        # A red `activate_extra` used before placing runs with the placement
        # still to come: then nothing is queued and it is the only activation.
        before_placing = not state.queue and state.activated == [f]
        tasks.append((phases.T_PLACE,) if before_placing else (phases.T_BETWEEN,))
        tasks.extend((phases.T_ICON, f, j) for j in range(3, k, -1))
        if phase == phases.PH_TAKES_TWO:
            state._decide(phase, ctx, (Decline(), UseBonus(YELLOW_TAKES_TWO)))
            return
        if phase == phases.PH_BLUE_MOD:
            state._decide(phase, ctx, (Decline(), UseBonus(state._bonus(YELLOW))))
            return
        # The step that poses this decision: the icon itself, or the ability.
        tasks.append(
            (phases.T_ICON, f, k) if phase == phases.PH_JUMPER else (_STEP_OF_PHASE[phase], *ctx)
        )
    else:
        tasks.append(_STEP_OF_PHASE[phase])
    state._run()


# ----------------------------------------------------------------- heuristic


def _pen_value(counts: list[int]) -> float:
    return (
        PEN_VALUE[min(counts[0], 4)]
        + PEN_VALUE[min(counts[1], 4)]
        + PEN_VALUE[min(counts[2], 4)]
        + WHITE_VALUE[min(counts[3], 4)]
    )


def _gain(counts: list[int], colour: int, delta: int) -> float:
    table = WHITE_VALUE if colour == WHITE else PEN_VALUE
    have = counts[colour]
    after = max(0, min(have + delta, 4))
    return table[after] - table[min(have, 4)]


def seat_value(state: StubbornSheepState, seat: int) -> float:
    """One seat's heuristic value (module docstring)."""
    piles = state.scored[seat]
    value = float(sum(len(p) for p in piles)) + SET_WEIGHT * min(len(p) for p in piles)
    pen = state.pens[seat]
    counts = [0, 0, 0, 0]
    for card in state.areas[pen]:
        counts[SHEEP_COLOUR[card]] += 1
    value += _pen_value(counts)
    n = state.n
    areas = state.areas
    # The pen's own fences: fence f separates area f-1 (left) from area f (right).
    for f in (pen, (pen + 1) % n):
        for colour, side in EFFECTIVE[state.stacks[f][-1]][state.orient[f]]:
            src = (f - 1) % n if side == 0 else f
            if src == pen:
                if counts[colour]:
                    value += OUTFLOW * _gain(counts, colour, -1)
            elif any(SHEEP_COLOUR[card] == colour for card in areas[src]):
                value += INFLOW * _gain(counts, colour, 1)
    return value


def evaluate(state: StubbornSheepState) -> tuple[float, ...]:
    """Each seat's scored sheep plus the promise of its pen (module docstring)."""
    if state.phase == phases.PH_OVER:
        return tuple(float(s) for s in state.result().scores)
    return tuple(seat_value(state, seat) for seat in range(state.players))


# Search settings: a sheep or two is a clear lead in this game; short random
# rollouts help (depth 0 was much worse in 20-game checks).
REWARD_SCALE = 1.0
MCTS_SETTINGS = {"milliseconds": 50.0, "rollout_depth": 3, "determinizations": 8}
