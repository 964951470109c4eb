"""Search support (games/sheep_showdown/ai.py): states sampled from an
observation agree with it and play on; sampling reaches every consistent hidden
card; the heuristic; greedy and mcts finish games through the real server."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sheepfold.v1 import sheep_showdown_pb2 as pb

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.ai import evaluate, from_observation
from games.sheep_showdown.state import BLOCKER, ROCKET, STEAL, USE_CARD, SheepShowdownState
from tests.conftest import play_lineups

from .helpers import RIGHT, UP, position, rocket, step, use_card, wolf_dog

CASES = [(2, {}), (2, {"double_trouble": True}), (3, {}), (4, {}), (5, {}), (6, {})]
SHEEP = {C.SHEEP1, C.SHEEP2, C.SHEEP3, C.SHEEP5}
FLOCKABLE = SHEEP | {C.WOLF}


def observe(state: SheepShowdownState, seat: int) -> pb.SheepShowdownObservation:
    return GAME.codec.observation_to_proto(state.observation(seat))


def labels(state: SheepShowdownState) -> list[str]:
    return [action.label for action in state.legal_actions()]


def hidden_parts(state: SheepShowdownState, seat: int) -> dict[str, list[int]]:
    """What `seat` cannot see: the other flocks, the covered sheep, the removed cards."""
    parts = {f"flock {owner}": sorted(flock) for owner, flock in enumerate(state.flocks)}
    del parts[f"flock {seat}"]
    parts["covered"] = sorted(card ^ C.BLOCKED_FLAG for card in state.grid if card >= 16)
    parts["removed"] = sorted(state.removed)
    return parts


def unseen_pool(state: SheepShowdownState, seat: int) -> Counter[int]:
    """The round's cards minus every card `seat` sees (grid, own flock, the
    blocking sheep on blocked cells or in hand)."""
    pool = Counter(C.deck(state.size))
    obs = state.observation(seat)
    pool.subtract(card for card in obs.grid if card not in (C.EMPTY, C.BLOCKED))
    pool[C.BLOCKING] -= obs.grid.count(C.BLOCKED) + (state.pending == BLOCKER)
    pool.subtract(obs.own_flock)
    return +pool


def check_sample(state: SheepShowdownState, seat: int, rng: random.Random) -> SheepShowdownState:
    observation = observe(state, seat)
    sampled = from_observation(observation, seat, rng)
    assert observe(sampled, seat) == observation
    assert sampled.to_move == state.to_move
    assert labels(sampled) == labels(state)
    assert sampled.prompt() == state.prompt()
    assert sampled.players == state.players and sampled.round == state.round
    # the hidden positions hold exactly the unseen cards, each where it can be
    parts = hidden_parts(sampled, seat)
    assert Counter(card for cards in parts.values() for card in cards) == unseen_pool(state, seat)
    assert set(parts["covered"]) <= SHEEP
    for name, cards in parts.items():
        if name.startswith("flock"):
            assert set(cards) <= FLOCKABLE
            assert len(cards) == len(state.flocks[int(name.split()[1])])
    assert Counter(sampled.all_cards()) == Counter(C.deck(state.size))
    return sampled


@pytest.mark.parametrize(("players", "options"), CASES)
def test_sampled_states_agree_with_the_observation_and_play_on(
    players: int, options: dict[str, object]
) -> None:
    """At many decisions of random games, a state sampled from any seat's
    observation gives that seat the same observation (protobuf form), the same
    player to move, the same legal action labels and prompt, hides only unseen
    cards, and random play from it reaches the end of the game."""
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        state = GAME.new_state(players, seed, {**options, "rounds": 2})
        chooser = random.Random(seed)
        number = 0
        while not state.terminal:
            if number % 2 == 0:
                seat = state.to_move if number % 4 == 0 else number % players
                sampled = check_sample(state, seat, rng)
                checked += 1
                if number % 21 == 0:
                    while not sampled.terminal:
                        sampled.apply(rng.choice(sampled.legal_actions()))
                    assert len(sampled.result().ranks) == players
            state.apply(chooser.choice(state.legal_actions()))
            number += 1
    assert checked > 100


def test_the_sampled_generator_comes_from_rng() -> None:
    """The real seed is unknown: two samples differ in their generator, and the
    same rng seed gives the same sample."""
    state = GAME.new_state(3, 4)
    observation = observe(state, 0)
    one = from_observation(observation, 0, random.Random(1))
    two = from_observation(observation, 0, random.Random(2))
    again = from_observation(observation, 0, random.Random(1))
    assert one.rng.getstate() != two.rng.getstate()
    assert one.rng.getstate() == again.rng.getstate() and one.flocks == again.flocks


def find_rich_position() -> tuple[SheepShowdownState, int]:
    """A decision of a random game with cards of every hidden kind: other
    flocks holding several cards, blocked cells and cards blown up."""
    for seed in range(200):
        state = GAME.new_state(3, seed, {"rounds": 1})
        chooser = random.Random(seed)
        while not state.terminal:
            seat = state.to_move
            others = [len(f) for s, f in enumerate(state.flocks) if s != seat]
            covered = sum(card >= C.BLOCKED_FLAG for card in state.grid)
            if min(others) >= 3 and covered and len(state.removed) >= 4:
                return state, seat
            state.apply(chooser.choice(state.legal_actions()))
    raise AssertionError("no position with every kind of hidden card")


def test_sampling_reaches_every_consistent_hidden_card() -> None:
    """Over many samples every unseen card kind that may be in a hidden place
    shows up there: any sheep or wolf in another flock, any sheep under a
    blocked cell, any unseen card among the removed ones; and nothing else."""
    state, seat = find_rich_position()
    pool = set(unseen_pool(state, seat))
    observation = observe(state, seat)
    rng = random.Random(5)
    seen: dict[str, set[int]] = {}
    for _ in range(400):
        sampled = from_observation(observation, seat, rng)
        for name, cards in hidden_parts(sampled, seat).items():
            seen.setdefault(name, set()).update(cards)
    for name, kinds in seen.items():
        if name.startswith("flock"):
            assert kinds == pool & FLOCKABLE, name
        elif name == "covered":
            assert kinds == pool & SHEEP
        else:
            assert kinds == pool, name


def test_the_used_rockets_of_a_chain_are_rebuilt() -> None:
    """The engine rule "a rocket already used in this chain cannot be landed on
    again" shapes a pending rocket decision; the observation names the used
    rockets so a sampled state offers the same directions."""
    rows = ["SR.R...", ".......", ".1.3...", ".......", ".......", ".......", "......S"]
    state = position(rows, {0: (0, 0), 1: (6, 6)})
    step(state, RIGHT)
    rocket(state, RIGHT)
    assert state.pending == ROCKET
    observation = observe(state, 0)
    assert [(c.row, c.col) for c in observation.used_rockets] == [(0, 1), (0, 3)]
    sampled = from_observation(observation, 0, random.Random(0))
    assert labels(sampled) == labels(state) == ["rocket dog 0 down"]
    # without it, back onto the first rocket (which could still jump down) looks legal
    del observation.used_rockets[:]
    forgetful = from_observation(observation, 0, random.Random(0))
    assert labels(forgetful) == ["rocket dog 0 down", "rocket dog 0 left"]


def grid7(*rows: str) -> list[str]:
    """A 7x7 grid: the given rows padded with empty cells."""
    return [row.ljust(7, ".") for row in rows] + ["......."] * (7 - len(rows))


def test_the_new_decisions_are_rebuilt_and_play_on_alike() -> None:
    """A sampled state poses the same steal and use-card decisions, slides the
    same way, and knows which dogs the mover can still block."""
    rows = grid7("SW...", "..3..", "..L..", "..S..", "....1")
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == USE_CARD
    sampled = check_sample(state, 0, random.Random(3))
    use_card(state)
    use_card(sampled)
    assert sampled.pos == state.pos and sampled.flocks[1] == state.flocks[1]

    state = position(grid7("...1S", "...S."), {0: (1, 3), 1: (0, 4)})
    state.flocks[1] = [C.SHEEP2, C.WOLF]
    step(state, UP)
    assert state.pending == STEAL
    assert labels(check_sample(state, 1, random.Random(4))) == ["steal from seat 1", "decline"]

    # a dog stuck before the turn began cannot be blocked in the sampled state either
    state = position(grid7(".1...", ".....", "..S11"), {0: (2, 2), 1: (0, 0)}, to_move=1)
    state.flocks[1] = [C.SHEEP5]
    step(state, RIGHT)
    sampled = check_sample(state, 0, random.Random(5))
    step(sampled, RIGHT)
    assert sampled.pending != STEAL and sampled.out_at[1] == 1


def test_out_turns_are_rebuilt_for_the_tie_break() -> None:
    """ "In case of a tie, the player who lasted the longest in the meadow during
    the final round wins": the turn each seat went out is public and rebuilt."""
    for seed in range(30):
        state = GAME.new_state(3, seed, {"rounds": 1})
        chooser = random.Random(seed)
        while not state.terminal:
            if sum(at is not None for at in state.out_at) == 1:
                sampled = from_observation(observe(state, 1), 1, random.Random(0))
                assert sampled.out_at == state.out_at
                return
            state.apply(chooser.choice(state.legal_actions()))
    raise AssertionError("no seat ever went out alone")


# ------------------------------------------------------------------ the heuristic


def test_evaluate_is_the_score_once_the_game_is_over() -> None:
    state = GAME.new_state(4, 8, {"rounds": 1})
    chooser = random.Random(8)
    while not state.terminal:
        state.apply(chooser.choice(state.legal_actions()))
    assert evaluate(state) == state.result().scores


def test_evaluate_counts_the_flock_and_what_a_dog_can_still_reach() -> None:
    """Round score is "sheep on flock cards minus wolves"; a dog in a meadow of
    sheep is worth more than one hemmed in, and a seat that is out has only
    its points."""
    open_rows = ["S5555", "55555", ".....", ".....", "....S"]
    state = position(open_rows, {0: (0, 0), 1: (4, 4)}, flocks={1: [C.SHEEP5, C.WOLF]})
    values = evaluate(state)
    assert values[0] > values[1] >= 4.0
    out = position(open_rows, {0: (0, 0), 1: (4, 4)}, out_dogs=(1,), flocks={1: [C.SHEEP5]})
    assert evaluate(out)[1] == 5.0


# ------------------------------------------------------------------ through the server


def test_greedy_and_mcts_finish_games_through_the_server() -> None:
    """Both bots play whole matches over gRPC: 2 players (also Double Trouble),
    4 and 6 players."""
    lineups = [
        ([GreedyBot(seed=1), MCTSBot(seed=2, iterations=30)], {"rounds": "1"}),
        ([MCTSBot(seed=3, iterations=30), GreedyBot(seed=4)], {"double_trouble": "true"}),
        (
            [MCTSBot(seed=5, iterations=30), GreedyBot(seed=6), RandomBot(7), RandomBot(8)],
            {"rounds": "1"},
        ),
        ([GreedyBot(seed=s) for s in range(5)] + [MCTSBot(seed=9, iterations=30)], {"rounds": "1"}),
    ]

    play_lineups(GAME.name, lineups, first_seed=70)
