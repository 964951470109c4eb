"""The blocks an SPRT counts stop at its game limit.

`max_games` is the most games the test may rest on (docs/tournament.md: "stop
undecided after this many games, in whole blocks"); a block stored past it,
played by hand or under another limit, is no evidence the test may use: its
verdict, Elo and game count are those of the first `limit` blocks.
"""

from __future__ import annotations

from pathlib import Path

from tests.tournament.stored_records import two_seat_record
from tournament.config import load_config
from tournament.sprt_blocks import SprtPlan, tally


def test_a_block_stored_past_max_games_is_not_counted(tmp_path: Path) -> None:
    path = tmp_path / "sprt.toml"
    path.write_text(
        'game = "stubborn-sheep"\nplayers = 2\nseed = 5\nschedule = "sprt"\n'
        "[sprt]\nmax_games = 4\n"
        '[[bots]]\nname = "new"\nbuiltin = "random"\n[[bots]]\nname = "old"\nbuiltin = "greedy"\n'
    )
    config = load_config(path)
    assert config.sprt is not None
    plan = SprtPlan.from_config(config, config.sprt)
    assert plan.limit == 2  # 4 games, 2 a block
    stored = [
        two_seat_record(game, first_wins=game.seats[0] == "new")
        for index in range(3)
        for game in plan.block(index)
    ]
    counts, _, complete = tally(plan, stored)
    assert complete == {0, 1}
    assert counts == [0, 0, 0, 0, 2]  # two blocks, both won by new
