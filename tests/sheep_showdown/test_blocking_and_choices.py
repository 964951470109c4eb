"""Scenario tests for who blocked whom, stealing as a choice, and the wolf's
player choosing whether a pushed dog carries out an action card.

Grids: 1 2 3 5 sheep, S shepherd, R rocket, B blocking, L sliding, X bomb,
W wolf, . empty. Dog n belongs to seat n (one dog each).
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import Steal, UseCard
from games.sheep_showdown.events import (
    BombExploded,
    CardDeclined,
    CardStolen,
    DogMoved,
    DogOut,
    LastPlayer,
    PlayerOut,
    RoundEnded,
    ShepherdStays,
    StealDeclined,
)
from games.sheep_showdown.state import BLOCKER, STEAL, STEP, USE_CARD

from .helpers import RIGHT, UP, payloads, position, steal, step, use_card, where, wolf_dog

# ---------------------------------------------------------------- 1. only the mover's blocks


def test_a_self_stuck_dog_is_out_unrobbed_and_the_last_player_moves_twice() -> None:
    """ "You can steal cards from your opponents by blocking them" and "The round
    is played until only one player can still move freely. That player must make
    two more moves ... The round ends when those moves are completed." Dog 1
    walks itself into a dead end: nobody blocked it, so nobody steals; only seat
    0 can still move freely, so seat 1 is out at once and seat 0 makes exactly
    two more moves (not a turn of its own first and then two)."""
    rows = [".1...", ".....", "..S11", ".....", "....."]
    state = position(rows, {0: (2, 2), 1: (0, 0)}, to_move=1, flocks={1: [C.SHEEP5]})
    events = step(state, RIGHT)  # seat 1 takes the 1 at (0,1): no way out from there
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "no_step", None)]
    assert payloads(events, PlayerOut) == [PlayerOut(1, 1)]
    assert payloads(events, LastPlayer) == [LastPlayer(0, 2)]
    assert payloads(events, CardStolen) == [] and state.pending != STEAL
    assert sorted(state.flocks[1]) == [C.SHEEP1, C.SHEEP5]
    assert state.turn_player == 0
    step(state, RIGHT)
    assert not state.terminal and state.turn_player == 0
    events = step(state, RIGHT)
    assert payloads(events, RoundEnded)[0].reason == "last_steps"
    assert state.flocks[0] == [C.SHEEP1, C.SHEEP1]
    # out in its own turn (the first of the round): the tie-break "who lasted
    # the longest in the meadow" counts from there
    assert state.out_at[1] == 1


def test_a_stuck_player_stays_in_while_two_others_can_move() -> None:
    """Rules note: a dog already stuck when a turn began "stays in until its
    owner's own turn". With three players and two of them able to move, the
    round goes on as usual: dog 2, stuck from the start, goes out at the start
    of seat 2's turn, unrobbed, and nobody is the last player yet."""
    rows = ["S1...", ".....", "..S1.", ".....", "S...."]
    state = position(rows, {0: (0, 0), 1: (2, 2), 2: (4, 0)}, players=3, flocks={2: [C.SHEEP3]})
    assert not state.has_step(2)
    events = step(state, RIGHT)  # seat 0
    assert payloads(events, DogOut) == [] and not state.out[2]
    assert state.turn_player == 1 and state.bonus_player is None
    events = step(state, RIGHT)  # seat 1; then seat 2's turn starts, and it is out
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(2, "no_step", None)]
    assert payloads(events, PlayerOut) == [PlayerOut(2, 3)]
    assert payloads(events, CardStolen) == [] and state.flocks[2] == [C.SHEEP3]
    assert state.turn_player == 0 and state.bonus_player is None


def test_a_dog_free_when_the_turn_began_and_stuck_after_it_was_blocked() -> None:
    """ "A player who can still make at least one more move is not considered
    blocked": dog 1 could step when seat 0's turn began and cannot after it, so
    seat 0 blocked it and may steal."""
    state = position(["...1S", "...S.", ".....", ".....", "....."], {0: (1, 3), 1: (0, 4)})
    assert state.observation(0).free_at_turn_start == (1,)
    state.flocks[1] = [C.SHEEP2]
    events = step(state, UP)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0


def test_when_nobody_can_move_freely_every_player_left_is_out_at_once() -> None:
    """ "The round is played until only one player can still move freely." Seat
    2 walked into a dead end earlier; seat 0 now takes the 1 that was seat 1's
    only way out (blocked) and is stuck itself. Nobody can move freely any more:
    seats 0 and 2 are out at once, in the same turn as seat 1 (no turns of their
    own first), and the round ends with nobody left. In the quick game's
    tie-break seats 1 and 2 lasted equally long."""
    rows = [".....", "..1..", ".....", ".....", "....."]
    state = position(rows, {0: (2, 2), 1: (0, 2), 2: (4, 4)})
    assert state.players == 3 and not state.has_step(2)
    events = step(state, UP)
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [
        (1, "blocked", 0),
        (0, "no_step", None),
        (2, "no_step", None),
    ]
    assert [e.reason for e in payloads(events, RoundEnded)] == ["nobody_left"]
    assert payloads(events, LastPlayer) == []
    result = state.result()
    assert [p["final_round_out_at_turn"] for p in result.details["players"]] == [1, 1, 1]
    assert result.scores == (1.0, 0.0, 0.0) and result.ranks == (1, 2, 2)


@pytest.mark.parametrize("players", [2, 3])
def test_a_move_that_leaves_nobody_free_ends_the_round_in_that_turn_for_everyone(
    players: int,
) -> None:
    """ "The round is played until only one player can still move freely": seat 0
    takes the 1 that was seat 1's only way out (blocked) and is left stuck itself,
    so nobody can move freely. Seat 0 is out in that same turn, whether it is
    alone in the round (2 players) or still there with seat 2, stuck from the
    start: a third player who cannot move changes nothing between seats 0 and 1.
    Level on points, they lasted equally long and share first place."""
    rows = [".....", "..1..", ".....", ".....", "....."]
    dogs = {0: (2, 2), 1: (0, 2), 2: (4, 4)}
    state = position(rows, dict(list(dogs.items())[:players]), flocks={1: [C.SHEEP1]})
    step(state, UP)
    events = steal(state, take=False)
    assert [e.reason for e in payloads(events, RoundEnded)] == ["nobody_left"]
    result = state.result()
    assert [p["final_round_out_at_turn"] for p in result.details["players"]] == [1] * players
    assert result.scores[:2] == (1.0, 1.0)
    assert result.ranks[:2] == (1, 1)


def test_a_dog_already_out_is_not_free_at_the_start_of_a_turn() -> None:
    """`free_at_turn_start` holds the opponents' dogs that could step when the
    turn began: a dog that is out (it lies on its cell) cannot step, even with
    cards all around it, so it is not listed and cannot be blocked again."""
    rows = ["S1..1", "....S", "..111", "..1S1", "..111"]
    state = position(rows, {0: (0, 0), 1: (1, 4), 2: (3, 3)}, players=3, out_dogs=(2,))
    assert state.turn_player == 0 and state.out[2]
    assert state.observation(0).free_at_turn_start == (1,)


# ---------------------------------------------------------------- 2. stealing is a choice


def test_stealing_is_offered_as_take_or_decline() -> None:
    """ "If you succeed you may take a face-down card from their flock! This
    could also be a wolf card, so beware!" The mover decides."""
    rows = ["...1S", "...S.", ".....", ".....", "....."]
    state = position(rows, {0: (1, 3), 1: (0, 4)}, flocks={1: [C.WOLF]})
    step(state, UP)
    assert state.pending == STEAL and state.to_move == 0
    actions = state.legal_actions()
    assert actions == (Steal(1, True), Steal(1, False))
    assert [a.label for a in actions] == ["steal from seat 1", "decline"]
    assert state.observation(0).steal_from == (1,)
    events = steal(state, take=False)
    assert payloads(events, StealDeclined) == [StealDeclined(0, 1)]
    assert payloads(events, CardStolen) == []
    assert state.flocks[0] == [C.SHEEP1] and state.flocks[1] == [C.WOLF]

    taker = position(rows, {0: (1, 3), 1: (0, 4)}, flocks={1: [C.WOLF]})
    step(taker, UP)
    steal(taker, take=True)
    assert sorted(taker.flocks[0]) == [C.SHEEP1, C.WOLF] and taker.flocks[1] == []


def test_one_decision_per_victim_and_none_for_an_empty_flock() -> None:
    """FAQ: "It is also possible to block multiple players simultaneously, in
    which case you get to take a card from each of the blocked players!" One
    decision each; a blocked player with an empty flock has nothing to take."""
    state = position(
        ["S1S..", ".S...", ".....", ".....", "...1S"],
        {0: (1, 1), 1: (0, 0), 2: (0, 2), 3: (4, 4)},
        flocks={1: [C.SHEEP2], 3: [C.SHEEP3]},
        players=4,
    )
    events = step(state, UP)  # blocks dogs 1 and 2; dog 3 can still step up
    assert {d.dog for d in payloads(events, DogOut)} == {1, 2}
    assert state.legal_actions() == (Steal(1, True), Steal(1, False))  # not seat 2: empty
    steal(state, take=True)
    assert state.pending == STEP and state.to_move == 3
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP2]


def test_steal_from_lists_only_the_seats_still_to_be_asked() -> None:
    """The observation's `steal_from` is "the seats still to decide a steal
    from, the first is asked now". A blocked player with an empty flock is never
    asked, so it is not listed, whether its dog went out first or last; and a
    Double Trouble player whose one card the first decision took is not asked a
    second time, so it leaves the list."""
    rows = ["S1S..", ".S...", ".....", ".....", "...1S"]
    dogs = {0: (1, 1), 1: (0, 0), 2: (0, 2), 3: (4, 4)}
    for flocks, listed in (({1: [C.SHEEP2]}, (1,)), ({2: [C.SHEEP2]}, (2,))):
        state = position(rows, dogs, flocks=flocks, players=4)
        step(state, UP)  # blocks dogs 1 and 2, one flock empty
        assert state.observation(0).steal_from == listed
        assert state.observation(0).decision_dog is None  # a steal is about a seat
        assert state.observation(None).steal_from == listed
        steal(state, take=False)
        assert state.pending == STEP and state.observation(0).steal_from == ()

    both = position(
        ["S1S..", ".S...", ".....", "....1", "...1S"],
        {0: (1, 1), 1: (4, 4), 2: (0, 0), 3: (0, 2)},
        double_trouble=True,
        flocks={1: [C.SHEEP5]},
    )
    both.apply(both.legal_actions()[0])  # dog 0 moves
    step(both, UP)  # blocks both of seat 1's dogs
    assert both.observation(0).steal_from == (1, 1)
    steal(both, take=True)  # the only card: nothing left to ask about
    assert both.pending != STEAL and both.observation(0).steal_from == ()


# ---------------------------------------------------------------- 3. the wolf's player may decline


def test_wolf_pushed_dog_on_a_bomb_the_wolf_player_may_decline() -> None:
    """Scar: "If you place the dog on an action card, you may execute the action
    of that card with that same dog." Declining leaves the bomb where it is."""
    rows = ["SW...", ".....", "..X..", "..S1.", "....1"]
    state = position(rows, {0: (0, 0), 1: (3, 2)}, flocks={1: [C.SHEEP2]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == USE_CARD and state.to_move == 0
    actions = state.legal_actions()
    assert actions == (UseCard(1, C.BOMB, True), UseCard(1, C.BOMB, False))
    assert [a.label for a in actions] == ["carry out the bomb sheep with dog 1", "decline"]
    events = use_card(state, use=False)
    assert payloads(events, BombExploded) == []
    assert payloads(events, CardDeclined) == [CardDeclined(1, 1, C.BOMB, 0)]
    assert state.card_at(2, 2) == C.BOMB and where(state, 1) == (2, 2)
    assert not state.out[1] and state.flocks[1] == [C.SHEEP2]
    assert state.to_move == 1


def test_wolf_pushed_dog_on_a_blocking_sheep_declined_keeps_the_card() -> None:
    """ "you may execute the action of that card with that same dog": declined,
    the blocking sheep stays on the grid under the dog and nothing is covered."""
    rows = ["SW...", "..2..", "..B..", "..S..", "1...."]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state, use=False)
    assert state.pending != BLOCKER
    assert state.card_at(2, 2) == C.BLOCKING and state.card_at(1, 2) == C.SHEEP2


def test_wolf_pushed_dog_on_a_sliding_sheep_slides_only_if_chosen() -> None:
    """Moose is an action card too: "you may execute the action of that card".
    Carried out, the dog slides on in the direction the wolf moved it."""
    rows = ["SW...", "..3..", "..L..", "..S..", "....1"]
    declined = position(rows, {0: (0, 0), 1: (3, 2)})
    step(declined, RIGHT)
    wolf_dog(declined, 1)
    step(declined, UP)
    assert declined.observation(0).entered_direction == UP
    use_card(declined, use=False)
    assert where(declined, 1) == (2, 2) and declined.flocks[1] == []

    carried = position(rows, {0: (0, 0), 1: (3, 2)})
    step(carried, RIGHT)
    wolf_dog(carried, 1)
    step(carried, UP)
    events = use_card(carried, use=True)
    assert [m.how for m in payloads(events, DogMoved)] == ["slide"]
    assert where(carried, 1) == (1, 2) and carried.flocks[1] == [C.SHEEP3]


def test_a_dog_stepping_on_an_action_card_itself_has_no_choice() -> None:
    """Only the wolf's push makes the action optional: "If you land on a
    different type of card, perform its special action." """
    state = position(["SX...", ".....", ".....", ".....", "....S"], {0: (0, 0), 1: (4, 4)})
    events = step(state, RIGHT)
    assert payloads(events, BombExploded) and state.pending != USE_CARD


def test_wolf_push_onto_a_shepherd_without_a_free_target_asks_nothing() -> None:
    """A choice is only offered when carrying the card out would do something: a
    shepherd with no other free shepherd card leaves the dog where it is anyway."""
    rows = [".W...", ".....", "..S..", "..1..", "....."]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    events = step(state, UP)
    assert state.pending != USE_CARD and where(state, 1) == (2, 2)
    assert payloads(events, ShepherdStays) == [ShepherdStays(1, 1)]
