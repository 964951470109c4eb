"""A match's clock and the bounds on it: apart from server.records so that the
command line checks a clock flag without loading protobuf."""

from __future__ import annotations

from dataclasses import dataclass

# What a match's clock may be set to. Below a millisecond no bot could answer
# over a network; more than an hour (a day for the bank) is a mistake.
MIN_DECISION_SECONDS = 0.001
MAX_DECISION_SECONDS = 3600.0
MAX_TIME_BANK_SECONDS = 86_400.0
# Missed deadlines before a seat is disqualified: a thousand misses is no bot
# anyone waits for, and with no bound a match of 2**31 strikes never ended.
MAX_STRIKES = 1000


@dataclass(frozen=True, slots=True)
class ClockConfig:
    """Per-match clock: a deadline per decision, an optional bank, strikes to DQ."""

    decision_seconds: float = 10.0
    time_bank_seconds: float = 0.0
    max_strikes: int = 3
