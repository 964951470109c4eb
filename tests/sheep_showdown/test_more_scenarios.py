"""More scenario tests: Double Trouble steals, placement and last moves; 5 and 6
player set-up; chains through a second wolf and a rocket; players going out
together; a second wolf pushing the first wolf player's dog; the final-round
tie-break.

Grids: 1 2 3 5 sheep, S shepherd, R rocket, B blocking, L sliding, X bomb,
W wolf, . empty. With one dog each, dog n belongs to seat n; in Double Trouble
dogs 0 and 1 are seat 0's, dogs 2 and 3 seat 1's.
"""

from __future__ import annotations

import pytest

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.actions import SelectDog, Steal
from games.sheep_showdown.events import (
    BlockerDiscarded,
    BombExploded,
    CardDeclined,
    DogMoved,
    DogOut,
    LastPlayer,
    PlayerOut,
    RoundEnded,
    RoundStarted,
)
from games.sheep_showdown.state import (
    CHOOSE_DOG,
    PLACE,
    ROCKET,
    SHEPHERD,
    STEAL,
    STEP,
    USE_CARD,
    WOLF_DOG,
    WOLF_STEP,
)

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    choose_dog,
    directions,
    payloads,
    position,
    rocket,
    steal,
    step,
    use_card,
    where,
    wolf_dog,
)


def outs(events: list) -> list[tuple[int, str, int | None]]:
    return [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)]


def place_all(state) -> list[tuple[int, int]]:
    """Place every dog on the first free shepherd card; return (seat, dog) in order."""
    order = []
    while state.pending == PLACE:
        order.append((state.to_move, state.moving))
        state.apply(state.legal_actions()[0])
    return order


# ---------------------------------------------------------------- Double Trouble


def test_double_trouble_two_dogs_blocked_in_one_turn_give_two_steal_decisions() -> None:
    """Double Trouble: each dog that is blocked is out, and the blocker may take
    a face-down card for each blocked dog whose owner still has a flock. Seat 0
    takes the sheep between both of seat 1's dogs: both are blocked, seat 1 is
    out, and seat 0 decides twice (declining once does not cancel the other)."""
    rows = ["S1S..", ".S...", ".....", "....1", "...1S"]
    state = position(
        rows,
        {0: (1, 1), 1: (4, 4), 2: (0, 0), 3: (0, 2)},
        double_trouble=True,
        flocks={1: [C.SHEEP5, C.SHEEP3]},
    )
    choose_dog(state, 0)
    events = step(state, UP)
    assert outs(events) == [(2, "blocked", 0), (3, "blocked", 0)]
    assert payloads(events, PlayerOut) == [PlayerOut(1, 1)]
    assert state.pending == STEAL and state.to_move == 0
    assert state.legal_actions() == (Steal(1, True), Steal(1, False))
    events = steal(state, take=False)
    # the second dog's decision is still to come
    assert state.pending == STEAL and state.to_move == 0
    assert state.legal_actions() == (Steal(1, True), Steal(1, False))
    assert payloads(events, LastPlayer) == []
    events = steal(state, take=True)
    assert len(state.flocks[1]) == 1 and len(state.flocks[0]) == 2
    assert payloads(events, LastPlayer) == [LastPlayer(0, 2)]
    assert state.pending != STEAL and state.to_move == 0


def test_double_trouble_two_dogs_bombed_in_one_turn_give_two_steal_decisions() -> None:
    """A bomb that blows up both of the opponent's dogs gives the mover one steal
    decision per dog, even though the mover's own dog goes out too; the mover
    plays on with the other dog as the last player."""
    rows = ["1....", "SXS..", ".S...", "....1", "...1S"]
    state = position(
        rows,
        {0: (2, 1), 1: (4, 4), 2: (1, 0), 3: (1, 2)},
        double_trouble=True,
        flocks={1: [C.SHEEP5, C.SHEEP3]},
    )
    choose_dog(state, 0)
    events = step(state, UP)
    assert payloads(events, BombExploded)
    assert sorted(outs(events)) == [(0, "bomb", 0), (2, "bomb", 0), (3, "bomb", 0)]
    decisions = 0
    while state.pending == STEAL:
        assert state.to_move == 0 and state.steal_queue[0] == 1
        decisions += 1
        steal(state, take=True)
    assert decisions == 2
    assert state.flocks[1] == [] and sorted(state.flocks[0]) == [C.SHEEP3, C.SHEEP5]
    assert state.bonus_player == 0 and state.moving == 1 and state.to_move == 0


def test_double_trouble_later_round_with_seat_1_first() -> None:
    """Double Trouble set-up in a round whose first player is seat 1 (it scored
    fewest): seat 1 places one dog, seat 0 places both of its dogs, seat 1
    places its second dog, and the second player, seat 0, moves first."""
    rows = [".11....", *["......."] * 5, "......S"]
    state = position(
        rows,
        {0: (0, 0), 1: (6, 0), 2: (6, 6), 3: (6, 3)},
        double_trouble=True,
        out_dogs=(1, 2, 3),
        rounds=2,
    )
    step(state, RIGHT)
    events = step(state, RIGHT)  # seat 0's two last moves end round 1
    assert state.totals == [2, 0]
    started = payloads(events, RoundStarted)
    assert started and started[0].first_player == 1 and state.first_player == 1
    assert place_all(state) == [(1, 2), (0, 0), (0, 1), (1, 3)]
    assert state.turn_player == 0 and state.to_move == 0
    assert state.bonus_player is None


def test_double_trouble_last_player_chooses_the_dog_for_each_extra_move() -> None:
    """Double Trouble, end of the round: the last player in makes two more moves,
    and before each one chooses which of their dogs moves (one flock for both);
    after the second move the round ends even if both dogs could go on."""
    rows = [".1111", ".....", ".....", ".....", "2222."]
    state = position(
        rows,
        {0: (0, 0), 1: (4, 4), 2: (2, 0), 3: (2, 4)},
        double_trouble=True,
        out_dogs=(2, 3),
    )
    assert state.bonus_player == 0 and state.bonus_left == 2
    assert state.pending == CHOOSE_DOG and state.to_move == 0
    assert state.legal_actions() == (SelectDog(0, "move"), SelectDog(1, "move"))
    choose_dog(state, 1)
    step(state, LEFT)
    assert state.pending == CHOOSE_DOG and state.to_move == 0
    assert state.legal_actions() == (SelectDog(0, "move"), SelectDog(1, "move"))
    choose_dog(state, 0)
    events = step(state, RIGHT)
    assert payloads(events, RoundEnded)[0].reason == "last_steps"
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP2]
    assert state.terminal


# ---------------------------------------------------------------- placing order, 2 to 6 players


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_round_one_placing_goes_counter_clockwise_and_the_last_placer_starts(
    players: int,
) -> None:
    """ "The first player places their dog on a shepherd card, followed by the
    others in counterclockwise order ... the game begins in a clockwise order,
    with the player who chose last making the first move!" The meadow is 7x7
    for 2-4 players and 9x9 for 5 or 6; seat 0 places first in round 1, seat 1
    places last and moves first, then play goes clockwise."""
    state = GAME.new_state(players, 7)
    assert state.size == (7 if players <= 4 else 9)
    order = place_all(state)
    assert order == [(seat, seat) for seat in [0, *range(players - 1, 0, -1)]]
    assert state.turn_player == 1 and state.to_move == 1
    while state.turn_player == 1:
        state.apply(state.legal_actions()[0])
    assert state.turn_player == 2 % players


@pytest.mark.parametrize(("players", "fewest"), [(2, 1), (3, 2), (3, 1), (4, 2), (5, 1), (6, 3)])
def test_later_round_order_from_its_first_player(players: int, fewest: int) -> None:
    """ "The player who scored the fewest points gets to start the next round":
    they place first, the others follow counter-clockwise (wrapping past seat
    0), and the player after them clockwise, the last to place, moves first.
    The meadow is 7x7 for 2-4 players and 9x9 for 5 or 6."""
    size = 7 if players <= 4 else 9
    rows = [".11" + "." * (size - 3), *["." * size] * (size - 1)]
    dogs = {seat: (size - 1, seat) for seat in range(players)}
    dogs[0] = (0, 0)
    totals = [5] * players
    totals[fewest] = 0
    state = position(
        rows, dogs, players=players, out_dogs=tuple(range(1, players)), rounds=2, totals=totals
    )
    step(state, RIGHT)
    events = step(state, RIGHT)
    assert payloads(events, RoundStarted)[0].first_player == fewest
    assert state.size == size
    expected = [(fewest - i) % players for i in range(players)]
    assert place_all(state) == [(seat, seat) for seat in expected]
    assert state.turn_player == state.to_move == (fewest + 1) % players == expected[-1]


# ---------------------------------------------------------------- chains


def test_bomb_set_off_through_a_second_wolf_is_the_movers() -> None:
    """A wolf pushes dog 1 onto a second wolf; seat 1 takes it and pushes dog 2
    onto a bomb, and seat 1 (the second wolf's player) decides to set it off. The
    bomb still counts as the turn's mover's: the dogs it removes are out "by"
    seat 0, and seat 0, not seat 1, decides the steals from seats 1 and 2."""
    rows = ["SW...", ".W...", ".SX..", "..S..", "....1"]
    state = position(
        rows,
        {0: (0, 0), 1: (2, 1), 2: (3, 2)},
        players=3,
        flocks={1: [C.SHEEP5], 2: [C.SHEEP3]},
    )
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == WOLF_DOG and state.to_move == 1
    assert state.flocks[1] == [C.SHEEP5, C.WOLF]
    wolf_dog(state, 2)
    step(state, UP)
    assert state.pending == USE_CARD and state.to_move == 1
    events = use_card(state, use=True)
    assert payloads(events, BombExploded)[0].dog == 2
    assert outs(events) == [(1, "bomb", 0), (2, "bomb", 0)]
    victims = []
    while state.pending == STEAL:
        assert state.to_move == 0
        victims.append(state.steal_queue[0])
        steal(state, take=True)
    assert victims == [1, 2]
    assert C.SHEEP3 in state.flocks[0] and state.flocks[2] == []
    assert len(state.flocks[0]) == 3 and len(state.flocks[1]) == 1
    assert not state.out[0] and state.bonus_player == 0


def test_wolf_pushed_dog_rockets_onto_a_bomb_with_no_second_choice() -> None:
    """The wolf's player may decline the action card a pushed dog lands on, but
    once they carry out a rocket, the card the dog lands on applies like any
    chained effect: a bomb explodes at once (no second use-or-decline) and the
    mover steals; a shepherd asks straight for the target card."""
    rows = ["SW...", ".....", "..R.X", "..S..", "....1"]
    state = position(rows, {0: (0, 0), 1: (3, 2)}, flocks={1: [C.SHEEP2]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == USE_CARD
    use_card(state, use=True)
    assert state.pending == ROCKET and state.to_move == 0
    assert directions(state) == {RIGHT}
    events = rocket(state, RIGHT)
    assert payloads(events, BombExploded)[0].dog == 1
    assert outs(events) == [(1, "bomb", 0)]
    assert state.pending == STEAL and state.to_move == 0
    assert state.card_at(2, 4) == C.EMPTY

    rows = ["SW...", ".....", "..R.S", "..S..", "....1"]
    state = position(rows, {0: (0, 0), 1: (3, 2)})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state, use=True)
    rocket(state, RIGHT)
    assert state.pending == SHEPHERD and state.to_move == 0
    assert where(state, 1) == (2, 4)
    assert {(a.row, a.col) for a in state.legal_actions()} == {(0, 0), (3, 2)}


def test_wolf_pushed_dog_slides_onto_a_second_wolf_whose_owner_pushes_next() -> None:
    """Three rules meet: the wolf's player "may execute the action" of the card
    the pushed dog lands on (a sliding sheep here); once carried out, the slide
    follows as usual; and "if the dog ends up on another wolf card, the player
    of the moved dog must immediately move another opponent's dog". The second
    wolf goes to seat 1, who now decides, and may push seat 0's or seat 2's dog.
    Declined, the dog stays on the sliding sheep and the second wolf stays put."""
    rows = ["SW111..", "..W1...", "..L....", "1.S1...", ".......", "......1", "...1..S"]
    dogs = {0: (0, 0), 1: (3, 2), 2: (6, 6)}
    state = position(rows, dogs, players=3)
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == USE_CARD and state.to_move == 0
    events = use_card(state, use=True)
    assert [m.how for m in payloads(events, DogMoved)] == ["slide"]
    assert where(state, 1) == (1, 2) and state.card_at(1, 2) == C.EMPTY
    assert state.flocks == [[C.WOLF], [C.WOLF], []]
    assert state.pending == WOLF_DOG and state.to_move == 1
    assert [a.dog for a in state.legal_actions()] == [0, 2]
    wolf_dog(state, 2)
    assert state.pending == WOLF_STEP and state.to_move == 1

    state = position(rows, dogs, players=3)
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    use_card(state, use=False)
    assert where(state, 1) == (2, 2) and state.card_at(2, 2) == C.SLIDING
    assert state.card_at(1, 2) == C.WOLF and state.flocks == [[C.WOLF], [], []]
    assert state.pending == STEP and state.turn_player == 1


# ---------------------------------------------------------------- going out together


def test_blocked_and_already_stuck_players_go_out_in_the_same_turn() -> None:
    """The round is played until only one player can still move freely. Seat 2
    walks into a dead end but stays in while two others can move; when seat 0
    then blocks seat 1, seat 0 is the only one who can move, so seats 1 and 2
    go out in that same turn: seat 1 blocked (seat 0 may steal), seat 2 stuck
    (nobody steals from it). Seat 0 then makes exactly two more moves."""
    rows = [".111S", "...S.", ".....", ".....", ".1..."]
    state = position(
        rows,
        {0: (1, 3), 1: (0, 4), 2: (4, 0)},
        players=3,
        to_move=2,
        flocks={1: [C.SHEEP1], 2: [C.SHEEP2]},
    )
    events = step(state, RIGHT)  # seat 2 takes the 1 and is stuck
    assert not state.has_step(2) and not state.out[2]
    assert outs(events) == [] and state.turn_player == 0
    events = step(state, UP)  # seat 0 blocks seat 1
    assert outs(events) == [(1, "blocked", 0)]
    assert state.pending == STEAL and state.legal_actions() == (Steal(1, True), Steal(1, False))
    events = steal(state, take=False)
    assert outs(events) == [(2, "no_step", None)]
    assert payloads(events, LastPlayer) == [LastPlayer(0, 2)]
    assert state.out_at[1] == state.out_at[2] == 2
    assert state.pending != STEAL and state.flocks[2] == [C.SHEEP2, C.SHEEP1]
    step(state, LEFT)
    assert not state.terminal
    events = step(state, LEFT)
    assert payloads(events, RoundEnded)[0].reason == "last_steps"
    assert state.flocks[0] == [C.SHEEP1] * 3


# ---------------------------------------------------------------- readings the audit pinned


def test_two_players_a_second_wolf_pushes_the_first_wolf_players_dog() -> None:
    """Scar: "if the dog ends up on another wolf card, the player of the moved dog
    must immediately move another opponent's dog, following the same rules." The
    engine reads "another opponent's dog" as another dog of one of that player's
    opponents: with two players that is the dog of the player whose wolf started
    the chain, and it is pushed like any other (a sheep goes to its owner)."""
    rows = ["SW...", ".1...", ".1...", "...W.", "...S."]
    state = position(rows, {0: (0, 0), 1: (4, 3)})
    step(state, RIGHT)  # seat 0 takes the first wolf
    wolf_dog(state, 1)
    step(state, UP)  # dog 1's only step: onto the second wolf
    assert state.flocks[1] == [C.WOLF]
    assert state.pending == WOLF_DOG and state.to_move == 1
    # still seat 0's turn: seat 1 only decides the push ("to_move", not "turn_player")
    assert state.observation(1).turn_player == 0 and state.observation(1).to_move == 1
    assert state.observation(1).decision_dog is None  # no dog chosen yet
    assert [a.dog for a in state.legal_actions()] == [0]
    wolf_dog(state, 0)
    assert state.pending == WOLF_STEP and state.to_move == 1
    assert directions(state) == {LEFT, DOWN}  # back onto the shepherd, or onto the 1
    events = step(state, DOWN)
    assert [(m.dog, m.how, m.by) for m in payloads(events, DogMoved)] == [(0, "wolf", 1)]
    assert state.flocks[0] == [C.WOLF, C.SHEEP1]
    assert where(state, 0) == (1, 1) and not any(state.out)
    assert state.turn_player == 1 and state.pending == STEP  # seat 1's own turn follows


@pytest.mark.parametrize("use", [False, True])
def test_a_second_wolfs_holder_decides_the_card_the_first_wolf_players_dog_lands_on(
    use: bool,
) -> None:
    """Scar: "If you place the dog on an action card, you may execute the action
    of that card with that same dog", and a further wolf's holder pushes next.
    Seat 1's wolf pushes seat 0's dog onto a blocking sheep during seat 0's turn:
    seat 1, not seat 0, decides whether it is carried out, and the events name
    seat 1 (here no sheep card is free, so a carried-out blocking sheep leaves)."""
    rows = ["SW...", ".B...", ".....", "...W.", "...S."]
    state = position(rows, {0: (0, 0), 1: (4, 3)})
    step(state, RIGHT)  # seat 0 takes the first wolf
    wolf_dog(state, 1)
    step(state, UP)  # onto the second wolf: seat 1 pushes next
    wolf_dog(state, 0)
    events = step(state, DOWN)  # dog 0 onto the blocking sheep
    assert state.pending == USE_CARD and state.to_move == 1 and state.turn_player == 0
    events += use_card(state, use=use)
    if use:
        assert payloads(events, BlockerDiscarded) == [BlockerDiscarded(1)]
        assert payloads(events, CardDeclined) == [] and state.card_at(1, 1) == C.EMPTY
    else:
        assert payloads(events, CardDeclined) == [CardDeclined(0, 0, C.BLOCKING, 1)]
        assert payloads(events, BlockerDiscarded) == [] and state.card_at(1, 1) == C.BLOCKING


def test_the_tie_break_looks_at_the_final_round_only() -> None:
    """ "In case of a tie, the player who lasted the longest in the meadow during
    the final round wins." Seat 0 went out first in round 1, but stays in to the
    end of round 2, the final round: with equal totals seat 0 ranks first."""
    state = position(
        [".11..", ".....", ".....", ".....", "....S"],
        {0: (0, 0), 1: (4, 4)},
        out_dogs=(1,),
        flocks={1: [C.SHEEP2]},
        rounds=2,
        round=2,
        totals=[3, 3],
    )
    state.records[0][0]["out_at_turn"] = 4  # round 1: seat 0 out at turn 4,
    state.records[0][1]["out_at_turn"] = None  # seat 1 still in at its end
    step(state, RIGHT)
    step(state, RIGHT)
    result = state.result()
    assert result.scores == (5.0, 5.0)
    assert result.ranks == (1, 2)
    assert [p["final_round_out_at_turn"] for p in result.details["players"]] == [None, 0]


def test_a_second_wolf_pushing_the_movers_own_dog_into_a_dead_end_steals_nothing() -> None:
    """Engine reading (the rulebook does not say who blocks in a chain): what a
    chain blocks counts as the turn's mover's, and the mover cannot block their own
    dog. Seat 1's second wolf pushes seat 0's dog onto a 1 with no way out: seat 0
    is stuck, not blocked. With only seat 1 left able to move, seat 0 is out at once
    ("no_step"), nobody steals, and seat 1 makes its two last moves."""
    rows = ["SW...", ".1...", ".....", "...W.", "...S."]
    state = position(rows, {0: (0, 0), 1: (4, 3)}, flocks={0: [C.SHEEP5]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    wolf_dog(state, 0)
    events = step(state, DOWN)
    assert outs(events) == [(0, "no_step", None)]
    assert state.decision_name() != "steal"
    assert sorted(state.flocks[0]) == sorted([C.SHEEP5, C.WOLF, C.SHEEP1])
    assert state.flocks[1] == [C.WOLF]
    assert payloads(events, LastPlayer) and state.to_move == 1 and state.pending == STEP


def test_a_dog_a_second_wolf_blocks_counts_as_the_movers() -> None:
    """Engine reading (the rulebook does not say who blocks in a chain; its FAQ
    only says "If you step on a wolf card and move an opponent, causing another
    opponent to get stuck, you have blocked that opponent!"): a dog that a chain
    leaves stuck is blocked by the turn's mover, whoever's wolf pushed it. Seat 0's
    wolf sends dog 1 onto a second wolf; seat 1 pushes dog 2 onto a 3 with no way
    out. Dog 2 is out "by" seat 0, and seat 0, not seat 1, decides the steal."""
    rows = ["SW...", ".W1..", ".S...", "...3.", "....."]
    state = position(rows, {0: (0, 0), 1: (2, 1), 2: (3, 2)}, players=3, flocks={2: [C.SHEEP5]})
    step(state, RIGHT)
    wolf_dog(state, 1)
    step(state, UP)
    assert state.pending == WOLF_DOG and state.to_move == 1
    assert [a.dog for a in state.legal_actions()] == [0, 2]
    wolf_dog(state, 2)
    events = step(state, RIGHT)
    assert [(m.dog, m.how, m.by) for m in payloads(events, DogMoved)] == [(2, "wolf", 1)]
    assert sorted(state.flocks[2]) == [C.SHEEP3, C.SHEEP5]
    assert outs(events) == [(2, "blocked", 0)]
    assert state.pending == STEAL and state.to_move == 0 and state.steal_queue == [2]
    steal(state, take=True)
    assert len(state.flocks[0]) == 2 and len(state.flocks[1]) == 1
    assert state.pending == STEP and state.turn_player == 1
