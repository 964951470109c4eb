"""`sheepfold match` prints a match id, and `replay --help` said match ids come
from `match`; but `match` on its own in-process server keeps no record, so the
newcomer's next step, `sheepfold replay ID`, answered only "no database at
sheepfold.db". The help and the answer now say where records are kept."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import one_line, sheepfold, sheepfold_in


def test_replay_without_a_database_says_which_commands_store_one(tmp_path: Path) -> None:
    done = sheepfold_in(tmp_path, "replay", "0123456789abcdef")
    assert done.returncode == 1
    assert one_line(done) == (
        "sheepfold replay: no database at sheepfold.db (replay reads what `sheepfold serve "
        "--db` or a tournament stores; `sheepfold match` without --server keeps no record)"
    )


def test_replay_help_does_not_promise_the_ids_match_prints_on_its_own_server() -> None:
    shown = sheepfold("replay", "--help")
    text = " ".join(shown.stdout.split())
    assert "match_id the match id (printed by create, tournament run, and match --server)" in text
