"""Positions built by hand (`SheepNSheepState.from_position`): one that does not
fit its player count or names a card twice is refused with a clear message."""

from __future__ import annotations

import re

import pytest

from games.sheep_n_sheep.actions import BeginFree, BeginRun, BeginSame, Discard, Place, TakeSet
from games.sheep_n_sheep.cards import CARDS
from games.sheep_n_sheep.observation import Placement
from games.sheep_n_sheep.state import SheepNSheepState
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("zones", "card"),
    [
        ({"hands": [[3, 4], [4, 5]]}, 4),
        ({"hands": [[3], [5]], "deck": [6, 3]}, 3),
        ({"hands": [[3], [5]], "pastures": [{(0, 0): 7}, {(0, 0): 7}]}, 7),
        ({"hands": [[3], [100]]}, 100),
        ({"hands": [[3], [True]]}, True),
        ({"hands": [[3], [5.0]]}, 5.0),
    ],
)
def test_a_position_naming_a_card_twice_or_no_card_is_refused(
    zones: dict[str, object], card: int
) -> None:
    """Each card is in at most one place: a position that puts one in two, or
    names an id that is no card, is refused with the id in the message."""
    kw: dict = {"market": [(20, 21)], "deck": [30, 31], **zones}
    with pytest.raises(ValueError, match=f"card {card}\\b"):
        SheepNSheepState.from_position(2, **kw)


@pytest.mark.parametrize(
    ("players", "zones", "message"),
    [
        (5, {}, "5 players"),
        (3, {}, "3 players need 3 hands"),
        (2, {"pastures": [{}]}, "2 players need 2 hands and pastures"),
        (2, {"market": [(20, 21), (22, 23), (24, 25), (26, 27), (28, 29)]}, "5 market sets"),
        (2, {"seat": 2}, "seat 2 is not one of 0 to 1"),
        (2, {"phase": "place"}, "phase 'place' is not one of turn, same, run"),
        (2, {"seat": 1, "turn": 0}, "turn 0 is not seat 1's"),
        (3, {"hands": [[3], [5], [7]], "turn": -3}, "turn -3 is not seat 0's"),
        (3, {"hands": [[3], [5], [7]], "seat": 1, "turn": 4, "last_turn": 4}, "last turn 4"),
        (2, {"seat": 1, "turn": 5, "last_turn": 3}, "last turn 3 must be turn 5 or later"),
        (2, {"deck": [], "last_turn": 5}, "last turn 5 is past turn 1"),
        # seat 0 to move: the trigger was in an earlier turn, of the round before
        (2, {"deck": [], "turn": 2, "last_turn": 5}, "last turn 5 is past turn 3"),
        (
            3,
            {"hands": [[3], [5], [7]], "deck": [], "turn": 3, "last_turn": 8},
            "last turn 8 is past turn 5",
        ),
        (2.0, {}, "2.0 players"),
        (2, {"seat": True}, "seat True is not one of 0 to 1"),
        (2, {"seat": 0.0}, "seat 0.0 is not one of 0 to 1"),
        (2, {"turn": 2.0}, "turn 2.0 is not seat 0's"),
        (2, {"deck": [], "last_turn": 1.0}, "last turn 1.0 must be"),
        (
            3,
            {"hands": [[3], [5], [7]], "deck": [], "seat": 1, "turn": 4, "last_turn": 11},
            "last turn 11 is past turn 8",
        ),
        (2, {"phase": "over"}, "phase 'over' at turn 0 with last turn None"),
        (2, {"phase": "over", "seat": 1, "turn": 1, "last_turn": 3}, "with last turn 3"),
        # refused as in every game (None would seed a later shuffle from the
        # operating system), though this game shuffles only at the deal
        (2, {"seed": None}, "seed must be a whole number, not None"),
        (2, {"seed": 1.5}, "seed must be a whole number, not 1.5"),
    ],
)
def test_a_position_of_the_wrong_shape_is_refused(
    players: int, zones: dict[str, object], message: str
) -> None:
    """A hand-built position must fit its player count: a clear ValueError
    instead of an IndexError (or a state with a seat missing) later on. A game
    that is over has played its last turn ('After all players have had an equal
    number of turns, all players now take one last action'): an 'over' position
    before the end is triggered, or before its last turn, is refused, where it
    ended a game that had not ended. The trigger puts the last turn at the end
    of the round after its own, and it came in a turn before the current one (a
    set taken ends the turn), so a last turn further ahead than that is no
    game's either: it played rounds the rules do not have (seat 0 to move with
    the end of the next round as its last turn played two more turns each)."""
    kw: dict = {"hands": [[3], [5]], "market": [(20, 21)], "deck": [30, 31], **zones}
    with pytest.raises(ValueError, match=message):
        SheepNSheepState.from_position(players, **kw)


@pytest.mark.parametrize("sets", [0, 1, 3])
def test_a_short_market_without_a_last_turn_is_refused(sets: int) -> None:
    """The market holds fewer than 4 sets only after a refill found no set to
    form, and that refill triggers the end: a short market with no last turn is
    no game's position, and one that never ended when every seat did nothing."""
    market = [(20 + 2 * i, 21 + 2 * i) for i in range(sets)]
    kw: dict = {"hands": [[3], [5]], "market": market, "deck": []}
    with pytest.raises(ValueError, match=f"{sets} market sets without a last turn"):
        SheepNSheepState.from_position(2, **kw)
    state = SheepNSheepState.from_position(2, last_turn=1, **kw)
    assert state.last_turn == 1
    full = [(20 + 2 * i, 21 + 2 * i) for i in range(4)]
    assert SheepNSheepState.from_position(2, hands=[[3], [5]], market=full, deck=[]).market


@pytest.mark.parametrize("cell", [(0, 412), (0, 512), (-600, 0), (1.5, 0), (0, "1")])
def test_a_pasture_cell_out_of_reach_is_refused(cell: object) -> None:
    """The pasture is a grid the engine holds from -511 to 511 each way, with room
    for every card of the game beyond a built position's: a cell farther out than
    411, or not a pair of whole numbers, is refused by name, where it used to
    land silently somewhere else ((0, 512) became (1, -512))."""
    kw: dict = {"hands": [[3], [5]], "market": [(20, 21)], "deck": [30, 31]}
    with pytest.raises(ValueError, match=re.escape(f"cell {cell!r}")):
        SheepNSheepState.from_position(2, pastures=[{cell: 7}, {}], **kw)


def test_a_pasture_at_the_edge_of_reach_keeps_its_cells_and_neighbours() -> None:
    """A card at (0, 411) stays there, and the free cells next to it are the four
    around it: a whole game of cards beyond it still fits the grid."""
    kw: dict = {"hands": [[3, 5], [6]], "market": [(20, 21)], "deck": [30], "last_turn": 1}
    state = SheepNSheepState.from_position(2, pastures=[{(0, 411): 7}, {}], **kw)
    assert state.pasture(0) == {(0, 411): 7}
    state.apply(BeginFree())
    state.apply(Discard(3))
    cells = {(a.x, a.y) for a in state.legal_actions() if isinstance(a, Place)}
    assert cells == {(1, 411), (-1, 411), (0, 412), (0, 410)}


def test_the_guides_position_example_runs_as_written() -> None:
    """The game guide shows outside testers how to build a position and score one;
    its example's asserts (the set formed at the trigger, a lone white bell sheep
    scoring 8) must hold, so the guide cannot drift from the engine unnoticed."""
    guide = (ROOT / "docs" / "games" / "sheep-n-sheep.md").read_text()
    found = re.search(r"\n## Building a position [^\n]*\n.*?```python\n(.*?)```", guide, re.S)
    assert found, "the guide's 'Building a position' section has a Python example"
    exec(compile(found.group(1), "sheep-n-sheep.md", "exec"), {})


_AT_3 = {(0, 0): 8}  # card 8 is a white 3 (checked below)


@pytest.mark.parametrize(
    ("phase", "placement", "hand", "message"),
    [
        ("same", None, [37], "no start.*pasture has cards"),
        ("run", Placement("run", None, 0), [37], "no start.*pasture has cards"),
        ("same", Placement("same", (5, 5), 0, number=3, tip=(5, 5)), [37], "start \\(5, 5\\)"),
        ("same", Placement("same", (0, 0), 0, number=4, tip=(0, 0)), [37], "number 4"),
        ("same", Placement("same", (0, 0), 0, number=3), [37], "no tip"),
        ("run", Placement("run", (0, 0), 0, up_tip=(0, 0), up_next=5), [37], "up tip"),
        ("run", Placement("run", (0, 0), 0, up_tip=(0, 0), up_next=4), [37], "down tip"),
        ("run", Placement("same", (0, 0), 0, number=3, tip=(0, 0)), [37], "'same' placement"),
        ("turn", Placement("same", (0, 0), 0, number=3, tip=(0, 0)), [37], "phase 'turn'"),
        ("discard", None, [37], "1 card in hand"),
        ("free", None, [], "0 cards in hand"),
        ("same", Placement("same", (0, 0), 0, number=3, tip=(0, 0)), [], "0 cards in hand"),
    ],
)
def test_a_placement_no_game_reaches_is_refused(
    phase: str, placement: Placement | None, hand: list[int], message: str
) -> None:
    """'You cannot lay a card on top of another card', and a placement begun on a
    pasture starts from 'one of the cards in the pasture': a same-number or run
    placement with no start is one begun on an empty pasture (its first card goes
    to (0, 0)), so on a pasture with cards it is refused, where it laid its first
    card on top of the card at (0, 0), which left the game. A start, tip or
    number that no placement from that start has, and a placement phase whose
    hand cannot go on (a discard needs 2 cards, the others 1), where the seat
    had no legal action at all, are refused by name too."""
    assert CARDS[8].number == CARDS[37].number == 3
    kw: dict = {"market": [(20, 21)], "deck": [30], "last_turn": 1, "phase": phase}
    with pytest.raises(ValueError, match=message):
        SheepNSheepState.from_position(
            2, hands=[hand, [5]], pastures=[_AT_3, {}], placement=placement, **kw
        )


_THREES = {(0, 0): 8, (1, 0): 6, (5, 5): 7}  # white 3s; card 9 is a 4


@pytest.mark.parametrize(
    ("placement", "pasture", "message"),
    [
        (Placement("same", (0, 0), 0, number=3, tip=(1, 0)), _THREES, "no card placed yet"),
        (
            Placement("run", (0, 0), 0, up_tip=(0, 0), up_next=4, down_tip=(1, 0), down_next=2),
            _THREES,
            "no card placed yet",
        ),
        (Placement("same", (0, 0), 2, number=3, tip=(0, 0)), _THREES, "its tip at its start"),
        (
            Placement("run", (0, 0), 1, up_tip=(0, 0), up_next=4, down_tip=(0, 0), down_next=2),
            _THREES,
            "both tips at its start",
        ),
        (Placement("same", (0, 0), 4, number=3, tip=(1, 0)), _THREES, "4 cards placed"),
        (
            Placement("same", (1, 0), 2, number=3, tip=(1, 0)),
            {(1, 0): 6, (2, 0): 7},
            r"at \(0, 0\)",
        ),
        (
            Placement("run", (1, 0), 2, up_tip=(2, 0), up_next=5),
            {(1, 0): 8, (2, 0): 9},
            r"at \(0, 0\)",
        ),
        (
            Placement("run", (0, 0), 1, up_tip=(0, 0), up_next=4, down_tip=(0, 0), down_next=2),
            {(0, 0): 8},
            "no descending branch",
        ),
        (
            Placement("run", (0, 0), 2, up_tip=(1, 0), up_next=5, down_tip=(0, 0), down_next=2),
            {(0, 0): 8, (1, 0): 9},
            "no descending branch",
        ),
    ],
)
def test_a_placement_whose_cards_placed_do_not_fit_its_tips_is_refused(
    placement: Placement, pasture: dict, message: str
) -> None:
    """'Once you have decided on the starting card, use the starting card as the
    guide to lay the other cards': before the first card of a placement its tips
    are its start (else the next card went next to a card this placement never
    laid), after one they are not (each card placed moves a tip), it has placed
    no more cards than the pasture holds, and one that placed all of them began
    on an empty pasture, whose first card (its start) is at (0, 0), and has no
    descending branch: 'the starting card will be the smallest card in the
    sequence' (built with one, it offered a 2 below the 3 it began with)."""
    kw: dict = {"market": [(20, 21)], "deck": [30], "last_turn": 1}
    with pytest.raises(ValueError, match=message):
        SheepNSheepState.from_position(
            2,
            hands=[[37], [5]],
            pastures=[pasture, {}],
            phase=placement.kind,
            placement=placement,
            **kw,
        )


@pytest.mark.parametrize(
    ("placement", "hand", "pasture"),
    [
        (Placement("same", (0, 0), 0, number=3, tip=(0, 0)), [9], _AT_3),
        (
            Placement("run", (0, 0), 0, up_tip=(0, 0), up_next=4, down_tip=(0, 0), down_next=2),
            [37],
            _AT_3,
        ),
        (
            Placement("same", (0, 0), 0, number=3, tip=(0, 0)),
            [37],
            {(0, 0): 8, (1, 0): 6, (-1, 0): 7, (0, 1): 19, (0, -1): 21},
        ),
    ],
)
def test_a_placement_begun_with_no_first_card_to_place_is_refused(
    placement: Placement, hand: list[int], pasture: dict
) -> None:
    """A placement from a card of the pasture is begun only when a card of the
    hand can follow it (the guide: 'A begin is offered only if at least one card
    can follow it'), and until its first card it cannot stop: one begun from a
    3 with no 3 in hand (or, for a run, no 2 or 4), or from a start with no free
    side, is refused, where the seat had no legal action at all."""
    assert [CARDS[c].number for c in (8, 9, 37, 6, 7, 19, 21)] == [3, 4, 3, 3, 3, 3, 3]
    kw: dict = {"market": [(20, 22)], "deck": [30], "last_turn": 1}
    with pytest.raises(ValueError, match="no card of the hand can be its first"):
        SheepNSheepState.from_position(
            2,
            hands=[hand, [5]],
            pastures=[pasture, {}],
            phase=placement.kind,
            placement=placement,
            **kw,
        )


def test_the_placements_a_game_shows_are_accepted() -> None:
    """Every placement an observation shows resumes: the first card of a run or a
    same-number placement on an empty pasture (no start), and a run or a
    same-number placement from a card of the pasture, before and after a card."""
    kw: dict = {"market": [(20, 21)], "deck": [30], "last_turn": 1}
    for phase in ("same", "run"):
        state = SheepNSheepState.from_position(2, hands=[[37], [5]], phase=phase, **kw)
        assert state.legal_actions() == (Place(37, 0, 0),)
        state = SheepNSheepState.from_position(2, hands=[[37, 9], [5]], pastures=[_AT_3, {}], **kw)
        state.apply(BeginSame((0, 0)) if phase == "same" else BeginRun((0, 0)))
        seen = state.observation(0).placement
        again = SheepNSheepState.from_position(
            2, hands=[[37, 9], [5]], pastures=[_AT_3, {}], phase=phase, placement=seen, **kw
        )
        assert again.legal_actions() == state.legal_actions()
        state.apply(state.legal_actions()[0])
        seen = state.observation(0).placement
        again = SheepNSheepState.from_position(
            2,
            hands=[list(state.hand(0)), [5]],
            pastures=[state.pasture(0), {}],
            phase=phase,
            placement=seen,
            **kw,
        )
        assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(
    ("phase", "placement", "pasture", "field"),
    [
        ("same", Placement("same", (0, 0), 0, number=3, tip=(0, 0), up_next=4), _AT_3, "up_next"),
        ("same", Placement("same", None, 0, number=3), {}, "number"),
        (
            "run",
            Placement("run", (0, 0), 0, 3, up_tip=(0, 0), up_next=4, down_tip=(0, 0), down_next=2),
            _AT_3,
            "number",
        ),
        (
            "run",
            Placement("run", (0, 0), 1, up_tip=(0, 0), up_next=4, down_next=2),
            _AT_3,
            "down_next",
        ),
        ("run", Placement("run", None, 0, up_next=3), {}, "up_next"),
        ("discard", Placement("discard", (0, 0), 0), _AT_3, "start"),
        ("free", Placement("free", None, 2), _AT_3, "placed"),
    ],
)
def test_a_placement_with_a_field_no_game_shows_is_refused(
    phase: str, placement: Placement, pasture: dict, field: str
) -> None:
    """A placement 'as an observation shows it': a field that a game never shows for
    its kind (a same-number placement's `up_next`, a run's `number`, a discard's
    start, a free step after cards placed) is refused by name, where it was
    accepted and dropped, the observation of the position showing another
    placement than the one given."""
    kw: dict = {"market": [(20, 21)], "deck": [30], "last_turn": 1}
    with pytest.raises(ValueError, match=f"{field}.*no game shows"):
        SheepNSheepState.from_position(
            2,
            hands=[[37, 9], [5]],
            pastures=[pasture, {}],
            phase=phase,
            placement=placement,
            **kw,
        )


def test_a_four_player_position_with_a_stock_is_refused() -> None:
    """'4 players: The whole deck is the deck': only 2 and 3 players set a stock
    aside. A 4-player position given one is refused, where its cards sat in a
    stock no 4-player game draws from, shown to every seat as a stock size."""
    market = [(20 + 2 * i, 21 + 2 * i) for i in range(4)]
    kw: dict = {"market": market, "deck": [30, 31]}
    with pytest.raises(ValueError, match="4 players have no stock"):
        SheepNSheepState.from_position(4, hands=[[3], [5], [6], [7]], stock=[40], **kw)
    four = SheepNSheepState.from_position(4, hands=[[3], [5], [6], [7]], stock=[], **kw)
    assert four.observation(0).stock_size == 0
    three = SheepNSheepState.from_position(3, hands=[[3], [5], [6]], stock=[40], **kw)
    assert three.stock == (40,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deck_of_two_or_more_after_the_trigger_is_refused(players: int) -> None:
    """'When you are unable to form the 4th set in the replenishing area from the
    deck (i.e. the deck is empty), the game end is triggered', and the deck never
    grows: after the trigger it holds 1 card at most. A position with a last turn
    and a deck of 2 is refused, where it went on forming sets from that deck (with
    4 players against 'carry on the game without replenishing the sets')."""
    hands = [[3 + i] for i in range(players)]
    kw: dict = {"hands": hands, "market": [(20, 21)], "last_turn": players - 1}
    with pytest.raises(ValueError, match="a deck of 2 with a last turn"):
        SheepNSheepState.from_position(players, deck=[30, 31], **kw)
    state = SheepNSheepState.from_position(players, deck=[30], **kw)
    state.apply(TakeSet(0))
    assert state.market == () and state.deck == (30,)


@pytest.mark.parametrize("players", [2, 3])
def test_a_card_left_in_the_deck_beside_a_stock_after_the_trigger_is_refused(
    players: int,
) -> None:
    """'In a 2-3 player game, draw cards from the stock to replenish the sets': the
    refill that triggers the end, finding 1 card in the deck, makes a set of it
    and a stock card. The deck keeps its card only when the stock was empty, and
    neither grows, so a position with a last turn, a card in the deck and cards in
    the stock is refused; with the stock empty it is accepted."""
    hands = [[3 + i] for i in range(players)]
    market = [(20 + 2 * i, 21 + 2 * i) for i in range(4)]
    kw: dict = {"hands": hands, "market": market, "deck": [30], "last_turn": players - 1}
    with pytest.raises(ValueError, match="a deck of 1 and a stock of 1 with a last turn"):
        SheepNSheepState.from_position(players, stock=[40], **kw)
    state = SheepNSheepState.from_position(players, stock=[], **kw)
    assert state.deck == (30,) and state.stock == ()


def test_a_finished_position_at_its_last_turn_is_accepted() -> None:
    """The position a game ends in, its last turn played, is accepted and scored."""
    kw: dict = {"hands": [[3], [5]], "market": [(20, 21)], "deck": [30]}
    state = SheepNSheepState.from_position(
        2, pastures=[{(0, 0): 8}, {}], phase="over", seat=1, turn=3, last_turn=3, **kw
    )
    assert state.terminal and state.result().scores == (0.0, 0.0)


@pytest.mark.parametrize(
    ("seen", "message"),
    [
        ([[], [30]], "seen_in_hands: card 30 is not in seat 1's hand"),
        ([[5]], "seen_in_hands: card 5 is not in seat 0's hand"),
        ([[3], [], []], "seen_in_hands names 3 seats: this table has 2"),
    ],
)
def test_cards_seen_taken_are_in_the_seats_hand(seen: list[list[int]], message: str) -> None:
    """A card named as seen taken into a hand it is not in (here in the deck, or
    another seat's) was taken as known to all, and changed which copy a placement
    shows."""
    market = [(20, 21), (22, 23), (24, 25), (26, 27)]
    kw: dict = {"hands": [[3, 4], [5]], "market": market, "deck": [30, 31]}
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        SheepNSheepState.from_position(2, seen_in_hands=seen, **kw)
    SheepNSheepState.from_position(2, seen_in_hands=[[4], [5]], **kw)  # held, so accepted


@pytest.mark.parametrize("players", [2, 3])
def test_a_short_market_with_cards_left_to_form_a_set_is_refused(players: int) -> None:
    """'In a 2-3 player game, draw cards from the stock to replenish the sets for
    the rest of the game': with 2 or 3 players a set goes unreplaced only when
    the deck and the stock together hold fewer than 2 cards, and neither grows.
    A position with fewer than 4 sets and 2 cards left to form one is refused,
    where its market stayed short while the stock still replenished."""
    hands = [[3 + i] for i in range(players)]
    kw: dict = {"hands": hands, "market": [(20, 21)], "last_turn": players - 1}
    for deck, stock in (([], [40, 41]), ([30], [40])):
        with pytest.raises(ValueError, match="1 market set with 2 cards in the deck and stock"):
            SheepNSheepState.from_position(players, deck=deck, stock=stock, **kw)
    state = SheepNSheepState.from_position(players, deck=[30], stock=[], **kw)
    assert state.market == ((20, 21),)
    state = SheepNSheepState.from_position(players, deck=[], stock=[40], **kw)
    assert state.stock == (40,)


def test_four_players_with_the_end_triggered_and_four_sets_is_refused() -> None:
    """'In a 4 player game, carry on the game without replenishing the sets': the
    refill that triggers the end forms no set, so with 4 players a position with
    a last turn has 3 sets at most. One with all 4 is refused, where its final
    round had a set the rules never replaced; with 3 it is accepted."""
    market = [(20 + 2 * i, 21 + 2 * i) for i in range(4)]
    kw: dict = {"hands": [[3], [5], [6], [7]], "deck": [], "turn": 4, "last_turn": 7}
    with pytest.raises(ValueError, match="4 market sets with 4 players and a last turn"):
        SheepNSheepState.from_position(4, market=market, **kw)
    state = SheepNSheepState.from_position(4, market=market[:3], **kw)
    assert len(state.market) == 3
    # 2 or 3 players replenish from the stock: 4 sets after the trigger are theirs
    three = SheepNSheepState.from_position(
        3, hands=[[3], [5], [6]], market=market, deck=[], turn=3, last_turn=5
    )
    assert len(three.market) == 4


def test_the_seed_changes_nothing_in_a_built_position() -> None:
    """The guide: 'this game shuffles only at the deal, so in a built position the
    seed changes nothing (the deck and the stock are drawn in the order given)'.
    A set with two draw icons taken at the trigger, with 2 players, forms its set
    from the deck's last card and the stock, then draws twice from the stock: the
    same with any seed."""

    def play(seed: int) -> tuple[object, ...]:
        state = SheepNSheepState.from_position(
            2,
            hands=[[], [3]],
            market=[(12, 15), (20, 21), (22, 24), (25, 26)],  # 12, 15: draw icons
            deck=[30],
            stock=[31, 33, 34, 37],
            seed=seed,
        )
        events = [e.payload for e in state.apply(TakeSet(0))]
        return tuple(events), state.hand(0), state.market, state.stock

    assert play(0) == play(987654321)
    assert play(0)[1:3] == ((12, 15, 33, 34), ((30, 37), (20, 21), (22, 24), (25, 26)))
