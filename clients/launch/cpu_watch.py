"""Whether a sandboxed bot's program ran past its CPU limit, read from the host's
/proc while it runs.

The kernel sends a program SIGXCPU at its `cpu_seconds` (RLIMIT_CPU soft) and
SIGKILL one CPU second later (the hard limit). A program that ignores or catches
SIGXCPU (Go does by default) dies of that SIGKILL, whose exit status says
nothing of why: the OOM killer and a `kill -9` end a program the same way. Its
CPU time, read while it still runs, does: one that had used its `cpu_seconds`
had been sent SIGXCPU, and its SIGKILL is the CPU limit's.
"""

from __future__ import annotations

import asyncio
import os

__all__ = ["CpuWatch", "cpu_seconds_used"]

# The bot's program among the launcher's child's descendants, each the first
# child of the one before: unshare (in_own_namespaces), bwrap, bwrap's pid 1 of
# the sandbox, then the program prlimit became.
BOT_DEPTH = 3
POLL_SECONDS = 0.25
# Readings closer together than this are not taken, however fast it spends CPU.
SHORTEST_SECONDS = 0.01
TICKS = os.sysconf("SC_CLK_TCK")


def _first_child(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as file:
            children = file.read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def cpu_seconds_used(pid: int) -> tuple[float, int] | None:
    """The CPU time (user and system, all its threads) the process `pid` has
    used, with its start time (which tells a process from a later one given the
    same pid); None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            stat = file.read()
    except OSError:
        return None
    # After the name, which may hold spaces and parentheses: state is field 3.
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        user, system, started = int(fields[11]), int(fields[12]), int(fields[19])
    except (IndexError, ValueError):
        return None
    return (user + system) / TICKS, started


class CpuWatch:
    """Reads the CPU time of the bot's program under `chain`, the launcher's
    child, until it has used `limit` seconds (`passed_limit`) or the watch is
    cancelled. Readings are POLL_SECONDS apart, closer when the program is about
    to reach its limit: a program spending CPU on several cores at once goes
    from its soft limit to its hard one in a fraction of a second."""

    def __init__(self, chain: int, limit: float) -> None:
        self.chain = chain
        self.limit = limit
        self.used = 0.0  # the most CPU time read
        self._bot: tuple[int, int] | None = None  # its pid and start time

    @property
    def passed_limit(self) -> bool:
        return self.used >= self.limit

    def _find_bot(self) -> int | None:
        pid: int | None = self.chain
        for _ in range(BOT_DEPTH):
            if pid is None:
                return None
            pid = _first_child(pid)
        return pid

    def read(self) -> bool:
        """One reading; False once the program is gone."""
        if self._bot is None:
            pid = self._find_bot()
            reading = cpu_seconds_used(pid) if pid is not None else None
            if pid is None or reading is None:
                return True  # not started yet
            self._bot = pid, reading[1]
        else:
            pid = self._bot[0]
            reading = cpu_seconds_used(pid)
            if reading is None or reading[1] != self._bot[1]:
                return False
        self.used = max(self.used, reading[0])
        return True

    async def run(self) -> None:
        # Nothing to read before it can have used `limit` on every core it may use.
        await asyncio.sleep(max(0.0, self.limit / len(os.sched_getaffinity(0)) - POLL_SECONDS))
        loop = asyncio.get_running_loop()
        last: tuple[float, float] | None = None  # wall time and CPU time read
        while self.read() and not self.passed_limit:
            now = loop.time()
            wait = POLL_SECONDS
            if last is not None and now > last[0] and self.used > last[1]:
                rate = (self.used - last[1]) / (now - last[0])
                # Aim at the middle of the second between its two limits.
                wait = min(POLL_SECONDS, (self.limit + 0.5 - self.used) / rate)
            last = now, self.used
            await asyncio.sleep(max(SHORTEST_SECONDS, wait))
