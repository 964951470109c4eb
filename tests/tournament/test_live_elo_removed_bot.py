"""LiveElo leaves out a whole game with a bot removed from the field: in a
3-player game the pairs between the two bots still in the field are not
counted either (the report leaves that game out too), and the game is no
error."""

from __future__ import annotations

from tournament.ratings import LiveElo, pairwise


def test_a_three_player_game_with_a_removed_bot_is_left_out_whole() -> None:
    live = LiveElo(["a", "b"])
    assert live.update(pairwise(["a", "b"], [1, 2])).keys() == {"a", "b"}
    before = live.refit()
    assert live.add(pairwise(["a", "gone", "b"], [2, 1, 3])) is False
    assert live.update(pairwise(["b", "gone", "a"], [1, 2, 3])) == before
