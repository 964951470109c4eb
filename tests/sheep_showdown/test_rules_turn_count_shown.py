"""The round's turn count as the observation shows it. The tie-break ("the
player who lasted the longest in the meadow") and the safety cap (4 x cells
turns, a documented engine rule) are both counted in turns, so the count is
public: the observation's `turn` is the number of turns started this round,
`turn_cap` the cap and `out_at_turn` the turn in which each player went out.

Grid: 1 one-sheep, . empty. Dog n belongs to seat n.
"""

from __future__ import annotations

from .helpers import RIGHT, position, step


def test_the_observation_counts_the_turns_of_the_round_and_when_each_player_went_out() -> None:
    """Each dog can only walk right along its row of 1-sheep. Worked out by hand:
    seat 0 moves in turns 1, 3 and 5, seat 1 in turns 2 and 4. After turn 5 dog 0
    stands at the end of its row with nothing left to step on, and only seat 1
    "can still move freely": seat 0 is out in turn 5 and seat 1, the last player,
    makes its moves from turn 6 on. After taking the last 1-sheep of its row in
    turn 6, seat 1 cannot move in turn 7 and the round ends. Both flocks hold
    three 1-sheep (3 points each); seat 1 lasted longer (out in turn 7, seat 0 in
    turn 5), so seat 1 ranks 1st. A 5x5 grid has 25 cells: the cap is 100 turns."""
    rows = ["..111", ".....", ".....", ".....", "..111"]
    state = position(rows, {0: (0, 1), 1: (4, 1)}, to_move=0)
    seen = state.observation(None)
    assert seen.turn_cap == 100
    turns = []
    movers = []
    for _ in range(5):
        turns.append(state.observation(None).turn)
        movers.append(state.turn_player)
        step(state, RIGHT)
    assert turns == [1, 2, 3, 4, 5]
    assert movers == [0, 1, 0, 1, 0]
    seen = state.observation(1)
    assert seen.players_in == (False, True)
    assert seen.out_at_turn == (5, 0)
    assert seen.turn == 6 and seen.last_player == 1 and seen.last_steps_left == 2

    step(state, RIGHT)
    assert state.terminal
    seen = state.observation(None)
    assert seen.turn == 7
    assert seen.out_at_turn == (5, 7)
    result = state.result()
    assert result.scores == (3.0, 3.0)
    assert result.ranks == (2, 1)
