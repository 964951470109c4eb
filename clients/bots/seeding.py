"""Randomness for the built-in bots that depends only on (bot seed, decision).

A server sends a pending decision again after a rejoin or a restart. A bot that
drew from one long-lived generator would answer the copy differently from the
original, and a match restored after a crash would then diverge from the same
match without it. Seeding each decision from its content makes the answer a
function of what was asked.
"""

from __future__ import annotations

import hashlib
import random

from clients.sdk import DecisionView


def decision_key(decision: DecisionView) -> bytes:
    """What identifies a decision across re-sends: who decides, in which game, on
    what they see, among which actions (not the decision id or the clock, which
    a restarted server may number or fill differently)."""
    digest = hashlib.sha256()
    for part in (str(decision.seat), decision.game, decision.prompt, *decision.labels):
        digest.update(part.encode())
        digest.update(b"\0")
    if decision.observation is not None:
        digest.update(decision.observation.SerializeToString(deterministic=True))
    return digest.digest()


def decision_rng(seed: int, decision: DecisionView) -> random.Random:
    """A generator seeded by the bot's seed and the decision."""
    return random.Random(hashlib.sha256(f"{seed}:".encode() + decision_key(decision)).digest())
