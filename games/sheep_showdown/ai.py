"""Search support for Sheep Showdown: sampling a state from an observation, and
the heuristic that `greedy` and `mcts` use (see `games.ai`).

What a seat does not see:

- the contents of the other flocks (their sizes are public);
- the sheep card under each blocked cell (the public grid shows BLOCKED);
- which cards left the game (bombs, a discarded blocking sheep): the grid only
  shows empty cells;
- the generator: which card a steal takes, the next rounds' meadows.

`from_observation` copies everything public and takes the cards the seat sees
nowhere (the round's deck minus the face-up grid, one blocking sheep per
blocked cell or in hand, and the own flock) as the unseen pool. Each blocked
cell gets a random sheep card of the pool, each other flock a random draw of
its size from the pool's sheep and wolves (the only cards a flock can hold),
and the rest is "removed". Every assignment consistent with these facts can be
drawn. The state's generator is seeded from `rng`. Finished rounds keep their
public round scores; their per-card details (sheep points, wolves) are not
public and are not rebuilt.

The heuristic (`evaluate`), per seat, in points:

    totals + round score of the flock now (sheep - wolves) + potential

The potential is zero once a seat is out (or the game is over). A seat still in
gets, for each dog still in, the sheep it could collect: every sheep card the
dog can reach within MAX_DEPTH (3) ordinary steps through enterable cards (a
breadth-first search that does not cross dogs, blocked or empty cells), worth
`value * DECAY ** (d - 1)` at distance `d`, times `REACH`; plus `MOBILITY` per
free neighbouring card (a dog with few ways out is about to be blocked and
robbed). Cards on the edge of several dogs' regions count for each of them; the
DECAY keeps that local. Rocket, sliding and shepherd moves are not followed
(cheapness first: evaluate runs once per MCTS iteration). REACH 0.5, DECAY 0.6,
MOBILITY 0.5 were tuned in greedy-vs-greedy games: without the potential greedy
wins 15%; the values sit on a flat optimum (REACH 0.25-1.0 and MOBILITY 0-0.5
within noise).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.sheep_showdown import cards as C
from games.sheep_showdown.state import BLOCKER, NONE, PLACE, SheepShowdownState

REACH = 0.5  # weight of the discounted sheep a dog can still reach
DECAY = 0.6  # discount per extra step of distance
MAX_DEPTH = 3  # the search stops there (further sheep are worth little)
MOBILITY = 0.5  # per legal step the dog has now

# Search settings (games.ai): a lead of about 10 points is a clear one (players
# score roughly 15-25 a round); the tree search's budget per decision (about
# 30 ms of CPU; random rollouts cost more than they help here).
REWARD_SCALE = 10.0
MCTS_SETTINGS = {"iterations": 300, "milliseconds": 50.0, "rollout_depth": 0, "determinizations": 8}

_POINTS = (0, 1, 2, 3, 5)  # by card code for the sheep cards 0..4
_FLOCKABLE = (C.SHEEP1, C.SHEEP2, C.SHEEP3, C.SHEEP5, C.WOLF)


def _cell(msg: Any, size: int) -> int:
    return msg.row * size + msg.col


def from_observation(observation: Any, seat: int, rng: random.Random) -> SheepShowdownState:
    """A full state consistent with `observation` (a SheepShowdownObservation
    message) as `seat` sees it; the hidden cards and the generator from `rng`."""
    obs = observation
    players = obs.players
    size = obs.size
    per = 2 if obs.double_trouble else 1
    state = object.__new__(SheepShowdownState)
    state.players = players
    state.rounds = obs.rounds
    state.dt = obs.double_trouble
    state.dogs_per = per
    state.size = size
    state.geo = C.geometry(size)
    state.step = state.geo.step
    state.cap = obs.turn_cap
    state.rng = random.Random(rng.getrandbits(64))
    state.round = obs.round
    state.first_player = obs.first_player
    state.totals = list(obs.totals)
    state.records = [
        [
            {
                "round": number + 1,
                "sheep_points": score,
                "wolves": 0,
                "round_score": score,
                "out_at_turn": None,
            }
            for score in per_round.scores
        ]
        for number, per_round in enumerate(obs.round_scores)
    ]
    state._events = []
    state._cache = None
    state._reset_round_fields()

    for view in obs.dogs:
        if view.HasField("cell"):
            cell = _cell(view.cell, size)
            state.pos[view.dog] = cell
            state.occ[cell] = view.dog
        state.out[view.dog] = view.out
    state.out_at = [
        None if inside else at for inside, at in zip(obs.players_in, obs.out_at_turn, strict=True)
    ]
    state.clock = obs.turn
    state.bonus_player = obs.last_player if obs.HasField("last_player") else None
    state.bonus_left = obs.last_steps_left
    state.pending = obs.decision
    state.moving = obs.decision_dog if obs.HasField("decision_dog") else -1
    state.decider = obs.to_move if obs.HasField("to_move") else -1
    state.turn_player = obs.turn_player if obs.HasField("turn_player") else None
    # The dog a wolf chain excludes is always the decider's own, which the
    # decider may not push anyway: -1 gives the same choices.
    state.exclude = -1
    state.rockets = frozenset(_cell(cell, size) for cell in obs.used_rockets)
    state.began_free = sum(1 << dog for dog in obs.free_at_turn_start)
    state.steal_queue = list(obs.steal_from)
    # Wire directions are shifted by one (0 is UNSPECIFIED).
    state.entered = obs.entered_direction - 1 if obs.HasField("entered_direction") else -1
    if state.pending == PLACE:
        first = obs.first_player
        if per == 2:
            other = 1 - first
            order = [(first, 2 * first), (other, 2 * other), (other, 2 * other + 1)]
            order.append((first, 2 * first + 1))
        else:
            order = [((first - i) % players,) * 2 for i in range(players)]
        state.place_queue = [(s, dog) for s, dog in order if state.pos[dog] < 0]

    # The unseen pool: the round's cards minus everything the seat sees.
    pool = Counter(C.deck(size))
    grid = list(obs.grid)
    covered = [cell for cell, card in enumerate(grid) if card == C.BLOCKED]
    seen = Counter(card for card in grid if card not in (C.EMPTY, C.BLOCKED))
    seen[C.BLOCKING] += len(covered) + (1 if state.pending == BLOCKER else 0)
    seen.update(obs.own_flock)
    pool.subtract(seen)
    if any(count < 0 for count in pool.values()):
        raise ValueError(f"the observation shows more cards than the deck holds: {pool}")
    unseen = list(pool.elements())
    rng.shuffle(unseen)
    sheep = [i for i, card in enumerate(unseen) if C.SHEEP1 <= card <= C.SHEEP5]
    if len(sheep) < len(covered):
        raise ValueError("fewer unseen sheep than blocked cells")
    for cell, index in zip(covered, sheep, strict=False):
        grid[cell] = C.BLOCKED_FLAG | unseen[index]
        unseen[index] = C.EMPTY
    flockable = [card for card in unseen if card in _FLOCKABLE]
    rest = [card for card in unseen if card != C.EMPTY and card not in _FLOCKABLE]
    state.grid = grid
    flocks: list[list[int]] = []
    start = 0
    for owner, count in enumerate(obs.flock_sizes):
        if owner == seat:
            flocks.append(list(obs.own_flock))
            continue
        flocks.append(flockable[start : start + count])
        start += count
    if start > len(flockable):
        raise ValueError("fewer unseen sheep and wolves than the other flocks hold")
    state.flocks = flocks
    state.removed = rest + flockable[start:]
    return state


def evaluate(state: SheepShowdownState) -> tuple[float, ...]:
    """Points per seat: totals + current flock + potential (module docstring)."""
    if state.pending == NONE:  # the last round is already in the totals
        return tuple(float(total) for total in state.totals)
    values = []
    for seat in range(state.players):
        flock = state.flocks[seat]
        value = float(state.totals[seat])
        for card in flock:
            value += _POINTS[card] if card <= C.SHEEP5 else -1.0 if card == C.WOLF else 0.0
        values.append(value)
    per = state.dogs_per
    for dog, cell in enumerate(state.pos):
        if cell < 0 or state.out[dog]:
            continue
        values[dog // per] += _dog_potential(state, dog, cell)
    return tuple(values)


def _dog_potential(state: SheepShowdownState, dog: int, start: int) -> float:
    grid = state.grid
    occ = state.occ
    orth = state.geo.orth
    seen = {start}
    frontier = [start]
    total = 0.0
    weight = REACH
    moves = 0
    for depth in range(MAX_DEPTH):
        nxt = []
        for cell in frontier:
            for n in orth[cell]:
                if n in seen:
                    continue
                seen.add(n)
                card = grid[n]
                if card == C.EMPTY or card >= C.BLOCKED_FLAG or occ[n] >= 0:
                    continue
                if card <= C.SHEEP5:
                    total += weight * _POINTS[card]
                nxt.append(n)
        if depth == 0:
            moves = len(nxt)
        frontier = nxt
        weight *= DECAY
    return total + MOBILITY * moves
