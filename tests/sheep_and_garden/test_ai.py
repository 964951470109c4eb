"""Search support (games/sheep_and_garden/ai.py): states sampled from an observation
never contradict it and cover every hidden assignment; the heuristic matches the
final scoring; greedy and mcts finish whole games through the real server."""

from __future__ import annotations

import random

import pytest

from clients.bots.random_bot import RandomBot
from clients.bots.search import GreedyBot, MCTSBot
from games.sheep_and_garden import GAME
from games.sheep_and_garden.ai import HORIZON, evaluate, from_observation, soft_stats
from games.sheep_and_garden.analysis import Q
from games.sheep_and_garden.data import OBJECTIVES
from games.sheep_and_garden.model import Slot
from games.sheep_and_garden.scoring import analyse
from games.sheep_and_garden.state import SheepAndGardenState
from tests.conftest import play_lineups

from .helpers import mismatches, play_random, position

CODEC = GAME.codec


def _labels(state: SheepAndGardenState) -> list[str]:
    return [action.label for action in state.legal_actions()]


def _play_to(players: int, seed: int, moves: int) -> SheepAndGardenState:
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.to_move is None:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def _check_sample(state: SheepAndGardenState, seat: int, rng: random.Random) -> None:
    observation = CODEC.observation_to_proto(state.observation(seat))
    sampled = from_observation(observation, seat, rng)
    assert CODEC.observation_to_proto(sampled.observation(seat)) == observation
    assert sampled.to_move == state.to_move
    assert _labels(sampled) == _labels(state)
    assert sampled.prompt() == state.prompt()
    # The hidden parts hold exactly what the seat cannot see.
    assert sorted(sampled._deck) == sorted(state._deck)
    for mine, real in zip(sampled.slots, state.slots, strict=True):
        assert (mine.holders, mine.face_up, mine.enemy) == (real.holders, real.face_up, real.enemy)
        if real.visible_to(seat):
            assert mine.card == real.card


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_sampled_states_agree_with_every_observation(players: int) -> None:
    """At every decision of random games, every seat's sample reproduces its
    observation (protobuf), the player to move, the prompt and the legal actions."""
    rng = random.Random(players)
    for seed in range(3):
        state = GAME.new_state(players, 100 * players + seed)
        play = random.Random(seed)
        while True:
            for seat in range(players):
                _check_sample(state, seat, rng)
            if state.to_move is None:
                break
            actions = state.legal_actions()
            state.apply(actions[play.randrange(len(actions))])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_play_from_a_sample_reaches_the_end(players: int) -> None:
    """A sampled state is a working game: random legal play from it finishes, and
    its seat's own final score is computed from the cards the seat really holds."""
    rng = random.Random(7)
    for moves in (0, 9, 20, 30):
        state = _play_to(players, 40 + moves, moves)
        if state.to_move is None:
            continue
        seat = state.to_move
        sampled = from_observation(CODEC.observation_to_proto(state.observation(seat)), seat, rng)
        steps = 0
        while sampled.to_move is not None:
            actions = sampled.legal_actions()
            sampled.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps <= 200
        assert sampled.terminal and len(sampled.result().scores) == players


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_finished_game_rebuilds_with_the_seats_own_score(players: int) -> None:
    """The observation of a finished game rebuilds a finished state with the same
    end reason; the seat's score (its own and shared cards are visible) is exact."""
    state, _, _ = play_random(players, 11)
    for seat in range(players):
        observation = CODEC.observation_to_proto(state.observation(seat))
        sampled = from_observation(observation, seat, random.Random(seat))
        assert sampled.to_move is None and sampled.legal_actions() == ()
        assert CODEC.observation_to_proto(sampled.observation(seat)) == observation
        assert sampled.result().scores[seat] == state.result().scores[seat]


@pytest.mark.parametrize(("players", "moves"), [(1, 12), (2, 5), (3, 14), (4, 8)])
def test_sampling_covers_every_hidden_card_and_deck_order(players: int, moves: int) -> None:
    """Over many samples: each face-down slot and the top of the deck hold only
    components the seat sees nowhere, and every such component turns up there."""
    state = _play_to(players, 5, moves)
    seat = state.to_move
    assert seat is not None
    observation = CODEC.observation_to_proto(state.observation(seat))
    seen_cards = {s.card for s in state.slots if s.visible_to(seat)}
    unseen_cards = {card.id for card in OBJECTIVES if card.id not in seen_cards}
    hidden_slots = [i for i, s in enumerate(state.slots) if not s.visible_to(seat)]
    unseen_tiles = set(state._deck)
    per_slot: dict[int, set[str]] = {i: set() for i in hidden_slots}
    tops: set[int] = set()
    bottoms: set[int] = set()
    rng = random.Random(players)
    for _ in range(400):
        sampled = from_observation(observation, seat, rng)
        for index in hidden_slots:
            per_slot[index].add(sampled.slots[index].card)
        cards = [s.card for s in sampled.slots]
        assert len(set(cards)) == len(cards)  # no card twice on the table
        tops.add(sampled._deck[-1])
        bottoms.add(sampled._deck[0])
    for index in hidden_slots:
        assert per_slot[index] == unseen_cards
    assert tops == unseen_tiles and bottoms == unseen_tiles
    assert len(hidden_slots) == {1: 0, 2: 2, 3: 3, 4: 5}[players]


# ------------------------------------------------------------------ the heuristic


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_soft_stats_without_hope_are_the_scoring_stats(players: int) -> None:
    """With no tiles left to hope for, the weighted stats are exactly the engine's."""
    state = GAME.new_state(players, 60 + players)
    rng = random.Random(players)
    while state.to_move is not None:
        expected = {k: float(v) for k, v in analyse(state.board).stats().items()}
        assert soft_stats(state.board, 0.0) == expected
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_evaluate_is_the_result_at_the_end(players: int) -> None:
    state, _, _ = play_random(players, 21)
    assert evaluate(state) == state.result().scores


def test_an_open_lake_counts_its_completion_weight() -> None:
    """A lake cap's lake has one open edge: it counts Q (times hope), its fish too;
    two caps facing each other close it and it counts 1 with both fish."""
    single = position(1, [("lake cap", 0, 0, 0)]).board
    stats = soft_stats(single, 1.0)
    assert stats["complete_lakes"] == pytest.approx(Q)
    assert stats["fish_in_complete_lakes"] == pytest.approx(Q)
    assert soft_stats(single, 0.5)["complete_lakes"] == pytest.approx(0.5 * Q)
    layout = [("lake cap", 0, 0, 0), ("lake cap", 0, -1, 2)]
    closed = position(1, layout).board
    assert mismatches(closed) == []
    stats = soft_stats(closed, 1.0)
    assert stats["complete_lakes"] == 1.0 and stats["fish_in_complete_lakes"] == 2.0


def test_evaluate_scores_held_cards_per_seat_and_solo_as_a_difference() -> None:
    """Each seat scores the cards it holds (shared cards for both holders); solo
    is own total minus the enemy's, as in the final result."""
    layout = [("lake cap", 0, 0, 0), ("lake cap", 0, -1, 2), ("meadow", 1, 0, 0)]
    deck = ["pond", "orchard"]
    three = (
        Slot("lakes", (0,), False),
        Slot("lands", (0, 1), False),
        Slot("cows", (1,), False),
        Slot("hearts", (1, 2), False),
        Slot("roads", (2,), False),
        Slot("trees", (0, 2), False),
    )
    state = position(3, layout, display=["road"], deck=deck, slots=three)
    stats = soft_stats(state.board, min(1.0, 3 / HORIZON))  # 3 tiles left to place
    lakes = 4 * 1 + 2  # one complete lake holding two fish
    lands = 2 * stats["lands"]
    cows = _fixed(stats["cows_in_complete_areas"], 2, stats["cows_in_complete_areas"], 5)
    hearts = 5 * stats["hearts"]
    roads = _fixed(stats["complete_roads"], 2, stats["complete_roads"], 4)
    trees = _fixed(stats["trees_in_complete_areas"], 1, stats["trees_in_complete_areas"], 8)
    assert cows > 0 and lands > 0
    assert evaluate(state) == pytest.approx(
        (lakes + lands + trees, lands + cows + hearts, hearts + roads + trees)
    )
    solo = (
        Slot("lakes", (0,), True),
        Slot("lands", (0,), True),
        Slot("trees", (0,), True),
        Slot("cows", (), True, enemy=True),
        Slot("hearts", (), True, enemy=True),
        Slot("roads", (), True, enemy=True),
    )
    alone = position(1, layout, display=["road"], deck=deck, slots=solo)
    expected = lakes + lands + trees - (cows + hearts + roads)
    assert evaluate(alone) == pytest.approx((expected,))


def _fixed(count: float, points: int, towards: float, threshold: int) -> float:
    """points per counted thing, +3 once `towards` reaches the threshold (partly before)."""
    return points * count + 3 * min(1.0, (towards / threshold) ** 2)


def test_greedy_prefers_closing_its_own_lake() -> None:
    """The heuristic rewards completion: holding "lakes", one move closes a lake."""
    slots = (
        Slot("lakes", (0,), True),
        Slot("lands", (0,), False),
        Slot("trees", (0,), False),
        Slot("cows", (1,), True),
        Slot("hearts", (1,), False),
        Slot("roads", (1,), False),
    )
    state = position(2, [("lake cap", 0, 0, 0)], display=["lake cap"], deck=["pond"], slots=slots)
    best = max(state.legal_actions(), key=lambda a: _after(state, a)[0] - _after(state, a)[1])
    assert (best.x, best.y) == (0, -1)


def _after(state: SheepAndGardenState, action) -> tuple[float, ...]:
    after = state.clone()
    after.apply(action)
    return evaluate(after)


# ------------------------------------------------------------------ through the server


def test_greedy_and_mcts_finish_games_through_the_server() -> None:
    """Both bots play whole matches over gRPC for every player count."""
    lineups = [
        ([GreedyBot(seed=1)], {}),
        ([MCTSBot(seed=2, iterations=8)], {}),
        ([GreedyBot(seed=3), MCTSBot(seed=4, iterations=8)], {}),
        ([MCTSBot(seed=5, iterations=8), GreedyBot(seed=6), RandomBot(7)], {}),
        (
            [GreedyBot(seed=8), MCTSBot(seed=9, iterations=8), RandomBot(10), GreedyBot(seed=11)],
            {},
        ),
    ]

    play_lineups(GAME.name, lineups, first_seed=50)
