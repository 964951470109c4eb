"""Search support (games/stubborn_sheep/ai.py): states sampled from an observation
never contradict it, pose the same decision, cover every hidden card, and play
on to the end; the heuristic; greedy and mcts finish whole games through the
real server."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from games.stubborn_sheep import GAME
from games.stubborn_sheep.actions import Bump, PickSheep, PlaceFence, Score, UseBonus
from games.stubborn_sheep.ai import PEN_VALUE, WHITE_VALUE, evaluate, from_observation
from games.stubborn_sheep.data import ACTIVATE_EXTRA, DOWN, EFFECTIVE, N_FENCES, RED, SHEEP_COLOUR
from games.stubborn_sheep.state import (
    PH_BLUE,
    PH_BLUE_MOD,
    PH_BUMP,
    PH_COMPANION,
    PH_JUMPER,
    PH_ORIENT,
    PH_PLACE,
    PH_SCORE,
    PH_TAKES_TWO,
    PHASES,
    StubbornSheepState,
)
from tests.conftest import play_lineups

from .helpers import b, empty_areas, frame3, r, random_game, w, y

CODEC = GAME.codec
OPTION_SETS = [
    {"wolf": False, "bonus_actions": False},
    {"wolf": True, "bonus_actions": False},
    {"wolf": False, "bonus_actions": True},
    {"wolf": True, "bonus_actions": True},
]


def _labels(state: StubbornSheepState) -> list[str]:
    return [action.label for action in state.legal_actions()]


def _proto(state: StubbornSheepState, seat: int) -> Any:
    return CODEC.observation_to_proto(state.observation(seat))


def _check(state: StubbornSheepState, seat: int, rng: random.Random) -> StubbornSheepState:
    observation = _proto(state, seat)
    sampled = from_observation(observation, seat, rng)
    assert _proto(sampled, seat) == observation, state.render()
    assert sampled.to_move == state.to_move
    assert sampled.prompt() == state.prompt()
    assert (sampled.wolf_option, sampled.bonus_option) == (state.wolf_option, state.bonus_option)
    if seat == state.to_move:
        assert _labels(sampled) == _labels(state), state.prompt()
        # The engine's pending steps are rebuilt exactly, not just the decision.
        assert sampled._tasks == state._tasks, state.prompt()
    return sampled


def _play(state: StubbornSheepState, rng: random.Random) -> int:
    steps = 0
    while not state.terminal:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        steps += 1
        assert steps < 5000
    return steps


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_sampled_states_agree_with_every_observation(players: int) -> None:
    """At every decision of random games (each option set), the seat to move gets a
    sample with its exact observation (protobuf), prompt, legal actions and
    pending steps; the other seats' samples reproduce their observations."""
    rng = random.Random(players)
    phases: set[int] = set()
    for number, options in enumerate(OPTION_SETS):
        state = GAME.new_state(players, 10 * players + number, options)
        play = random.Random(number)
        decision = 0
        while True:
            seats = range(players) if decision % 4 == 0 else [state.to_move]
            for seat in seats:
                _check(state, seat if seat is not None else 0, rng)
            if state.terminal:
                break
            phases.add(state.phase)
            actions = state.legal_actions()
            state.apply(actions[play.randrange(len(actions))])
            decision += 1
    assert {PH_ORIENT, PH_PLACE, PH_JUMPER, PH_SCORE} <= phases


def test_sampled_states_pose_every_kind_of_decision() -> None:
    """Bonus decisions and decisions inside an activation (jumper, companion,
    bump, both yellow bonuses, the blue bonus) are rebuilt too: random 2- and
    3-player games with both options until each kind has been checked."""
    rng = random.Random(3)
    wanted = {PH_BLUE, PH_JUMPER, PH_TAKES_TWO, PH_COMPANION, PH_BUMP, PH_BLUE_MOD}
    seen: set[int] = set()
    for seed in range(40):
        state = GAME.new_state(2 + seed % 2, seed, {"wolf": True, "bonus_actions": True})
        play = random.Random(seed)
        while not state.terminal:
            if state.phase in wanted:
                seen.add(state.phase)
                assert state.to_move is not None
                _check(state, state.to_move, rng)
            actions = state.legal_actions()
            state.apply(actions[play.randrange(len(actions))])
        if seen == wanted:
            break
    assert seen == wanted, sorted(PHASES[p] for p in wanted - seen)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_play_from_a_sample_reaches_the_end(players: int) -> None:
    """A sampled state is a working game: random legal play from it finishes."""
    rng = random.Random(players)
    for number, options in enumerate(OPTION_SETS):
        state = GAME.new_state(players, 500 + number, options)
        play = random.Random(number)
        for _ in range(play.randrange(1, 120)):
            if state.terminal:
                break
            actions = state.legal_actions()
            state.apply(actions[play.randrange(len(actions))])
        if state.terminal:
            continue
        seat = state.to_move
        assert seat is not None
        sampled = _check(state, seat, rng)
        _play(sampled, rng)
        assert sampled.terminal and len(sampled.result().scores) == players


def test_a_finished_game_rebuilds_finished() -> None:
    for players in (1, 3):
        state, _, _ = random_game(players, 4, {"wolf": True, "bonus_actions": True})
        for seat in range(players):
            sampled = _check(state, seat, random.Random(seat))
            assert sampled.terminal and sampled.legal_actions() == ()
            assert sampled.result().scores == state.result().scores


@pytest.mark.parametrize(("players", "moves"), [(1, 30), (2, 40), (3, 25), (5, 60)])
def test_sampling_covers_every_hidden_card(players: int, moves: int) -> None:
    """Over many samples the hidden places (other hands, the fence pile, the
    covered fence cards, the sheep pile and the discard) hold only cards the seat
    sees nowhere, in the public numbers, and every such card turns up in each of
    the other hands, on top of the fence pile and on top of the sheep pile."""
    state = GAME.new_state(players, 77 + players, {"wolf": True, "bonus_actions": True})
    play = random.Random(players)
    for _ in range(moves):
        actions = state.legal_actions()
        state.apply(actions[play.randrange(len(actions))])
    seat = state.to_move
    assert seat is not None
    observation = _proto(state, seat)
    tops = {stack[-1] for stack in state.stacks}
    unseen_fences = set(range(N_FENCES)) - tops - set(state.hands[seat])
    seen_sheep = {c for area in state.areas for c in area}
    seen_sheep |= {c for piles in state.scored for pile in piles for c in pile}
    unseen_sheep = set(range(78)) - seen_sheep
    others = [s for s in range(players) if s != seat]
    in_hand: dict[int, set[int]] = {s: set() for s in others}
    pile_tops: set[int] = set()
    sheep_tops: set[int] = set()
    rng = random.Random(5)
    for _ in range(600):
        sampled = from_observation(observation, seat, rng)
        assert sampled.hands[seat] == state.hands[seat]
        hidden = [c for s in others for c in sampled.hands[s]]
        hidden += sampled.fence_pile + sampled.fence_box
        hidden += [c for stack in sampled.stacks for c in stack[:-1]]
        assert sorted(hidden) == sorted(unseen_fences)
        assert [len(s) for s in sampled.stacks] == [len(s) for s in state.stacks]
        assert len(sampled.fence_pile) == len(state.fence_pile)
        assert len(sampled.fence_box) == len(state.fence_box)
        assert sorted(sampled.sheep_pile + sampled.discard) == sorted(unseen_sheep)
        assert len(sampled.sheep_pile) == len(state.sheep_pile)
        for s in others:
            in_hand[s].update(sampled.hands[s])
        if sampled.fence_pile:
            pile_tops.add(sampled.fence_pile[-1])
        if sampled.sheep_pile:
            sheep_tops.add(sampled.sheep_pile[-1])
    for s in others:
        assert in_hand[s] == unseen_fences
    if state.fence_pile:
        assert pile_tops == unseen_fences
    if state.sheep_pile:
        assert sheep_tops == unseen_sheep


@pytest.mark.parametrize("players", [1, 2, 4])
def test_both_options_are_taken_from_the_observation(players: int) -> None:
    """`wolf` and `bonus_actions` come from the observation, with the wolf's
    meadow and the bonuses used this turn."""
    for options in OPTION_SETS:
        state = GAME.new_state(players, 9, options)
        play = random.Random(1)
        for _ in range(40):
            actions = state.legal_actions()
            state.apply(actions[play.randrange(len(actions))])
        seat = state.to_move
        assert seat is not None
        sampled = from_observation(_proto(state, seat), seat, random.Random(0))
        assert sampled.wolf_option == options["wolf"] and sampled.wolf == state.wolf
        assert sampled.bonus_option == options["bonus_actions"]
        assert sampled.used == state.used
        assert (sampled.wolf >= 0) == options["wolf"]


def test_a_red_bump_tells_which_icon_of_the_fence_comes_next() -> None:
    """A fence whose first two icons are both red (card 6 turned): at each bump
    decision the observation names the icon being resolved (0, then 1), so the
    sample still has the right icons to come and plays on exactly as the real one."""
    assert EFFECTIVE[6][DOWN][:2] == ((RED, 0), (RED, 0))
    areas = empty_areas(6)
    areas[2] = [r(0), r(1)]
    areas[3] = [w(0)]
    state = frame3(6, areas)
    state.apply(PlaceFence(3, DOWN, 6))
    state.apply(PickSheep(r(0)))
    icons = []
    while state.phase == PH_BUMP:
        icons.append(_proto(state, 0).activation.icon)
        sampled = _check(state, 0, random.Random(len(icons)))
        action = next(a for a in state.legal_actions() if isinstance(a, Bump) and a.clockwise)
        state.apply(action)
        sampled.apply(action)
        assert sampled.phase == state.phase
        if state.current == 0:  # the next turn restocks from the (hidden) pile
            assert sampled.areas == state.areas
    assert icons[:2] == [0, 1]


def test_an_extra_activation_before_placing_returns_to_the_placement() -> None:
    """Red `activate_extra` used before placing: a decision inside that activation
    is rebuilt with the placement still to come (rules: "You may use this action
    before placing your fence")."""
    card = 4
    colour, side = EFFECTIVE[card][0][0]
    src = 3 if side == 0 else 4
    same = [c for c in range(78) if SHEEP_COLOUR[c] == colour and c not in (r(2),)][:2]
    areas = empty_areas(6)
    areas[src] = same
    piles = [[[], [r(2)], [], []], [[], [], [], []], [[], [], [], []]]
    state = frame3(20, areas, scored=piles, bonus=True)
    state.apply(UseBonus(ACTIVATE_EXTRA, fence=card))
    assert state.phase == PH_JUMPER and state.queue == [] and state.activated == [4]
    sampled = _check(state, 0, random.Random(0))
    while state.phase != PH_PLACE:
        action = state.legal_actions()[0]
        state.apply(action)
        sampled.apply(action)
    assert sampled.phase == PH_PLACE and sampled.areas == state.areas
    assert _labels(sampled) == _labels(state)


# ------------------------------------------------------------------ the heuristic


def test_evaluate_is_the_result_at_the_end() -> None:
    for players in (1, 2, 4):
        state, _, _ = random_game(players, 6)
        assert evaluate(state) == state.result().scores


def test_scoring_always_beats_keeping_the_group() -> None:
    """Rulebook, step 3: "If you have 3, score 1 sheep and discard the other 2. If
    you have 4, score 2 sheep and discard the other 2." A scorable group in the
    pen is worth less than scoring it whole (and 4 scored beat 3 scored)."""
    for table in (PEN_VALUE, WHITE_VALUE):
        assert table[3] < 1.0 and table[4] < 2.0
        assert list(table) == sorted(table)
        assert 1.0 + table[1] < 2.0
    for group in ([b(0), b(1), b(2)], [b(0), b(1), b(2), b(3)]):
        areas = empty_areas(6)
        areas[0] = group
        state = frame3(20, areas, start="score")
        values = {0: evaluate(state)[0]}
        for action in state.legal_actions():
            if isinstance(action, Score) and action.jokers == 0:
                after = state.clone()
                after.apply(action)
                values[action.size] = evaluate(after)[0]
        assert values[len(group)] == max(values.values()) > values[0]


def test_sheep_in_the_pen_and_about_to_come_in_are_worth_something() -> None:
    areas = empty_areas(6)
    state = frame3(20, areas)
    empty = evaluate(state)[0]
    areas[0] = [y(0), y(1)]
    assert evaluate(frame3(20, areas))[0] > empty
    assert evaluate(frame3(20, areas))[1] == evaluate(state)[1]


# ------------------------------------------------------------- through the server


def test_greedy_and_mcts_finish_games_through_the_server() -> None:
    """Both bots play whole matches over gRPC for every player count, with both
    options in some of them."""
    lineups: list[tuple[list[Any], dict[str, str]]] = [
        ([GreedyBot(seed=1)], {}),
        ([MCTSBot(seed=2, iterations=30)], {"wolf": "true", "bonus_actions": "true"}),
        ([GreedyBot(seed=3), MCTSBot(seed=4, iterations=30)], {"bonus_actions": "true"}),
        ([MCTSBot(seed=5, iterations=30), GreedyBot(seed=6), RandomBot(7)], {"wolf": "true"}),
        ([GreedyBot(seed=8), MCTSBot(seed=9, iterations=30), RandomBot(10), RandomBot(11)], {}),
        (
            [
                MCTSBot(seed=12, iterations=20),
                GreedyBot(seed=13),
                *(RandomBot(s) for s in (14, 15, 16)),
            ],
            {"wolf": "true", "bonus_actions": "true"},
        ),
    ]

    play_lineups(GAME.name, lineups, first_seed=60)
