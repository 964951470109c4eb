"""benchmarks/message_sizes.py measures every kind of message for every case it
names, each far below gRPC's 4 MiB (one game each here)."""

from __future__ import annotations

from benchmarks.message_sizes import CASES, measure
from server.settings import MIN_MAX_MESSAGE_BYTES

KINDS = {"watch snapshot", "decision", "event", "watch event", "result", "match info", "replay"}


def test_one_game_of_each_case_gives_every_figure() -> None:
    for name, players, options in CASES:
        largest = measure(name, players, options, seconds=0.0)
        assert largest.games == 1
        assert set(largest.sizes) == KINDS, (name, players)
        assert all(0 < size < MIN_MAX_MESSAGE_BYTES for size in largest.sizes.values())
