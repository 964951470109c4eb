"""Scenario tests: being out, stealing, the end of a round, rounds, ranking,
Double Trouble."""

from __future__ import annotations

import json

import pytest

from games.sheep_showdown import GAME
from games.sheep_showdown import cards as C
from games.sheep_showdown.events import (
    CardStolen,
    DogOut,
    GameEnded,
    LastPlayer,
    PlayerOut,
    RoundEnded,
    RoundStarted,
    WolfNoTarget,
)
from games.sheep_showdown.state import CHOOSE_DOG, PLACE, STEP

from .helpers import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    choose_dog,
    payloads,
    place,
    position,
    random_game,
    steal,
    steal_all,
    step,
)

EMPTY7 = ["......."] * 7


def rows7(*top: str) -> list[str]:
    return [*top, *EMPTY7[len(top) :]]


# ---------------------------------------------------------------- blocking and stealing


def test_blocked_opponent_is_out_and_the_mover_steals_a_card() -> None:
    """ "You can steal cards from your opponents by blocking them ... you may take
    a face-down card from their flock!" Rules note: after the turn, an opponent
    dog that had a legal step when the turn began and has none now is out, and
    the mover may take one random card from its owner's flock."""
    state = position(
        ["...1S", "...S.", ".....", ".....", "....."],
        {0: (1, 3), 1: (0, 4)},
        flocks={1: [C.SHEEP5]},
    )
    events = steal_all(state, step(state, UP))
    assert [(d.dog, d.reason, d.by) for d in payloads(events, DogOut)] == [(1, "blocked", 0)]
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP5]
    assert state.flocks[1] == []
    assert payloads(events, PlayerOut) == [PlayerOut(1, 1)]
    assert payloads(events, LastPlayer) == [LastPlayer(0, 2)]


def test_a_lone_player_with_no_step_left_is_not_announced_as_the_last_player() -> None:
    """ "The round is played until only one player can still move freely. That
    player must make two more moves": seat 0 takes the sheep between the dogs,
    blocking seat 1, and is left on an empty cell with nothing around it. Nobody
    can move freely, so nobody is told of two more steps (`LastPlayer` once
    announced them just before seat 0 went out): seat 0 is out in the same turn
    as seat 1 (no turn of its own first), and the round ends with nobody left."""
    state = position([".1S", "...", "..."], {0: (0, 0), 1: (0, 2)})
    events = step(state, RIGHT)
    assert payloads(events, LastPlayer) == []
    assert [(d.seat, d.reason) for d in payloads(events, DogOut)] == [
        (1, "blocked"),
        (0, "no_step"),
    ]
    assert payloads(events, PlayerOut) == [PlayerOut(1, 1), PlayerOut(0, 1)]
    assert payloads(events, RoundEnded)[0].reason == "nobody_left"
    assert state.terminal and state.result().ranks == (1, 2)
    assert state.observation(0).last_player is None and state.bonus_player is None


def test_stealing_from_an_empty_flock_takes_nothing() -> None:
    """Rules note: the mover decides about each blocked dog "whose owner's flock
    is not empty": an empty flock asks nothing and gives nothing."""
    state = position(["...1S", "...S.", ".....", ".....", "....."], {0: (1, 3), 1: (0, 4)})
    events = step(state, UP)
    assert payloads(events, CardStolen) == []
    assert state.out[1] and state.flocks[0] == [C.SHEEP1]
    assert state.pending == STEP and state.to_move == 0


def test_the_stolen_card_is_random_and_may_be_a_wolf() -> None:
    """ "This could also be a wolf card, so beware!" The card comes from the
    state's seeded generator: same seed, same card; other seeds, other cards."""
    flock = [C.SHEEP1, C.SHEEP2, C.SHEEP3, C.WOLF]
    stolen = []
    for seed in range(40):
        state = position(
            ["...1S", "...S.", ".....", ".....", "....."],
            {0: (1, 3), 1: (0, 4)},
            flocks={1: flock},
            seed=seed,
        )
        steal_all(state, step(state, UP))
        (card,) = [c for c in state.flocks[0] if c != C.SHEEP1] or [C.SHEEP1]
        stolen.append(card)
        again = position(
            ["...1S", "...S.", ".....", ".....", "....."],
            {0: (1, 3), 1: (0, 4)},
            flocks={1: flock},
            seed=seed,
        )
        steal_all(again, step(again, UP))
        assert sorted(again.flocks[0]) == sorted(state.flocks[0])
    assert set(stolen) == set(flock)


def test_blocking_several_players_at_once_steals_from_each() -> None:
    """FAQ: "It is also possible to block multiple players simultaneously, in
    which case you get to take a card from each of the blocked players!" """
    state = position(
        ["S1S..", ".S...", ".....", ".....", "....."],
        {0: (1, 1), 1: (0, 0), 2: (0, 2)},
        flocks={1: [C.SHEEP2], 2: [C.SHEEP3]},
    )
    events = steal_all(state, step(state, UP))
    assert {d.dog for d in payloads(events, DogOut)} == {1, 2}
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP2, C.SHEEP3]
    assert state.out_at[1] == state.out_at[2]  # out in the same turn


def test_a_player_who_can_still_move_is_not_blocked() -> None:
    """ "A player who can still make at least one more move is not considered
    blocked." Dog 1 keeps one step (down) and stays in."""
    state = position(
        ["...1S", "...S1", ".....", ".....", "....."],
        {0: (1, 3), 1: (0, 4)},
        flocks={1: [C.SHEEP5]},
    )
    events = step(state, UP)
    assert payloads(events, DogOut) == [] and payloads(events, CardStolen) == []
    assert state.to_move == 1 and state.flocks[1] == [C.SHEEP5]


def test_steal_events_are_private_to_thief_and_victim() -> None:
    """Rules: flock contents are face down. The thief and the victim learn the
    stolen card; everyone else learns only that a card was stolen."""
    state = position(
        ["...1S", "...S.", ".....", ".....", "1...."],
        {0: (1, 3), 1: (0, 4), 2: (4, 1)},
        flocks={1: [C.SHEEP5]},
        players=3,
    )
    events = steal_all(state, step(state, UP))
    steals = [e for e in events if isinstance(e.payload, CardStolen)]
    assert steals
    for event in steals:
        assert event.visible_to(2) in (None, CardStolen(0, 1, None))
        assert event.visible_to(None) in (None, CardStolen(0, 1, None))
    assert CardStolen(0, 1, C.SHEEP5) in [e.visible_to(0) for e in steals]
    assert CardStolen(0, 1, C.SHEEP5) in [e.visible_to(1) for e in steals]


def test_no_step_at_the_start_of_a_turn_means_out_without_a_steal() -> None:
    """ "If you cannot move to a new card on your turn, the round ends for you.
    Keep the flock of sheep you have gained up to that point!" Rules note: out at
    the start of the turn, no steal."""
    state = position(
        [".1...", ".....", ".....", ".....", "....."],
        {0: (1, 1), 1: (0, 0)},
        flocks={1: [C.SHEEP2]},
    )
    events = step(state, UP)  # blocks dog 1 and leaves dog 0 without a step
    events += steal(state)
    outs = [(d.dog, d.reason) for d in payloads(events, DogOut)]
    assert outs == [(1, "blocked"), (0, "no_step")]
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP2]  # kept, nobody stole
    assert payloads(events, RoundEnded)[0].reason == "nobody_left"
    assert state.terminal


# ---------------------------------------------------------------- end of the round


def test_last_player_must_make_two_more_steps_even_onto_wolves() -> None:
    """ "That player must make two more moves, even if it means picking up
    unwanted cards." FAQ: "Yes, as the last player who can move his dog, you must
    take 2 more turns." """
    state = position(
        [".WW1.", ".....", ".....", ".....", "....S"], {0: (0, 0), 1: (4, 4)}, out_dogs=(1,)
    )
    assert state.bonus_player == 0 and state.bonus_left == 2
    assert [a.direction for a in state.legal_actions()] == [RIGHT]  # no pass
    events = step(state, RIGHT)
    assert payloads(events, WolfNoTarget) == [WolfNoTarget(0)]
    events = step(state, RIGHT)
    assert state.flocks[0] == [C.WOLF, C.WOLF]
    assert payloads(events, RoundEnded)[0].reason == "last_steps"
    assert state.terminal and state.result().scores[0] == -2.0


def test_last_player_stops_when_they_cannot_move() -> None:
    """ "The round ends when those moves are completed or if the player can no
    longer move." """
    state = position(
        [".1...", ".....", ".....", ".....", "....S"], {0: (0, 0), 1: (4, 4)}, out_dogs=(1,)
    )
    events = step(state, RIGHT)
    assert payloads(events, RoundEnded)[0].reason == "nobody_left"
    assert state.terminal and state.flocks[0] == [C.SHEEP1]


def test_the_round_plays_until_one_player_can_move() -> None:
    """ "The round is played until only one player can still move freely." With
    three players, one out is not enough to start the last steps."""
    state = position(
        ["...1S", "...S.", "11111", "11111", "S1111"], {0: (1, 3), 1: (0, 4), 2: (4, 0)}
    )
    step(state, UP)
    assert state.out[1] and state.bonus_player is None and state.to_move == 2


def test_a_player_stuck_when_the_dogs_are_placed_starts_the_last_steps_at_once() -> None:
    """ "The round is played until only one player can still move freely. That
    player must make two more moves." If only one dog can step once every dog
    is placed, its player makes two moves in all, not a first turn and then two."""
    state = GAME.new_state(2, 3, {"rounds": "1"})
    rows = ["S......", ".......", "..111..", "..1S1..", "..111..", ".......", "......."]
    state.grid = [C.CHAR_CARDS[char] for row in rows for char in row]
    state._cache = None
    first, last = state.place_queue[0][0], state.place_queue[1][0]
    place(state, 0, 0)  # the first to place takes the shepherd nothing can leave
    events = place(state, 3, 3)  # the last to place moves first
    assert payloads(events, LastPlayer) == [LastPlayer(last, 2)]
    assert state.out_at[first] is not None and state.to_move == last
    # Out before the first turn: out_at_turn is 0, as for a player still in.
    seen = state.observation(last)
    assert seen.out_at_turn[first] == 0 and not seen.players_in[first]
    assert seen.out_at_turn[last] == 0 and seen.players_in[last]
    moves = 0
    while not state.terminal:
        assert state.to_move == last
        state.apply(state.legal_actions()[0])
        moves += 1
    assert moves == 2


def test_safety_cap_ends_a_round_that_could_cycle_forever() -> None:
    """Rules note: "a round also ends after 4 x (number of cells) turns"."""
    state = position(["SSS", "SSS", "SSS"], {0: (0, 0), 1: (2, 2)})
    applied = 0
    while not state.terminal:
        state.apply(state.legal_actions()[0])
        applied += 1
    assert state.clock == 4 * 9
    rounds = state.result().details["players"][0]["rounds"]
    assert rounds[0]["out_at_turn"] is None
    assert applied >= 36


def test_round_score_is_sheep_minus_wolves() -> None:
    """ "Each sheep on a card represents 1 point. However ... each wolf costs you
    1 point." """
    state = position(
        ["....S"] * 5,
        {0: (0, 0), 1: (4, 4)},
        out_dogs=(0, 1),
        flocks={0: [C.SHEEP5, C.SHEEP2, C.WOLF], 1: [C.WOLF, C.WOLF, C.SHEEP1]},
    )
    assert state.terminal
    result = state.result()
    assert result.scores == (6.0, -1.0)
    first = result.details["players"][0]["rounds"][0]
    assert (first["sheep_points"], first["wolves"], first["round_score"]) == (7, 1, 6)


def test_next_round_fewest_points_starts_ties_clockwise_after_previous_first() -> None:
    """ "Your score from each round is added to the next ... gather all the
    cards, shuffle them thoroughly ... The player who scored the fewest points
    gets to start the next round." Rules note for ties: the tied seat first
    clockwise after the previous first player."""
    for previous, expected in ((0, 1), (1, 2), (2, 1)):
        state = position(
            rows7(".11...."),
            {0: (0, 0), 1: (6, 6), 2: (6, 5)},
            out_dogs=(1, 2),
            flocks={1: [C.SHEEP1], 2: [C.SHEEP1]},
            rounds=3,
            first_player=previous,
            totals=[9, 4, 4],
        )
        step(state, RIGHT)
        events = step(state, RIGHT)
        assert state.totals == [11, 5, 5]
        started = payloads(events, RoundStarted)
        assert state.round == 2 and state.first_player == expected
        assert started and started[0].first_player == state.first_player
        assert sorted(state.grid) == sorted(C.deck(7)) and C.layout_ok(state.grid, 7)
        assert state.flocks == [[], [], []] and state.pending == PLACE
        assert state.to_move == state.first_player
    fewest = position(
        rows7(".11...."),
        {0: (0, 0), 1: (6, 6), 2: (6, 5)},
        out_dogs=(1, 2),
        flocks={1: [C.SHEEP1], 2: [C.SHEEP1]},
        rounds=3,
        totals=[0, 4, 2],
    )
    step(fewest, RIGHT)
    step(fewest, RIGHT)
    assert fewest.first_player == 0 and fewest.totals == [2, 5, 3]


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_number_of_rounds_and_totals(rounds: int) -> None:
    """ "After 3 rounds, the player with the highest total score wins!" and
    "Fancy a Quick Game? Play one round." Totals are the sum of round scores."""
    state, _, history = random_game(3, 40 + rounds, {"rounds": rounds})
    ended = [e.payload for events in history for e in events if isinstance(e.payload, RoundEnded)]
    assert [r.round for r in ended] == list(range(1, rounds + 1))
    result = state.result()
    for seat, player in enumerate(result.details["players"]):
        assert len(player["rounds"]) == rounds
        assert player["total"] == sum(r["round_score"] for r in player["rounds"])
        assert result.scores[seat] == player["total"]
        for record in player["rounds"]:
            assert record["round_score"] == record["sheep_points"] - record["wolves"]
    assert payloads([e for events in history for e in events], GameEnded)
    assert json.loads(json.dumps(result.details)) == result.details


def test_highest_total_wins_then_longest_in_the_final_round() -> None:
    """ "The player with the highest total score is crowned the best shepherd! In
    case of a tie, the player who lasted the longest in the meadow during the
    final round wins." Still in at the end is best."""
    tied = position(
        [".11..", ".....", ".....", ".....", "....S"],
        {0: (0, 0), 1: (4, 4)},
        out_dogs=(1,),
        flocks={1: [C.SHEEP2]},
    )
    step(tied, RIGHT)
    step(tied, RIGHT)
    assert tied.result().scores == (2.0, 2.0)
    assert tied.result().ranks == (1, 2)
    more = position(
        [".11..", ".....", ".....", ".....", "....S"],
        {0: (0, 0), 1: (4, 4)},
        out_dogs=(1,),
        flocks={1: [C.SHEEP3]},
    )
    step(more, RIGHT)
    step(more, RIGHT)
    assert more.result().ranks == (2, 1)


def test_out_in_the_same_turn_is_a_shared_rank() -> None:
    """Rules note: "out in the same turn is a tie; still tied: shared"."""
    state = position(
        ["S1S..", ".S...", ".....", ".....", "....."],
        {0: (1, 1), 1: (0, 0), 2: (0, 2)},
        flocks={1: [C.SHEEP2], 2: [C.SHEEP2]},
    )
    step(state, UP)
    while not state.terminal:
        state.apply(state.legal_actions()[0])
    assert state.result().ranks == (1, 2, 2)


# ---------------------------------------------------------------- Double Trouble


def dt_position(rows: list[str], dogs: dict[int, tuple[int, int]], **kw: object):
    return position(rows, dogs, double_trouble=True, **kw)  # type: ignore[arg-type]


def test_double_trouble_choose_which_dog_moves_one_flock() -> None:
    """ "Each turn you move one dog and get to decide which of your two dogs gets
    moved. All cards collected by your two dogs are combined into one flock." """
    rows = ["S2...", "3....", "1....", "...11", "...1S"]
    state = dt_position(rows, {0: (0, 0), 1: (1, 1), 2: (4, 4), 3: (3, 3)})
    assert state.pending == CHOOSE_DOG and state.to_move == 0
    assert [a.dog for a in state.legal_actions()] == [0, 1]
    choose_dog(state, 1)
    assert state.pending == STEP and state.moving == 1
    step(state, LEFT)
    assert state.flocks[0] == [C.SHEEP3]
    # seat 1's turn, then seat 0 again with dog 0
    state.apply(state.legal_actions()[0])
    while state.turn_player != 0:
        state.apply(state.legal_actions()[0])
    choose_dog(state, 0)
    step(state, RIGHT)
    assert sorted(state.flocks[0]) == [C.SHEEP2, C.SHEEP3]


def test_double_trouble_a_blocked_dog_is_out_even_if_the_other_can_move() -> None:
    """ "If one of the dogs is blocked, it is eliminated for that round. Even if
    the other dog can still be moved. Lay the blocked dog flat on its position;
    the card it is on cannot be used from then on." """
    rows = ["..1S.", ".....", ".1...", "1....", "S...."]
    # dog 2 (seat 1) at (0,3) can only step left onto the 1; dog 0 takes it.
    state = dt_position(rows, {0: (1, 2), 1: (2, 2), 2: (0, 3), 3: (4, 0)}, flocks={1: [C.SHEEP5]})
    choose_dog(state, 0)
    events = steal_all(state, step(state, UP))
    assert [(d.dog, d.reason) for d in payloads(events, DogOut)] == [(2, "blocked")]
    assert state.out[2] and not state.out[3] and state.out_at[1] is None
    assert sorted(state.flocks[0]) == [C.SHEEP1, C.SHEEP5]
    assert state.to_move == 1 and state.pending == STEP and state.moving == 3


def test_double_trouble_out_dog_cell_cannot_be_entered() -> None:
    """Rules note: "In Double Trouble an out dog stays on its cell, which can no
    longer be entered." Dog 0 cannot step onto the shepherd under out dog 2."""
    rows = ["..S..", ".1...", ".....", "1...1", "S...S"]
    state = dt_position(rows, {0: (1, 2), 1: (4, 0), 2: (0, 2), 3: (4, 4)}, out_dogs=(2,))
    choose_dog(state, 0)
    assert {a.direction for a in state.legal_actions()} == {LEFT}
    # without the out dog the shepherd card would be a legal step
    free = dt_position(rows, {0: (1, 2), 1: (4, 0), 2: (2, 4), 3: (4, 4)}, out_dogs=(2,))
    choose_dog(free, 0)
    assert {a.direction for a in free.legal_actions()} == {UP, LEFT}


def test_double_trouble_own_stuck_dog_is_eliminated_at_turn_start() -> None:
    """Double Trouble: the player continues with the remaining dog; "If both dogs
    cannot continue, the player is out of the round." """
    state = dt_position(
        ["S....", ".....", "..1..", ".....", "...1S"], {0: (0, 0), 1: (2, 1), 2: (4, 4), 3: (4, 2)}
    )
    assert state.out[0] and not state.out[1]
    assert state.pending == STEP and state.moving == 1
    assert state.out_at[0] is None
    both = dt_position(
        ["S....", ".....", ".....", ".....", "...1S"],
        {0: (0, 0), 1: (2, 2), 2: (4, 4), 3: (4, 2)},
        to_move=0,
    )
    assert both.out[0] and both.out[1] and both.out_at[0] is not None
    assert both.to_move == 1 and both.bonus_player == 1


def test_a_round_end_gives_the_round_scores_and_the_running_totals() -> None:
    """ "Your score from each round is added to the next." Round 2 of 2 starts
    with totals 3 and 4; seat 0 ends it holding a wolf and two 1-sheep (2 - 1 =
    1), seat 1 a 5-sheep. round_ended carries the round's scores (1, 5) and the
    totals (4, 9); the observation's round_scores are round scores, sheep minus
    wolves, not sheep points."""
    state = position(
        ["S1.1", ".1..", "....", "...."],
        {0: (1, 1), 1: (0, 0)},
        flocks={0: [C.WOLF], 1: [C.SHEEP5]},
        rounds=2,
        round=2,
        totals=[3, 4],
    )
    events = step(state, UP)  # takes the 1 and blocks dog 1
    events += steal(state, take=False)
    events += step(state, DOWN)  # back onto the 1 it started on; then it is stuck
    assert state.terminal
    ended = payloads(events, RoundEnded)
    assert [(r.round, r.round_scores, r.totals) for r in ended] == [(2, (1, 5), (4, 9))]
    assert payloads(events, GameEnded)[0].totals == (4, 9)
    assert state.observation(0).round_scores[-1] == (1, 5)
    assert state.observation(0).totals == (4, 9)
