"""Whether a sandboxed bot's program ran past its CPU limit, read from the host's
/proc while it runs.

The kernel sends a program SIGXCPU at its `cpu_seconds` (RLIMIT_CPU soft) and
SIGKILL one CPU second later (the hard limit). A program that ignores or catches
SIGXCPU (Go does by default) dies of that SIGKILL, whose exit status says
nothing of why: the OOM killer and a `kill -9` end a program the same way. Its
CPU time, read while it still runs, does: one that had used its `cpu_seconds`
had been sent SIGXCPU, and its SIGKILL is the CPU limit's. Every process of the
sandbox is read, not only the one the command started: a script that starts
the bot and waits for it (a `run.sh` without `exec`) exits 128 + 9 for the
bot's SIGKILL, and its own CPU time says nothing. They are found through each
process's /proc/PID/task/TID/children, or, on a kernel built without
CONFIG_PROC_CHILDREN (which has no such files), through every process's
/proc/PID/stat, which names its parent.
"""

from __future__ import annotations

import asyncio
import functools
import os

__all__ = ["CpuWatch", "cpu_seconds_used"]

POLL_SECONDS = 0.25
# Readings closer together than this are not taken, however fast it spends CPU.
SHORTEST_SECONDS = 0.01
TICKS = os.sysconf("SC_CLK_TCK")


@functools.cache
def kernel_lists_children() -> bool:
    """Whether this kernel has /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)."""
    pid = os.getpid()
    return os.path.exists(f"/proc/{pid}/task/{pid}/children")


def _descendants(pid: int) -> list[int]:
    """The processes under `pid` now, children of any of their threads (a
    program may start one from any thread); those gone meanwhile left out."""
    found: list[int] = []
    parents = [pid]
    while parents:
        parent = parents.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{parent}/task/{thread}/children", encoding="ascii") as file:
                    children = [int(child) for child in file.read().split()]
            except OSError:
                continue
            found += children
            parents += children
    return found


def _descendants_by_parent(pid: int) -> list[int]:
    """`_descendants` without the children files: every process's parent read
    from its stat (a child of any thread names its process), one file a process
    on the machine (about 10 us each)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields is not None and fields[1].isdigit():
                children.setdefault(int(fields[1]), []).append(int(name))
    found: list[int] = []
    parents = [pid]
    while parents:
        # Popped: a parent is looked at once, whatever a reused pid says.
        below = children.pop(parents.pop(), [])
        found += below
        parents += below
    return found


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the name (state first, then the
    parent's pid); None once the process is gone."""
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    except OSError:
        return None
    try:
        stat = os.read(fd, 4096).decode("ascii", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)
    # After the name, which may hold spaces and parentheses.
    return stat[stat.rfind(")") + 2 :].split()


def cpu_seconds_used(pid: int) -> tuple[float, int] | None:
    """The CPU time (user and system, all its threads) the process `pid` has
    used, with its start time (which tells a process from a later one given the
    same pid); None once it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    try:
        user, system, started = int(fields[11]), int(fields[12]), int(fields[19])
    except (IndexError, ValueError):
        return None
    return (user + system) / TICKS, started


class CpuWatch:
    """Reads the CPU time of each process under `chain`, the launcher's child,
    until one has used `limit` seconds (`passed_limit`), the chain has ended,
    or the watch is cancelled: the sandbox's processes, the bot's among them,
    and those of its start-up (unshare, mount, bwrap), which never come near a
    limit. Readings are POLL_SECONDS apart, closer when one is about to reach
    its limit: a program spending CPU on several cores at once goes from its
    soft limit to its hard one in a fraction of a second."""

    def __init__(self, chain: int, limit: float, children_files: bool | None = None) -> None:
        """`children_files`: find the chain's processes through /proc's children
        files (True) or through each process's parent (False); None: the files
        wherever this kernel has them."""
        self.chain = chain
        self.limit = limit
        self._children_files = kernel_lists_children() if children_files is None else children_files
        self.used = 0.0  # the most CPU time one process was read to have used
        self._started: int | None = None  # the chain's start time

    @property
    def passed_limit(self) -> bool:
        return self.used >= self.limit

    def read(self) -> bool:
        """One reading; False once the chain is gone."""
        chain = cpu_seconds_used(self.chain)
        if chain is None or self._started not in (None, chain[1]):
            return False
        self._started = chain[1]
        found = _descendants if self._children_files else _descendants_by_parent
        for pid in found(self.chain):
            process = cpu_seconds_used(pid)
            if process is not None:
                self.used = max(self.used, process[0])
        return True

    async def run(self) -> None:
        # Every core online, not the runner's affinity: a bot may widen its own.
        cores = os.cpu_count() or 1
        loop = asyncio.get_running_loop()
        last: tuple[float, float] | None = None  # wall time and CPU time read
        wait = 0.0
        while True:
            # No process reaches `limit` sooner than on every core it may use:
            # one far from it is read seldom (each reading walks the sandbox).
            soonest = (self.limit - self.used) / cores - POLL_SECONDS
            await asyncio.sleep(max(SHORTEST_SECONDS, wait, soonest))
            if not self.read() or self.passed_limit:
                return
            now = loop.time()
            wait = POLL_SECONDS
            if last is not None and now > last[0] and self.used > last[1]:
                rate = (self.used - last[1]) / (now - last[0])
                # Aim at the middle of the second between its two limits.
                wait = min(POLL_SECONDS, (self.limit + 0.5 - self.used) / rate)
            last = now, self.used
