"""Search support (games/sheep_n_sheep/ai.py): states sampled from an observation
never contradict it and cover every hidden card; the heuristic is the final score
at the end and values what it documents; greedy and mcts finish whole games
through the real server."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from games.sheep_n_sheep import GAME
from games.sheep_n_sheep.ai import HAND, HORIZON, PARTIAL, evaluate, from_observation
from games.sheep_n_sheep.cards import DECK_SIZE
from games.sheep_n_sheep.state import SheepNSheepState
from tests.conftest import play_lineups

from .helpers import Picker
from .play import play

CODEC = GAME.codec


def _labels(state: SheepNSheepState) -> list[str]:
    return [action.label for action in state.legal_actions()]


def _new(players: int, seed: int) -> SheepNSheepState:
    state = GAME.new_state(players, seed)
    assert isinstance(state, SheepNSheepState)
    return state


def _play_to(players: int, seed: int, moves: int) -> SheepNSheepState:
    state = _new(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.terminal:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _visible(state: SheepNSheepState, seat: int) -> set[int]:
    seen = set(state.hand(seat)) | set(state.discard)
    seen.update(card for pair in state.market for card in pair)
    for other in range(state.players):
        seen.update(state.pasture(other).values())
    return seen


def _check_sample(state: SheepNSheepState, seat: int, rng: random.Random) -> None:
    observation = CODEC.observation_to_proto(state.observation(seat))
    sampled = from_observation(observation, seat, rng)
    assert CODEC.observation_to_proto(sampled.observation(seat)) == observation
    assert sampled.to_move == state.to_move
    assert sampled.prompt() == state.prompt()
    if seat == state.to_move:
        assert _labels(sampled) == _labels(state), state.render()
    # The hidden zones hold exactly the cards the seat sees nowhere.
    hidden = [c for other in range(state.players) if other != seat for c in state.hand(other)]
    hidden += list(state.deck) + list(state.stock)
    mine = [c for other in range(state.players) if other != seat for c in sampled.hand(other)]
    mine += list(sampled.deck) + list(sampled.stock)
    assert sorted(mine) == sorted(hidden)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_states_agree_with_every_observation(players: int) -> None:
    """At every decision of random games, every seat's sample reproduces its
    observation (protobuf), the player to move and the prompt; the seat to move
    gets its legal actions in the same order, including mid-placement."""
    rng = random.Random(players)
    for seed in range(2):
        play(players, 100 * players + seed, each=lambda s, _a, _e: _each(s, rng))


def _each(state: SheepNSheepState, rng: random.Random) -> None:
    for seat in range(state.players):
        _check_sample(state, seat, rng)


def test_every_placement_phase_is_resumed() -> None:
    """The samples above met every decision kind: same, run (both branches), the
    free placement's discard and card, and the turn start."""
    phases: set[str] = set()
    branches: set[str] = set()

    def note(state: SheepNSheepState, action: object, _events: object) -> None:
        phases.add(state.phase)
        branches.add(getattr(action, "branch", ""))

    for seed in range(3):
        play(2, 200 + seed, each=note)
    assert phases >= {"turn", "same", "run", "discard", "free", "over"}
    assert branches >= {"", "up", "down"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_from_a_sample_reaches_the_end(players: int) -> None:
    """A sampled state is a working game: random legal play from it finishes."""
    rng = random.Random(7)
    for moves in (0, 15, 40, 80, 140):
        state = _play_to(players, 40 + moves, moves)
        if state.terminal:
            continue
        seat = state.to_move
        assert seat is not None
        sampled = from_observation(CODEC.observation_to_proto(state.observation(seat)), seat, rng)
        steps = 0
        while not sampled.terminal:
            actions = sampled.legal_actions()
            sampled.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps <= 3000
        assert len(sampled.result().scores) == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_game_rebuilds_with_every_score(players: int) -> None:
    """All pastures are public: a finished game's observation rebuilds a finished
    state with exactly the real scores."""
    state = play(players, 11).state
    for seat in range(players):
        observation = CODEC.observation_to_proto(state.observation(seat))
        sampled = from_observation(observation, seat, random.Random(seat))
        assert sampled.terminal and sampled.legal_actions() == ()
        assert CODEC.observation_to_proto(sampled.observation(seat)) == observation
        assert sampled.result().scores == state.result().scores


@pytest.mark.parametrize(("players", "moves"), [(2, 6), (3, 30), (4, 60)])
def test_sampling_covers_every_hidden_card(players: int, moves: int) -> None:
    """Over many samples: every other hand, the top of the deck and the top of the
    stock hold only cards the seat sees nowhere, and every such card turns up in
    each of those places."""
    state = _play_to(players, 5, moves)
    rng = random.Random(players)
    while not all(state.hand(o) for o in range(players) if o != state.to_move):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    seat = state.to_move
    assert seat is not None and state.deck and (state.stock or players == 4)
    unseen = set(range(DECK_SIZE)) - _visible(state, seat)
    observation = CODEC.observation_to_proto(state.observation(seat))
    others = [o for o in range(players) if o != seat and state.hand(o)]
    assert others
    in_hand: dict[int, set[int]] = {o: set() for o in others}
    tops: set[int] = set()
    stock_tops: set[int] = set()
    for _ in range(1500):
        sampled = from_observation(observation, seat, rng)
        assert sampled.hand(seat) == state.hand(seat)
        for other in others:
            in_hand[other].update(sampled.hand(other))
        if sampled.deck:
            tops.add(sampled.deck[-1])
        if sampled.stock:
            stock_tops.add(sampled.stock[-1])
    for other in others:
        assert in_hand[other] == unseen
    assert tops == (unseen if state.deck else set())
    assert stock_tops == (unseen if state.stock else set())


# ------------------------------------------------------------------ the heuristic


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluate_is_the_result_at_the_end(players: int) -> None:
    state = play(players, 21).state
    assert tuple(evaluate(state)) == state.result().scores


def _position(
    hands: list[list[int]], pastures: list[dict], deck: int = 40, **kw: object
) -> SheepNSheepState:
    pick = Picker()
    pick.used.update(c for h in hands for c in h)
    pick.used.update(c for p in pastures for c in p.values())
    filler = pick.filler(8 + deck)
    market = [(filler[2 * i], filler[2 * i + 1]) for i in range(4)]
    return SheepNSheepState.from_position(
        2, hands=hands, market=market, deck=filler[8:], pastures=pastures, **kw
    )


def test_hand_cards_and_unfinished_groups_count_while_turns_remain() -> None:
    """Early on (deck of 40, far more than HORIZON turns left) a hand card counts
    HAND and a grey pair (condition 4) counts PARTIAL * 8 * 2/4, minus the
    pasture's size (width 2 + height 1); a complete single white counts its 2 VP."""
    pick = Picker()
    greys = [pick("grey", 1), pick("grey", 2)]
    white = pick("white", 3)
    hand = [pick("blue", 4), pick("pink", 5)]
    state = _position([hand, []], [{(0, 0): greys[0], (1, 0): greys[1]}, {(0, 0): white}], seat=0)
    values = evaluate(state)
    assert values[0] == pytest.approx(2 * HAND + PARTIAL * 8 * 2 / 4 - 3)
    assert values[1] == pytest.approx(2 - 2)


def test_hopes_fade_on_the_last_turn() -> None:
    """On a seat's last turn, unplaced cards and unfinished groups score nothing:
    the value is the score the game would end with."""
    pick = Picker()
    greys = [pick("grey", 1), pick("grey", 2)]
    hand = [pick("blue", 4), pick("pink", 5)]
    pastures = [{(0, 0): greys[0], (1, 0): greys[1]}, {}]
    state = _position([hand, []], pastures, deck=0, turn=2, last_turn=3)
    assert evaluate(state)[0] == pytest.approx(-3)
    # One turn earlier (seat 1's) seat 0 still has turn 2 to come: hope 1 / HORIZON.
    # (Seat 0 to move after the trigger is always on its last turn.)
    earlier = _position([hand, []], pastures, deck=0, seat=1, last_turn=3)
    assert evaluate(earlier)[0] == pytest.approx((2 * HAND + PARTIAL * 4) / HORIZON - 3)


def test_mid_placement_value_is_the_best_next_card() -> None:
    """In a same-number placement the position is worth its best next card: a
    white 2 beside a white 2 would make a dead pair, beside a black one a scoring
    single; stopping (legal after one card) is worth keeping the card."""
    pick = Picker()
    black = pick("black", 2)
    white_in_hand = pick("white", 2)
    state = _position([[white_in_hand, pick("blue", 5)], []], [{(0, 0): black}, {}], seat=0)
    state.apply(next(a for a in state.legal_actions() if a.label.startswith("same")))
    best = evaluate(state)[0]
    placed = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        placed.append(evaluate(after)[0])
    assert best == pytest.approx(max(placed))


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_mcts_finish_games_through_the_server(players: int) -> None:
    """greedy, mcts (small budget) and random play whole matches on a real server;
    every game ends because the game is over, with a score for every seat."""

    bots: list[Any] = [GreedyBot(seed=1), MCTSBot(seed=2, iterations=30)]
    bots += [RandomBot(seed=3 + i) for i in range(players - 2)]
    (result,) = play_lineups("sheep-n-sheep", [(bots, {})], first_seed=players)
    assert result.end_reason == "game over"
