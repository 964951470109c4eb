"""A match's clock and the bounds on it: apart from server.records so that the
command line checks a clock flag without loading protobuf."""

from __future__ import annotations

import math
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


def clock_refusal(
    decision_seconds: float, time_bank_seconds: float, max_strikes: int, default_strikes: int
) -> str | None:
    """Why a match may not have this clock (a field, its value and what it may
    be), or None. "clock times are too long" once said neither which of the
    two times nor how long they may be."""
    for field, seconds in (
        ("decision_seconds", decision_seconds),
        ("time_bank_seconds", time_bank_seconds),
    ):
        if not math.isfinite(seconds):
            return f"{field} must be a finite number of seconds, not {_seconds(seconds)}"
    if decision_seconds and not MIN_DECISION_SECONDS <= decision_seconds <= MAX_DECISION_SECONDS:
        return (
            f"decision_seconds must be 0 (the server's default) or {MIN_DECISION_SECONDS:g} "
            f"to {MAX_DECISION_SECONDS:,.0f}, not {_seconds(decision_seconds)}"
        )
    if not 0 <= time_bank_seconds <= MAX_TIME_BANK_SECONDS:
        return (
            f"time_bank_seconds must be 0 (none) to {MAX_TIME_BANK_SECONDS:,.0f}, "
            f"not {_seconds(time_bank_seconds)}"
        )
    if not 0 <= max_strikes <= MAX_STRIKES:
        return (
            f"max_strikes must be 0 (the server's default, {default_strikes}) or 1 to "
            f"{MAX_STRIKES:,}, not {max_strikes:,}"
        )
    return None


def _seconds(value: float) -> str:
    """`value` as the client sent it, exactly: 3600.0000001 is not "3600", nor -1 "-1.0"."""
    text = repr(value)
    return text.removesuffix(".0")
