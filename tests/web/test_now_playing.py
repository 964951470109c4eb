"""A tournament's "Now playing" as the viewer reads and words it: only while
its runner is at work (a killed runner's rows are stale), and a link only for
a game the viewer's own game server hosts."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from tournament.schedule import make_schedule
from tournament.store import InPlay, Store
from web import reports
from web.now_playing import now_playing_html


def _playing(db: Path) -> tuple[str, tuple[InPlay, ...]]:
    async def run(function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    report = asyncio.run(reports.ReportCache(run).get(0, db, "cup"))
    return report.state.word, report.playing


def test_games_in_play_are_shown_only_while_the_runner_is_at_work(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    schedule = make_schedule(["a", "b"], 2, 2, 1)
    game = InPlay(schedule[0].key, "m1", tuple(schedule[0].seats), "", time.time())
    with Store(db) as store:
        tid = store.open_tournament("cup", "sheep-showdown", 2, {}, None, len(schedule), {})
        store.start_run(tid, "run", time.time())
        store.game_in_play(tid, game)
    assert _playing(db) == ("running", (game,))
    # Killed (SIGKILL): its heartbeat grows old and its row stays, unshown.
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.execute("UPDATE runners SET beat_at = beat_at - 3600")
    assert _playing(db) == ("stopped", ())


def test_only_a_game_the_viewers_server_hosts_is_linked() -> None:
    here = InPlay("g1", "m/1", ("a", "b"), "", 1.0)
    away = InPlay("g2", "m2", ("b", "a"), "", 1.0)
    ray = InPlay("g3", "m3", ("<x>", "a"), "host (node 1a2b)", 1.0)
    gone = InPlay("g4", "m4", ("a", "b"), "", 1.0)  # its server restarted without a database
    section = now_playing_html(
        (here, away, ray, gone), {"m/1": "here", "m2": "elsewhere", "m4": "gone"}
    )
    assert '<a class="live-link" href="/match/m%2F1">m/1</a>' in section
    assert 'm2 <span class="muted">(not on this viewer\'s game server)</span>' in section
    assert "(on Ray: host (node 1a2b))" in section
    assert (
        '>&lt;x&gt;</span>,</span> <span class="seat"><span class="name" title="a">a</span>'
        in section
    )
    assert section.count("<a ") == 1
    assert "m4" not in section and "g4" not in section
    assert now_playing_html((gone,), {"m4": "gone"}) == ""
    assert now_playing_html((), {}) == ""
