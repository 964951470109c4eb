"""Random games over many seeds for every player count: they end, the 100 cards
are conserved, observations are consistent, replays and clones behave."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sheep_n_sheep.actions import BeginFree, BeginRun, BeginSame, Pass, TakeSet
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.events import CardPlaced, EndTriggered, GameEnded, TurnEnded
from games.sheep_n_sheep.state import SheepNSheepState

from .play import GAME, all_cards, play

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
COMPONENTS = ("bells", "hearts", "stars", "one_vp", "groups", "penalty")


def _connected(cells: set[tuple[int, int]]) -> bool:
    if not cells:
        return True
    todo = [next(iter(cells))]
    seen = {todo[0]}
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def _check(state: SheepNSheepState, action: object, events: list) -> None:
    cards = all_cards(state)
    assert sorted(cards) == list(range(100)), state.render()
    for seat in range(state.players):
        assert _connected(set(state.pasture(seat))), state.render()
    obs = state.observation(None)
    assert obs.hand_sizes == tuple(len(state.hand(s)) for s in range(state.players))
    assert obs.deck_size == len(state.deck) and obs.stock_size == len(state.stock)
    assert obs.to_move == state.to_move and obs.market == state.market
    assert all(len(pair) == 2 for pair in state.market) and len(state.market) <= 4
    if state.players == 4:
        assert obs.stock_size == 0
    if not state.terminal:
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        # PASS: nothing else is legal, or a hand that may take finds no set left.
        may_take_nothing = not state.market and len(state.hand(state.to_move)) < 6
        if Pass() in legal:
            assert legal[-1] == Pass() and (legal == (Pass(),) or may_take_nothing)
        else:
            assert not may_take_nothing or state.phase != "turn"
        assert all(isinstance(a.label, str) and a.label for a in legal)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_random_games_end_conserve_cards_and_score_consistently(players: int, seed: int) -> None:
    played = play(players, seed, each=_check)
    result = played.state.result()
    details = result.details["players"]
    assert len(result.scores) == players
    for seat, d in enumerate(details):
        assert sum(d[c] for c in COMPONENTS) == d["total"] == result.scores[seat]
        assert d["penalty"] == -(d["width"] + d["height"])
    keys = [(result.scores[s], details[s]["bell_value"]) for s in range(players)]
    best = max(keys)
    assert result.winners == tuple(s for s in range(players) if keys[s] == best)
    assert played.state.last_turn is not None
    assert played.state.turn == played.state.last_turn
    assert (played.state.last_turn + 1) % players == 0  # everybody had the same number of turns
    json.dumps(result.details)  # the details are JSON-serialisable
    assert "over" in played.state.render() and "over" in played.state.prompt()


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, choices=SEEDS)
def test_replay_from_seed_and_indices_is_identical(players: int, seed: int, choices: int) -> None:
    first = play(players, seed, choices)
    again = GAME.new_state(players, seed)
    events = []
    for index in first.indices:
        events.extend(again.apply(again.legal_actions()[index]))
    assert again.terminal
    assert events == first.events
    assert again.result() == first.state.result()
    assert again.render() == first.state.render()


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, cut=st.floats(0.0, 1.0))
def test_clone_is_independent(players: int, seed: int, cut: float) -> None:
    full = play(players, seed)
    state = GAME.new_state(players, seed)
    stop = int(cut * (len(full.indices) - 1))
    for index in full.indices[:stop]:
        state.apply(state.legal_actions()[index])
    before = (state.render(), [state.observation(s) for s in (None, *range(players))])
    copy = state.clone()
    rng = random.Random(seed ^ 0x5EED)
    while not copy.terminal:  # a different continuation on the clone
        legal = copy.legal_actions()
        copy.apply(legal[rng.randrange(len(legal))])
    after = (state.render(), [state.observation(s) for s in (None, *range(players))])
    assert after == before
    twin = state.clone()
    for index in full.indices[stop:]:
        state.apply(state.legal_actions()[index])
        twin.apply(twin.legal_actions()[index])
    assert state.result() == twin.result() == full.state.result()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_every_kind_of_decision_and_event(players: int) -> None:
    """The property tests exercise the whole engine: every action kind but Pass
    (which needs an empty market; see test_setup_and_turn) and every event kind
    but Passed occur in a few random games; 2-3 players refill from the stock."""
    actions: set[str] = set()
    kinds: set[str] = set()
    from_stock = 0

    def each(state: SheepNSheepState, action: object, events: list) -> None:
        nonlocal from_stock
        actions.add(type(action).__name__)
        for event in events:
            kinds.add(type(event.payload).__name__)
            from_stock += getattr(event.payload, "from_stock", 0) or 0

    for seed in range(12):
        play(players, seed, each=each)
    assert actions == {"TakeSet", "BeginSame", "BeginRun", "BeginFree", "Discard", "Place", "Stop"}
    assert kinds == {
        "SetTaken",
        "SetFormed",
        "CardDrawn",
        "EndTriggered",
        "PlacementBegun",
        "CardDiscarded",
        "CardPlaced",
        "TurnEnded",
        "GameEnded",
    }
    assert (from_stock > 0) == (players < 4)


class _Referee:
    """Checks each decision of a game against the rulebook's turn and placement
    rules, from the state before it and the public events after it, without
    the engine's own bookkeeping."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.turns = [0] * players
        self.kind = ""  # the placement in progress: "same", "run", "free" or ""
        self.tip: tuple[int, int] | None = None
        self.number = 0
        self.up: tuple[tuple[int, int], int] | None = None  # (tip cell, its number)
        self.down: tuple[tuple[int, int], int] | None = None
        self.trigger_turn: int | None = None

    def before(self, state: SheepNSheepState, action: object) -> None:
        seat = state.to_move
        hand = len(state.hand(seat))
        if state.phase == "turn":
            # 'When a player has 0 cards, they must carry out option A, and if they
            # have 6 or more cards, they must carry out option B.'
            if isinstance(action, TakeSet):
                assert hand < 6
            elif isinstance(action, Pass):
                assert (hand < 6 and not state.market) or state.legal_actions() == (Pass(),)
            else:
                assert hand >= 1
            if isinstance(action, BeginFree):
                assert hand >= 2  # discard one, then place one
            if isinstance(action, BeginSame | BeginRun):
                self.kind = "same" if isinstance(action, BeginSame) else "run"
                self.tip = self.up = self.down = None
                if action.start is not None:
                    number = CARDS[state.pasture(seat)[action.start]].number
                    self.tip, self.number = action.start, number
                    self.up = self.down = (action.start, number)
            elif isinstance(action, BeginFree):
                self.kind = "free"

    def after(self, before: dict, events: list) -> None:
        for payload in (e.payload for e in events):
            if isinstance(payload, CardPlaced):
                self._placed(before, payload)
            elif isinstance(payload, EndTriggered):
                assert self.trigger_turn is None  # the end is triggered once
                self.trigger_turn = sum(self.turns)
                round_end = (self.trigger_turn // self.players + 1) * self.players - 1
                # the round is finished, then every player takes one more turn
                assert payload.last_turn == round_end + self.players
            elif isinstance(payload, TurnEnded):
                assert payload.turn == sum(self.turns)
                assert payload.seat == payload.turn % self.players  # clockwise from 0
                self.turns[payload.seat] += 1
                self.kind = ""
            elif isinstance(payload, GameEnded):
                assert len(set(self.turns)) == 1  # everybody had the same turns
                assert self.trigger_turn is not None

    def _placed(self, before: dict, placed: CardPlaced) -> None:
        cell, number = (placed.x, placed.y), CARDS[placed.card].number
        assert cell not in before  # never on top of another card
        sides = {(placed.x + 1, placed.y), (placed.x - 1, placed.y)}
        sides |= {(placed.x, placed.y + 1), (placed.x, placed.y - 1)}
        if not before:
            assert cell == (0, 0)
        if self.kind == "free":
            assert not before or sides & set(before)
        elif self.kind == "same":
            if self.tip is None:
                self.number = number
            else:
                assert number == self.number and self.tip in sides
            self.tip = cell
        elif self.up is None:  # the first card of a run on an empty pasture
            self.up = (cell, number)
        else:
            branch = self.up if placed.branch == "up" else self.down
            step = 1 if placed.branch == "up" else -1
            assert branch is not None and branch[0] in sides and number == branch[1] + step
            if placed.branch == "up":
                self.up = (cell, number)
            else:
                self.down = (cell, number)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_turn_and_placement_rules(players: int) -> None:
    """Every decision of random games, checked by a referee that knows only the
    rules: who may take, place or pass, that each card placed touches the card
    its option names (the start, the previous card, its branch's tip, or any
    card for c), never lies on another and has the number it must, that the end
    is triggered once and puts the last turn one round after the trigger's, and
    that everybody plays the same number of turns."""
    for seed in range(6):
        state = GAME.new_state(players, seed)
        rng = random.Random(seed)
        referee = _Referee(players)
        while not state.terminal:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            referee.before(state, action)
            before = state.pasture(state.to_move)
            referee.after(before, state.apply(action))


def _groups(cells: dict[tuple[int, int], int], same: object) -> list[list[int]]:
    """The cards of each orthogonally connected group of cells whose cards share
    `same(card)` (cells with `same(card)` None are left out)."""
    left, out = {c for c, card in cells.items() if same(card) is not None}, []
    while left:
        todo = [left.pop()]
        group = []
        while todo:
            x, y = todo.pop()
            group.append(cells[(x, y)])
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left and same(cells[n]) == same(cells[(x, y)]):
                    left.remove(n)
                    todo.append(n)
        out.append(group)
    return out


def _award(values: list[int], table: tuple[int, ...]) -> list[int]:
    """'The players with the most ... gain the following bonuses ... In the case of
    a tie, all tied players receive the points of the next rank down and the
    next rank is eliminated': places counted by the players ahead (the notes)."""
    out = []
    for value in values:
        ahead = sum(1 for v in values if v > value)
        tied = sum(1 for v in values if v == value)
        place = ahead + (2 if tied > 1 else 1)
        out.append(table[place - 1] if value >= 1 and place <= len(table) else 0)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_score_as_the_rulebook_counts(players: int) -> None:
    """The final pastures of random games scored by hand, steps 1-5 in order:
    largest connected bell group 8/4/2, hearts and stars 4/2, +1 per one-VP
    icon, each same-colour group of exactly its condition's size once, minus
    width and height; the winner has the most VP, then the most connected bells."""
    for seed in range(8):
        state = play(players, seed).state
        pastures = [state.pasture(seat) for seat in range(players)]
        icon = [[CARDS[c].icon for c in p.values()] for p in pastures]
        bells = [
            max((len(g) for g in _groups(p, lambda c: CARDS[c].icon == "bell" or None)), default=0)
            for p in pastures
        ]
        totals = []
        for seat, pasture in enumerate(pastures):
            total = _award(bells, (8, 4, 2))[seat]
            total += _award([i.count("heart") for i in icon], (4, 2))[seat]
            total += _award([i.count("star") for i in icon], (4, 2))[seat]
            total += icon[seat].count("one_vp")
            for group in _groups(pasture, lambda c: CARDS[c].colour):
                if CARDS[group[0]].condition == len(group):
                    total += CARDS[group[0]].vp
            if pasture:
                xs, ys = {x for x, _ in pasture}, {y for _, y in pasture}
                total -= (max(xs) - min(xs) + 1) + (max(ys) - min(ys) + 1)
            totals.append(total)
        result = state.result()
        assert result.scores == tuple(float(t) for t in totals), state.render()
        best = max(zip(totals, bells, strict=True))
        expected = tuple(s for s in range(players) if (totals[s], bells[s]) == best)
        assert result.winners == expected
