"""Search support for Sheep 'n' Sheep (see `games.ai`): sampling a full state
from one seat's observation, and the heuristic the `greedy` and `mcts` bots use.

Sampling. A seat sees its own hand, every pasture, the market, the discard pile
and the sizes of everything else. The cards it sees nowhere are shuffled with
`rng` and dealt to the other hands (at their public sizes), the deck and the
stock (at theirs), so every consistent hidden assignment can be drawn. The
placement in progress (start, tips, numbers, cards placed) is public and copied.

Heuristic (`evaluate`), per seat, in VP:

- the score the seat would have if the game ended now (bells, hearts and stars
  awards among all seats, one-VP icons, complete groups, the size penalty);
- plus, for each same-colour group still smaller than its condition, `PARTIAL`
  times its VP times (size / condition), times `hope` (a group that is too large
  is dead and counts 0, as in the final scoring);
- plus `HAND` VP per card in hand, times `hope`;
- `hope` = min(1, own turns left / `HORIZON`): the seat's turns still to come,
  counted exactly once the end is triggered and estimated before that from the
  deck (about one turn per deck card across the table, since half the turns take
  a set of 2). Hopes fade to 0 on a seat's last turn: unplaced cards and
  unfinished groups score nothing at the end.
- For the seat in the middle of a placement, the value of the position is the
  better of stopping now (when STOP is legal) and its best next placement, one
  card deep; so a bot that starts a placement sees what the best first card is
  worth, and a bot that may stop weighs one more card against its hand value.

At the end of the game `evaluate` is exactly the final score.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from sheepfold.v1 import sheep_n_sheep_pb2 as pb

from games.sheep_n_sheep.actions import Place
from games.sheep_n_sheep.cards import (
    BELL,
    COLOUR,
    CONDITION,
    DECK_SIZE,
    HEART,
    ICON,
    NUMBER,
    ONE_VP,
    STAR,
    VP,
)
from games.sheep_n_sheep.observation import Placement
from games.sheep_n_sheep.scoring import BELL_AWARDS, HEART_AWARDS, STAR_AWARDS, awards
from games.sheep_n_sheep.state import _DIRS, _W, FREE, RUN, SAME, SheepNSheepState, pack

HAND = 1.0  # VP per card in hand while the game has a future
PARTIAL = 0.6  # share of an unfinished group's (size/condition) VP counted
HORIZON = 4.0  # own turns left at which hopes count fully
_LOOKAHEAD = (SAME, RUN, FREE)

# Search settings (see games.ai): about 10 VP of margin is a clear lead; 200
# iterations with 4-action rollouts take about 25 ms of CPU per decision.
REWARD_SCALE = 10.0
MCTS_SETTINGS = {"iterations": 200, "milliseconds": 50.0, "rollout_depth": 4, "determinizations": 8}

_PHASE_NAME = {
    pb.SHEEP_N_SHEEP_PHASE_TURN: "turn",
    pb.SHEEP_N_SHEEP_PHASE_SAME: "same",
    pb.SHEEP_N_SHEEP_PHASE_RUN: "run",
    pb.SHEEP_N_SHEEP_PHASE_DISCARD: "discard",
    pb.SHEEP_N_SHEEP_PHASE_FREE: "free",
    pb.SHEEP_N_SHEEP_PHASE_OVER: "over",
}


# ---------------------------------------------------------------------- sampling


def _opt(message: Any, name: str) -> Any:
    return getattr(message, name) if message.HasField(name) else None


def _cell(message: Any, name: str) -> tuple[int, int] | None:
    if not message.HasField(name):
        return None
    cell = getattr(message, name)
    return cell.x, cell.y


def _placement(message: Any) -> Placement:
    return Placement(
        kind=_PHASE_NAME[message.phase],
        start=_cell(message, "start"),
        placed=message.placed,
        number=_opt(message, "number"),
        tip=_cell(message, "tip"),
        up_tip=_cell(message, "up_tip"),
        up_next=_opt(message, "up_next"),
        down_tip=_cell(message, "down_tip"),
        down_next=_opt(message, "down_next"),
    )


_COPY_ID = re.compile(r" #\d+")


def action_key(label: str) -> str:
    """A label without its card's id ("place G1 at (1,0)"): with two copies of
    a face in hand, the game offers the copy everybody saw it take, which the
    observation does not tell, so a sample may offer the other; the two are the
    same card to play, in the same place in the list."""
    return _COPY_ID.sub("", label)


def from_observation(observation: Any, seat: int, rng: random.Random) -> SheepNSheepState:
    """A full state consistent with `observation` (a SheepNSheepObservation
    message as `seat` receives it); hidden cards are dealt at random with `rng`."""
    obs = observation
    players = obs.players
    hand = [card.id for card in obs.hand]
    market = [(s.cards[0].id, s.cards[1].id) for s in obs.market]
    pastures = [{(pc.cell.x, pc.cell.y): pc.card.id for pc in p.cards} for p in obs.pastures]
    discard = [card.id for card in obs.discard]
    seen = set(hand)
    seen.update(c for pair in market for c in pair)
    seen.update(c for p in pastures for c in p.values())
    seen.update(discard)
    unseen = [c for c in range(DECK_SIZE) if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for other, size in enumerate(obs.hand_sizes):
        if other == seat:
            hands.append(hand)
        else:
            hands.append(unseen[:size])
            del unseen[:size]
    if len(unseen) != obs.deck_size + obs.stock_size:
        raise ValueError("the observation's sizes do not add up to the unseen cards")
    _fit_first_card(obs, seat, hands, unseen)
    deck, stock = unseen[: obs.deck_size], unseen[obs.deck_size :]
    turn = obs.turn
    return SheepNSheepState.from_position(
        players,
        hands=hands,
        market=market,
        deck=deck,
        stock=stock,
        pastures=pastures,
        discard=discard,
        seat=turn % players,
        turn=turn,
        last_turn=_opt(obs, "last_turn"),
        seed=rng.getrandbits(64),
        phase=_PHASE_NAME[obs.phase],
        placement=_placement(obs.placement) if obs.HasField("placement") else None,
    )


def _fit_first_card(obs: Any, seat: int, hands: list[list[int]], unseen: list[int]) -> None:
    """Another seat that began a placement from a card of its pasture and placed
    nothing yet holds a card it can place first (a placement is begun only then,
    which everybody saw): if its sampled hand has none, trade one of its cards
    for an unseen one that fits (from the deck and stock, else another hand)."""
    mover = obs.to_move if obs.HasField("to_move") else None
    if mover is None or mover == seat or not obs.HasField("placement"):
        return
    placement = obs.placement
    if placement.placed or not placement.HasField("start"):
        return
    wanted = {_opt(placement, name) for name in ("number", "up_next", "down_next")} - {None}
    hand = hands[mover]
    if not hand or any(NUMBER[card] in wanted for card in hand):
        return
    pools = [unseen, *(h for other, h in enumerate(hands) if other not in (seat, mover))]
    for pool in pools:
        for i, card in enumerate(pool):
            if NUMBER[card] in wanted:
                pool[i], hand[0] = hand[0], card
                return


# ---------------------------------------------------------------------- heuristic


def _turns_left(state: SheepNSheepState, seat: int) -> float:
    """The seat's turns still to come, not counting one in progress."""
    players = state.players
    turn = state._turn
    if state._last_turn is not None:
        last = state._last_turn
    else:
        # About one turn per deck card across the table (half the turns take a
        # set of 2), then the round finishes and one more is played.
        last = ((turn + len(state._deck)) // players + 2) * players - 1
    # Turns t in (turn, last] with t % players == seat.
    first = turn + 1 + (seat - turn - 1) % players
    return max(0, (last - first) // players + 1) if first <= last else 0


def _pasture(pasture: dict[int, int], hope: float) -> tuple[float, int, int, int]:
    """(private value, bell value, hearts, stars) of one packed pasture."""
    if not pasture:
        return 0.0, 0, 0, 0
    value = 0.0
    hearts = stars = 0
    bells: list[int] = []
    seen: set[int] = set()
    xs = [key // _W for key in pasture]
    ys = [key % _W for key in pasture]
    value -= max(xs) - min(xs) + max(ys) - min(ys) + 2
    for key, card in pasture.items():
        icon = ICON[card]
        if icon == ONE_VP:
            value += 1
        elif icon == HEART:
            hearts += 1
        elif icon == STAR:
            stars += 1
        elif icon == BELL:
            bells.append(key)
        if key in seen:
            continue
        colour = COLOUR[card]
        seen.add(key)
        todo = [key]
        size = 0
        while todo:
            at = todo.pop()
            size += 1
            for d in _DIRS:
                near = at + d
                other = pasture.get(near)
                if other is not None and near not in seen and COLOUR[other] == colour:
                    seen.add(near)
                    todo.append(near)
        need = CONDITION[card]  # the colour decides the condition
        if size == need:
            value += VP[card]
        elif size < need:
            value += PARTIAL * hope * VP[card] * size / need
    return value, _largest(bells), hearts, stars


def _largest(cells: list[int]) -> int:
    left = set(cells)
    best = 0
    while left:
        todo = [left.pop()]
        size = 0
        while todo:
            at = todo.pop()
            size += 1
            for d in _DIRS:
                if at + d in left:
                    left.remove(at + d)
                    todo.append(at + d)
        best = max(best, size)
    return best


Parts = tuple[float, int, int, int]  # private value, bell value, hearts, stars


def _parts(state: SheepNSheepState, seat: int, hope: float) -> Parts:
    value, bell, hearts, stars = _pasture(state._pastures[seat], hope)
    return value + HAND * hope * len(state._hands[seat]), bell, hearts, stars


def _combine(parts: Sequence[Parts]) -> list[float]:
    bell_awards = awards([p[1] for p in parts], BELL_AWARDS)
    heart_awards = awards([p[2] for p in parts], HEART_AWARDS)
    star_awards = awards([p[3] for p in parts], STAR_AWARDS)
    return [p[0] + bell_awards[s] + heart_awards[s] + star_awards[s] for s, p in enumerate(parts)]


def _margin(values: Sequence[float], seat: int) -> float:
    return values[seat] - max((v for i, v in enumerate(values) if i != seat), default=0.0)


def evaluate(state: SheepNSheepState) -> Sequence[float]:
    """Heuristic value per seat (see the module docstring); the final scores at the end."""
    if state.to_move is None:
        return state.result().scores
    hopes = [min(1.0, _turns_left(state, s) / HORIZON) for s in range(state.players)]
    parts = [_parts(state, s, hopes[s]) for s in range(state.players)]
    values = _combine(parts)
    if state._phase not in _LOOKAHEAD:
        return tuple(values)
    # Mid-placement: the better of stopping (once legal) and the best next card.
    seat = state._seat
    pasture = state._pastures[seat]
    hope = hopes[seat]
    hand_value = HAND * hope * (len(state._hands[seat]) - 1)
    best = _margin(values, seat) if state._placed else None
    best_values = values
    for action in state.legal_actions():
        if type(action) is not Place:
            continue
        key = pack(action.x, action.y)
        pasture[key] = action.card
        value, bell, hearts, stars = _pasture(pasture, hope)
        del pasture[key]
        option = parts[:]
        option[seat] = (value + hand_value, bell, hearts, stars)
        option_values = _combine(option)
        margin = _margin(option_values, seat)
        if best is None or margin > best:
            best, best_values = margin, option_values
    return tuple(best_values)
