"""Placing cards: same number (a), consecutive numbers (b), one card of your
choice (c), and the common placement rules."""

from __future__ import annotations

from games.sheep_n_sheep.actions import (
    BeginFree,
    BeginRun,
    BeginSame,
    Discard,
    Place,
    Stop,
    TakeSet,
)
from games.sheep_n_sheep.events import CardDiscarded, CardPlaced, PlacementBegun, TurnEnded
from games.sheep_n_sheep.state import SheepNSheepState

from .helpers import Picker


def _state(hand: list[int], pick: Picker, pasture: dict | None = None) -> SheepNSheepState:
    return SheepNSheepState.from_position(
        2,
        hands=[hand, pick.filler(2)],
        market=[tuple(pick.filler(2)) for _ in range(4)],
        deck=pick.filler(10),
        pastures=[pasture or {}, {}],
    )


def _places(state: SheepNSheepState) -> set[tuple[int, int, int, str]]:
    return {(a.card, a.x, a.y, a.branch) for a in state.legal_actions() if isinstance(a, Place)}


# ------------------------------------------------------------------ a) same number


def test_same_on_empty_pasture_first_card_goes_to_origin_and_is_the_start() -> None:
    """'If you have not placed any cards yet in the pasture, the starting card will
    be the first card that you lay down.' Notes: 'Empty pasture: the first card
    goes to (0, 0) and is the start.'"""
    pick = Picker()
    g3, b3, p4 = pick("grey", 3), pick("blue", 3), pick("pink", 4)
    state = _state([g3, b3, p4], pick)
    events = state.apply(BeginSame(None))
    assert events[0].payload == PlacementBegun(0, "same", None)
    assert _places(state) == {(g3, 0, 0, ""), (b3, 0, 0, ""), (p4, 0, 0, "")}
    assert Stop() not in state.legal_actions()
    state.apply(Place(g3, 0, 0))
    # only the other 3 may follow, next to the start
    assert _places(state) == {(b3, 1, 0, ""), (b3, -1, 0, ""), (b3, 0, 1, ""), (b3, 0, -1, "")}
    assert Stop() in state.legal_actions()


def test_same_from_a_pasture_card_places_only_that_number_next_to_it() -> None:
    """'choose one of the cards in the pasture and make this card the starting
    card. Then, place one or more cards with the same number type contiguous to
    this one.'"""
    pick = Picker()
    start = pick("white", 2)
    g2, g3 = pick("grey", 2), pick("grey", 3)
    pasture = {(0, 0): start, (1, 0): pick("pink", 5)}
    state = _state([g2, g3], pick, pasture)
    assert BeginSame((0, 0)) in state.legal_actions()
    assert BeginSame((1, 0)) not in state.legal_actions()  # no 5 in hand
    state.apply(BeginSame((0, 0)))
    assert _places(state) == {(g2, -1, 0, ""), (g2, 0, 1, ""), (g2, 0, -1, "")}


def test_same_is_one_path_each_card_next_to_the_previous_one() -> None:
    """'cards of the same number type ... are placed contiguously ... in a
    connected string.' Notes: 'adjacent to the previously placed card of this
    action (the first one adjacent to the start). One path, no branches.'"""
    pick = Picker()
    start = pick("white", 3)
    a, b, c = pick("grey", 3), pick("blue", 3), pick("brown", 3)
    state = _state([a, b, c], pick, {(0, 0): start})
    state.apply(BeginSame((0, 0)))
    state.apply(Place(a, 1, 0))
    cells = {(x, y) for _, x, y, _ in _places(state)}
    assert cells == {(2, 0), (1, 1), (1, -1)}  # next to (1, 0), not to the start
    state.apply(Place(b, 1, 1))
    assert {(x, y) for _, x, y, _ in _places(state)} == {(2, 1), (1, 2), (0, 1)}


def test_same_cannot_go_onto_an_occupied_cell() -> None:
    """'You cannot lay a card on top of another card.'"""
    pick = Picker()
    start = pick("white", 3)
    pasture = {(0, 0): start, (1, 0): pick("pink", 1), (0, 1): pick("pink", 2)}
    g3 = pick("grey", 3)
    state = _state([g3, pick("grey", 5)], pick, pasture)
    state.apply(BeginSame((0, 0)))
    assert _places(state) == {(g3, -1, 0, ""), (g3, 0, -1, "")}


def test_start_with_no_free_neighbour_is_not_offered() -> None:
    """'Cards must be placed such that they are perfectly contiguous' — a start
    card boxed in on all four sides cannot take a card, so it is not offered."""
    pick = Picker()
    centre = pick("white", 3)
    pasture = {(0, 0): centre}
    for cell in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        pasture[cell] = pick("pink", 5) if cell != (1, 0) else pick("pink", 1)
    state = _state([pick("grey", 3), pick("grey", 4)], pick, pasture)
    actions = state.legal_actions()
    assert BeginSame((0, 0)) not in actions and BeginRun((0, 0)) not in actions


def test_with_cards_in_the_pasture_every_placement_starts_from_one_of_them() -> None:
    """'If you already have one or more cards in the pasture, choose one of the
    cards in the pasture and make this card the starting card' (a and b alike): any
    card of the pasture, not only the first or the last laid, and never a fresh
    start elsewhere. With a 2 and a 3 in hand, a same-number start is each 2 or 3
    with a free side, a run start each card next to a 2 or a 3 in number; the 3 at
    (1, 0) is boxed in."""
    pick = Picker()
    pasture = {
        (0, 0): pick("white", 3),
        (1, 0): pick("black", 3),
        (2, 0): pick("brown", 1),
        (1, 1): pick("pink", 5),
        (1, -1): pick("blue", 2),
    }
    state = _state([pick("grey", 3), pick("blue", 2)], pick, pasture)
    actions = state.legal_actions()
    same = {a.start for a in actions if isinstance(a, BeginSame)}
    run = {a.start for a in actions if isinstance(a, BeginRun)}
    assert same == {(0, 0), (1, -1)}
    assert run == {(0, 0), (2, 0), (1, -1)}
    state.apply(BeginRun((2, 0)))
    assert {(x, y) for _, x, y, _ in _places(state)} == {(3, 0), (2, 1), (2, -1)}


def test_placement_ends_by_itself_only_when_no_card_at_all_could_follow() -> None:
    """'Place one or more cards': the placement ends by itself when no card could
    follow, whoever held it (a run that reached 5 with no descending branch)."""
    pick = Picker()
    g5 = pick("grey", 5)
    state = _state([g5, pick("blue", 4)], pick)
    state.apply(BeginRun(None))
    events = [e.payload for e in state.apply(Place(g5, 0, 0))]
    assert isinstance(events[-1], TurnEnded) and state.to_move == 1


def test_a_hand_with_no_card_that_fits_is_asked_to_stop() -> None:
    """Cards could still follow, but none in this hand: ending by itself would tell
    the other seats what the hand lacks, so the seat is asked and may only stop."""
    pick = Picker()
    g3 = pick("grey", 3)
    state = _state([g3, pick("grey", 5), pick("blue", 1)], pick, {(0, 0): pick("white", 3)})
    state.apply(BeginSame((0, 0)))
    events = [e.payload for e in state.apply(Place(g3, 1, 0))]
    assert not any(isinstance(e, TurnEnded) for e in events)
    assert state.to_move == 0 and state.legal_actions() == (Stop(),)
    assert isinstance(state.apply(Stop())[-1].payload, TurnEnded) and state.to_move == 1


def test_stop_ends_the_placement_after_at_least_one_card() -> None:
    """Notes: 'after the first one the player may STOP.'"""
    pick = Picker()
    a, b = pick("grey", 3), pick("blue", 3)
    state = _state([a, b], pick, {(0, 0): pick("white", 3)})
    state.apply(BeginSame((0, 0)))
    assert Stop() not in state.legal_actions()
    state.apply(Place(a, 1, 0))
    assert Stop() in state.legal_actions()
    state.apply(Stop())
    assert state.to_move == 1 and b in state.hand(0)


def test_identical_cards_are_offered_once() -> None:
    """Two cards with the same face are interchangeable: one Place per face."""
    pick = Picker()
    twin_a, twin_b = pick("grey", 3), pick("grey", 3)
    state = _state([twin_a, twin_b], pick)
    state.apply(BeginSame(None))
    assert _places(state) == {(min(twin_a, twin_b), 0, 0, "")}


# ------------------------------------------------------------------ b) consecutive numbers


def test_run_from_a_4_may_play_5_and_or_3_2_1() -> None:
    """'From a 4, you may choose to play a 5 and/or 3-2-1.' Notes: 'two branches
    grow from the start card: ascending ... and descending ... in any order.'"""
    pick = Picker()
    start = pick("white", 4)
    c5, c3, c2, c1 = pick("grey", 5), pick("grey", 3), pick("blue", 2), pick("blue", 1)
    state = _state([c5, c3, c2, c1], pick, {(0, 0): start})
    assert BeginRun((0, 0)) in state.legal_actions()
    state.apply(BeginRun((0, 0)))
    around = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    expected = {(c5, x, y, "up") for x, y in around} | {(c3, x, y, "down") for x, y in around}
    assert _places(state) == expected
    state.apply(Place(c3, -1, 0, "down"))
    places = _places(state)
    assert {(c, b) for c, _, _, b in places} == {(c5, "up"), (c2, "down")}
    assert {(x, y) for c, x, y, _ in places if c == c2} == {(-2, 0), (-1, 1), (-1, -1)}
    state.apply(Place(c5, 1, 0, "up"))  # branches in any order
    assert {(c, b) for c, _, _, b in _places(state)} == {(c2, "down")}  # no 6
    state.apply(Place(c2, -2, 0, "down"))
    events = [e.payload for e in state.apply(Place(c1, -3, 0, "down"))]
    assert isinstance(events[-1], TurnEnded)  # 1 is the bottom and the hand is empty
    assert state.pasture(0) == {(0, 0): start, (-1, 0): c3, (1, 0): c5, (-2, 0): c2, (-3, 0): c1}


def test_run_on_empty_pasture_starts_with_the_smallest_card_ascending_only() -> None:
    """'If you have not placed any cards yet in the pasture, the starting card will
    be the smallest card in the sequence that you lay down.' Notes: 'only the
    ascending branch exists.'"""
    pick = Picker()
    c2, c3, c4 = pick("grey", 2), pick("grey", 3), pick("blue", 4)
    state = _state([c2, c3, c4], pick)
    state.apply(BeginRun(None))
    state.apply(Place(c3, 0, 0))
    places = _places(state)
    assert {c for c, *_ in places} == {c4}  # never the 2: no descending branch
    assert all(b == "up" for *_, b in places)
    obs = state.observation(0)
    assert obs.placement.up_next == 4 and obs.placement.down_next is None


def test_run_needs_a_neighbouring_number_in_hand_to_be_offered() -> None:
    """'From this card, place a card string of consecutive numbers.'"""
    pick = Picker()
    state = _state([pick("grey", 3), pick("grey", 1)], pick, {(0, 0): pick("white", 5)})
    assert not any(isinstance(a, BeginRun) for a in state.legal_actions())


def test_run_branch_cells_follow_their_own_tip() -> None:
    """Notes: 'ascending (next number = tip + 1, adjacent to the ascending tip)
    and descending (tip - 1, adjacent to the descending tip).'"""
    pick = Picker()
    start = pick("white", 3)
    c4, c5, c2 = pick("grey", 4), pick("grey", 5), pick("blue", 2)
    state = _state([c4, c5, c2], pick, {(0, 0): start})
    state.apply(BeginRun((0, 0)))
    state.apply(Place(c4, 0, 1, "up"))
    places = _places(state)
    assert {(x, y) for c, x, y, _ in places if c == c5} == {(1, 1), (-1, 1), (0, 2)}
    assert {(x, y) for c, x, y, _ in places if c == c2} == {(1, 0), (-1, 0), (0, -1)}


# ------------------------------------------------------------------ c) one card of your choice


def test_free_discards_one_then_places_one_next_to_any_card() -> None:
    """'First, discard 1 card from your hand. Then, place one card of your choice
    from your hand next to any card in your pasture.' Notes: 'Discard 1 card
    (face up, out of the game)'."""
    pick = Picker()
    a, b, c = pick("grey", 1), pick("blue", 5), pick("pink", 3)
    pasture = {(0, 0): pick("white", 3), (1, 0): pick("black", 4)}
    state = _state([a, b, c], pick, pasture)
    state.apply(BeginFree())
    assert set(state.legal_actions()) == {Discard(a), Discard(b), Discard(c)}
    events = [e.payload for e in state.apply(Discard(b))]
    assert events == [CardDiscarded(0, b)] and state.discard == (b,)
    assert state.observation(1).discard == (b,)  # public
    frontier = {(-1, 0), (2, 0), (0, 1), (0, -1), (1, 1), (1, -1)}
    assert _places(state) == {(card, x, y, "") for card in (a, c) for x, y in frontier}
    assert Stop() not in state.legal_actions()
    events = [e.payload for e in state.apply(Place(a, 2, 0))]
    assert events[0] == CardPlaced(0, a, 2, 0, "")
    assert isinstance(events[-1], TurnEnded) and state.hand(0) == (c,)


def test_free_needs_two_cards_in_hand() -> None:
    """Notes: 'c) FREE: needs 2+ cards in hand.'"""
    pick = Picker()
    state = _state([pick("grey", 1)], pick, {(0, 0): pick("white", 5)})
    assert BeginFree() not in state.legal_actions()
    assert all(isinstance(a, TakeSet) for a in state.legal_actions())


def test_free_on_empty_pasture_places_at_origin() -> None:
    """Notes: '(empty pasture: at (0, 0))'."""
    pick = Picker()
    a, b = pick("grey", 1), pick("blue", 5)
    state = _state([a, b], pick)
    state.apply(BeginFree())
    state.apply(Discard(a))
    assert state.legal_actions() == (Place(b, 0, 0),)


def test_observation_shows_the_placement_in_progress() -> None:
    """The observation names the placement and what it still allows."""
    pick = Picker()
    start = pick("white", 3)
    c4, c2 = pick("grey", 4), pick("blue", 2)
    state = _state([c4, c2], pick, {(0, 0): start})
    assert state.observation(1).placement is None
    state.apply(BeginRun((0, 0)))
    state.apply(Place(c4, 1, 0, "up"))
    placement = state.observation(1).placement
    assert placement.kind == "run" and placement.start == (0, 0) and placement.placed == 1
    assert (placement.up_tip, placement.up_next) == ((1, 0), 5)
    assert (placement.down_tip, placement.down_next) == ((0, 0), 2)
    assert state.observation(1).phase == "run"


def test_a_boxed_in_run_tip_keeps_its_next_number_in_the_observation() -> None:
    """The guide: a `*_next` is unset only when no number follows; a tip with no
    free side keeps it, and only the legal actions show that nothing fits there.
    The 4 (up) goes to the one cell whose other three sides are taken: the
    observation still says the up branch takes a 5 next, while every card
    offered is the 2 on the down branch."""
    pick = Picker()
    start = pick("white", 3)
    walls = {(2, 0): pick("black", None), (1, 1): pick("pink", None), (1, -1): pick("brown", None)}
    c4, c5, c2 = pick("grey", 4), pick("grey", 5), pick("blue", 2)
    state = _state([c4, c5, c2], pick, {(0, 0): start, **walls})
    state.apply(BeginRun((0, 0)))
    state.apply(Place(c4, 1, 0, "up"))
    placement = state.observation(1).placement
    assert (placement.up_tip, placement.up_next) == ((1, 0), 5)
    assert (placement.down_tip, placement.down_next) == ((0, 0), 2)
    assert {(card, branch) for card, _, _, branch in _places(state)} == {(c2, "down")}


def test_observation_of_a_same_number_placement_on_an_empty_pasture() -> None:
    """'If you have not placed any cards yet in the pasture, the starting card will
    be the first card that you lay down': until it is down, the observation has
    no start, tip or number (any card may come first); then the first card's
    cell is start and tip and its number the one every card must have."""
    pick = Picker()
    g3, b3 = pick("grey", 3), pick("blue", 3)
    state = _state([g3, b3, pick("pink", 4)], pick)
    state.apply(BeginSame(None))
    placement = state.observation(1).placement
    assert placement is not None and placement.kind == "same" and placement.placed == 0
    assert (placement.start, placement.tip, placement.number) == (None, None, None)
    state.apply(Place(g3, 0, 0))
    placement = state.observation(1).placement
    assert placement is not None and placement.placed == 1
    assert (placement.start, placement.tip, placement.number) == ((0, 0), (0, 0), 3)


def test_placing_the_last_card_of_the_hand_ends_the_placement() -> None:
    """'Place one or more cards': with the hand empty (its size is public) nothing
    can follow, so the turn ends by itself even where free cells remain."""
    pick = Picker()
    g3 = pick("grey", 3)
    state = _state([g3], pick, {(0, 0): pick("white", 3)})
    state.apply(BeginSame((0, 0)))
    events = [e.payload for e in state.apply(Place(g3, 1, 0))]
    assert isinstance(events[-1], TurnEnded) and state.to_move == 1


def test_a_same_number_tip_boxed_in_ends_the_placement() -> None:
    """'You cannot lay a card on top of another card' and each card goes next to
    the previous one: a tip with no free neighbour takes no more cards, so the
    placement ends by itself though the hand still holds that number."""
    pick = Picker()
    pasture = {(0, 0): pick("white", 3)}
    for cell in ((2, 0), (1, 1), (1, -1)):
        pasture[cell] = pick("pink", 5)
    g3, b3 = pick("grey", 3), pick("blue", 3)
    state = _state([g3, b3], pick, pasture)
    state.apply(BeginSame((0, 0)))
    events = [e.payload for e in state.apply(Place(g3, 1, 0))]
    assert isinstance(events[-1], TurnEnded) and b3 in state.hand(0)


def test_a_run_whose_tips_are_boxed_in_ends_the_placement() -> None:
    """Both branches of a run need a free cell next to their own tip: the 4 placed
    on the start's last free neighbour, itself boxed in, leaves neither the 5
    (up) nor the 2 (down) a cell, so the placement ends by itself."""
    pick = Picker()
    pasture = {(0, 0): pick("white", 3)}
    cells = ((-1, 0), (0, 1), (0, -1), (2, 0), (1, 1), (1, -1))
    pasture.update(zip(cells, pick.filler(len(cells)), strict=True))
    c4, c5, c2 = pick("grey", 4), pick("grey", 5), pick("blue", 2)
    state = _state([c4, c5, c2], pick, pasture)
    state.apply(BeginRun((0, 0)))
    events = [e.payload for e in state.apply(Place(c4, 1, 0, "up"))]
    assert isinstance(events[-1], TurnEnded) and set(state.hand(0)) == {c5, c2}


def test_a_run_down_to_1_from_a_5_ends_by_itself() -> None:
    """'Numbers stay within 1..5': from a 5 (no ascending branch) down to the 1,
    no card at all could follow, so the placement ends with cards left in hand."""
    pick = Picker()
    run = [pick("grey", n) for n in (4, 3, 2, 1)]
    extra = pick("blue", 3)
    state = _state([*run, extra], pick, {(0, 0): pick("white", 5)})
    state.apply(BeginRun((0, 0)))
    for i, card in enumerate(run[:-1]):
        state.apply(Place(card, i + 1, 0, "down"))
        assert state.to_move == 0
    events = [e.payload for e in state.apply(Place(run[-1], 4, 0, "down"))]
    assert isinstance(events[-1], TurnEnded) and state.hand(0) == (extra,)
