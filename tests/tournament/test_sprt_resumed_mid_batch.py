"""An SPRT interrupted mid-batch, after its LLR crossed a bound on the blocks
stored so far but before the batch was over: docs/tournament.md ("Resume")
promises that its looks fall where a run straight through looks, so the
resumed test plays the rest of the batch, then stops at the same block with
the same LLR and verdict as that run, and plays nothing more when run again."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest

from tests.tournament.stored_records import two_seat_record
from tests.tournament.tournament_command import tournament_main
from tournament.config import load_config
from tournament.runner import open_tournament
from tournament.sprt import block_values, status
from tournament.sprt_blocks import SprtPlan, comparisons, tally
from tournament.sprt_run import EXIT_H1, SPRT_COMMAND
from tournament.store import Store

HERE = Path(__file__).resolve().parent
# "new" beats a baseline that crashes at its first decision in every game (a
# failed seat ranks last), so every block is a won pair, the same in every
# run: the LLR crosses +2.944 at the 5th block (elo1 = 400), inside the second
# batch of 4 blocks, and the run straight through stops at its look after 8.
CONFIG = (
    'game = "sheep-showdown"\nplayers = 2\nschedule = "sprt"\nconcurrency = 4\n'
    f'python_path = ["{HERE}"]\n[options]\nrounds = 1\n'
    '[sprt]\ncandidate = "new"\nbaseline = "old"\nelo0 = 0\nelo1 = 400\nmax_games = 200\n'
    '[[bots]]\nname = "new"\nbuiltin = "random"\n'
    '[[bots]]\nname = "old"\nclass = "tournament_test_bots:CrashingBot"\n'
)


def _status_lines(out: str) -> list[str]:
    return re.findall(r"^SPRT new vs old .*$", out, re.MULTILINE)


def _interrupted_mid_batch(path: Path) -> None:
    """What a run interrupted (Ctrl-C) in its second batch leaves: blocks 0 to 5
    won by new and block 6's first game stored, its runner ended undecided."""
    config = load_config(path)
    assert config.sprt is not None
    plan = SprtPlan.from_config(config, config.sprt)
    games = [game for index in range(6) for game in plan.block(index)] + [plan.block(6)[0]]
    with Store(path.with_suffix(".sqlite")) as store:
        tid = open_tournament(store, config, plan.limit * 2, [list(config.bot_names)])
        store.start_run(tid, SPRT_COMMAND, time.time())
        for game in games:
            store.record_game(tid, two_seat_record(game, first_wins=game.seats[0] == "new"))
        store.beat(tid, time.time(), ended=True, decided=False)
        counts, _, complete = tally(plan, store.games(tid))
    crossed = status(counts, block_values(comparisons(2)), plan.hypotheses())
    assert complete == set(range(6)) and crossed.verdict == "H1", "the LLR crossed mid-batch"


@pytest.mark.e2e
def test_an_sprt_resumed_mid_batch_after_its_llr_crossed_stops_where_a_run_through_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    through = tmp_path / "through" / "sprt.toml"
    through.parent.mkdir()
    through.write_text(CONFIG)
    # exit 1: 'old' crashed in every game of this run, which the verdict reports
    assert tournament_main(["sprt", str(through)]) == 1
    straight = _status_lines(capsys.readouterr().out)
    assert len(straight) == 1 and "16 games (8 blocks)" in straight[0]

    resumed = tmp_path / "resumed" / "sprt.toml"
    resumed.parent.mkdir()
    resumed.write_text(CONFIG)
    _interrupted_mid_batch(resumed)
    # The rest of the batch is played (block 6's second game, block 7), then
    # the look at 8 blocks decides as the run straight through did.
    assert tournament_main(["sprt", str(resumed)]) == EXIT_H1
    out = capsys.readouterr()
    assert _status_lines(out.out) == straight
    assert "3 games played this run" in out.out and "H1 accepted" in out.out
    looks = re.findall(r"\((\d+) blocks\), Elo", out.err)
    assert looks == ["6", "8"], out.err
    with sqlite3.connect(resumed.with_suffix(".sqlite")) as raw:
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 16

    # decided now: run again, it plays nothing and gives the same verdict
    assert tournament_main(["sprt", str(resumed)]) == EXIT_H1
    out = capsys.readouterr()
    assert _status_lines(out.out) == straight and "0 games played this run" in out.out
