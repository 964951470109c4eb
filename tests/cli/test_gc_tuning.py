"""`sheepfold serve` collects garbage cycles less often than Python's defaults:
with a hundred matches playing, the default thresholds cost about a tenth of
the CPU per decision and pauses of up to 100 ms."""

from __future__ import annotations

import gc

from cli import serve


def test_serve_raises_the_collection_thresholds() -> None:
    before = gc.get_threshold()
    try:
        assert serve.tune_garbage_collector() == serve.GC_THRESHOLDS
        assert gc.get_threshold()[0] >= 10 * 700, "young objects collected far less often"
    finally:
        gc.set_threshold(*before)
