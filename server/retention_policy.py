"""Which finished matches a server keeps: apart from server.retention, which
prunes the rest (asyncio, logging), so the command line reads the flags alone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Retention:
    """Finished (and aborted) matches kept: younger than `days` and among the
    newest `count`; None keeps them all. Checked at start and every `every` s."""

    days: float | None = None
    count: int | None = None
    every: float = 600.0

    @property
    def keeps_all(self) -> bool:
        return self.days is None and self.count is None
