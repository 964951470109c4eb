"""The answered decisions' counter and histograms, tallied in plain numbers on
the event loop (server/metrics.py, `_LoopTally`), read as prometheus_client's
own counter and histograms read: the same samples for the same observations,
a value on a bucket's bound counted in that bucket."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from server.metrics import DECISION_BUCKETS, ServerMetrics

FAMILIES = (
    "sheepfold_decisions_answered",
    "sheepfold_decision_round_trip_seconds",
    "sheepfold_bot_think_seconds",
)
# Bounds themselves, values between them, past the last, and no round trip.
ANSWERS: list[tuple[float, float | None]] = [
    (0.0, 0.0),
    (0.0005, 0.0005),
    (0.00050001, None),
    (0.001, 0.0009),
    (0.3, 0.26),
    (10.0, 10.0),
    (30.0, 31.5),
    (45.0, None),
]


def _samples(registry: CollectorRegistry) -> dict[tuple[str, str, str], float]:
    text = generate_latest(registry).decode()
    return {
        (sample.name, sample.labels.get("game", ""), sample.labels.get("le", "")): sample.value
        for family in text_string_to_metric_families(text)
        if family.name in FAMILIES
        for sample in family.samples
        if not sample.name.endswith("_created")
    }


def _reference() -> dict[tuple[str, str, str], float]:
    registry = CollectorRegistry()
    answered = Counter("sheepfold_decisions_answered", "answered", ["game"], registry=registry)
    round_trip = Histogram(
        "sheepfold_decision_round_trip_seconds",
        "round trip",
        ["game"],
        buckets=DECISION_BUCKETS,
        registry=registry,
    )
    think = Histogram(
        "sheepfold_bot_think_seconds",
        "think",
        ["game"],
        buckets=DECISION_BUCKETS,
        registry=registry,
    )
    for game in ("sheep-n-sheep", "stubborn-sheep"):
        answered.labels(game)
        round_trip.labels(game)
        think.labels(game)
    for think_seconds, round_trip_seconds in ANSWERS:
        answered.labels("sheep-n-sheep").inc()
        think.labels("sheep-n-sheep").observe(think_seconds)
        if round_trip_seconds is not None:
            round_trip.labels("sheep-n-sheep").observe(round_trip_seconds)
    return _samples(registry)


def test_answered_decisions_read_as_prometheus_clients_own_counter_and_histograms() -> None:
    metrics = ServerMetrics()
    played = metrics.for_game("sheep-n-sheep")
    metrics.for_game("stubborn-sheep")  # no decision yet: its series at 0
    for think_seconds, round_trip_seconds in ANSWERS:
        played.decision_answered(think_seconds, round_trip_seconds)
    ours = _samples(metrics.registry)
    assert ours == _reference()
    assert ours[("sheepfold_decisions_answered_total", "sheep-n-sheep", "")] == len(ANSWERS)
    assert ours[("sheepfold_bot_think_seconds_bucket", "sheep-n-sheep", "0.0005")] == 2
    assert ours[("sheepfold_decision_round_trip_seconds_count", "stubborn-sheep", "")] == 0
