"""The last player's two moves cut short: "That player must make two more moves
... The round ends when those moves are completed or if the player can no
longer move." A scenario the other files lacked: the last player walks into a
dead end with their first extra move, so the round ends with one move unused,
and nothing may say a move is still to come.

Grids: 1 2 3 5 sheep, S shepherd, . empty. Dog n belongs to seat n.
"""

from __future__ import annotations

from games.sheep_showdown import cards as C
from games.sheep_showdown.events import LastPlayer, PlayerOut, RoundEnded

from .helpers import RIGHT, payloads, position, step


def test_a_last_player_stuck_after_one_extra_move_ends_the_round_with_no_moves_left() -> None:
    """Seat 1 moves first and takes the 1-sheep at (0, 1), where nothing is left
    around it: it can no longer move, so only seat 0 "can still move freely" and
    owes two more moves. Seat 0's first one takes the 1-sheep at (2, 3), which
    leaves seat 0 with no card to step on either: "the round ends ... if the
    player can no longer move", with one of the two moves never made.

    Worked out from the rules: each flock holds one 1-sheep, so both score 1;
    seat 1 went out in turn 1, seat 0 in turn 3, and "in the case of a tie, the
    player who survived the longest in the meadow wins" (quick game: one round),
    so seat 0 ranks 1st and seat 1 2nd. The round is over, so no extra move is
    left to anybody."""
    rows = [".1...", ".....", "...1.", ".....", "....."]
    state = position(rows, {0: (2, 2), 1: (0, 0)}, to_move=1)
    events = step(state, RIGHT)
    assert payloads(events, PlayerOut) == [PlayerOut(1, 1)]
    assert payloads(events, LastPlayer) == [LastPlayer(0, 2)]
    assert state.observation(None).last_steps_left == 2

    events = step(state, RIGHT)
    assert payloads(events, PlayerOut) == [PlayerOut(0, 3)]
    assert len(payloads(events, RoundEnded)) == 1
    assert state.terminal
    seen = state.observation(None)
    assert seen.players_in == (False, False)
    assert seen.last_steps_left == 0
    assert state.flocks == [[C.SHEEP1], [C.SHEEP1]]
    result = state.result()
    assert result.scores == (1.0, 1.0)
    assert result.ranks == (1, 2)
