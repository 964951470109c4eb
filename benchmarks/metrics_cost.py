"""What the metrics add to one decision, timed in-process.

The end-to-end comparison (server with metrics off and on) is only as steady as
the machine; this times the calls a match makes per answered decision (one
counter, two histogram observations) on their own, to set beside the server's
CPU per decision.
"""

from __future__ import annotations

import time

from server.metrics import ServerMetrics


def per_decision_seconds(calls: int = 100_000) -> float:
    metrics = ServerMetrics().for_game("sheep-n-sheep")
    started = time.process_time()
    for _ in range(calls):
        metrics.decision_answered(0.01, 0.005)
    return (time.process_time() - started) / calls
