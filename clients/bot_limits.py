"""The kernel limits a sandboxed bot runs under, with their defaults.

Every limit is per bot and per game. Most are rlimits, set inside the sandbox
by `prlimit` (util-linux) just before the bot's program starts: set any earlier
and the process limit would count processes outside the bot's own user
namespace. Output is counted by the launcher itself (rlimits do not see pipes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from games.options import brief

__all__ = [
    "CORE_BYTES",
    "DEFAULT_LIMITS",
    "LOCKED_BYTES",
    "PENDING_SIGNALS",
    "Limits",
    "LimitsError",
    "parse_limits",
    "shown",
]

MIB = 1024 * 1024
# Signals queued to a bot's processes and waiting, all of them together
# (RLIMIT_SIGPENDING): the kernel counts them per user of the host, through every
# namespace, and the runner's own allowance (about 96,000 on 24 GB) would let one
# bot take them all. A POSIX timer holds one; a signal the kernel sends, or a
# plain `kill`, is delivered past the limit.
PENDING_SIGNALS = 256
# Memory a bot may lock in RAM, all its processes each (RLIMIT_MEMLOCK): the
# kernel's default for an ordinary user before Linux 5.16.
LOCKED_BYTES = 64 * 1024
# A bot's core dump limit (RLIMIT_CORE), soft and hard. Where the host's
# kernel.core_pattern is a pipe (apport, systemd-coredump), the kernel runs
# that program as root on the host for every crash whatever the limit, but
# for a limit of exactly 1 byte; 1 byte is also too short for a core file.
# Set before the sandbox starts (the launcher's prlimit around bwrap): its
# seccomp filter refuses setting this limit, which a bot would lower to 0.
CORE_BYTES = 1


class LimitsError(ValueError):
    """A bad limit value; `key` is its name."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True, slots=True)
class Limits:
    memory_mb: int = 1024  # address space (RLIMIT_AS)
    cpu_seconds: int = 300  # CPU time of each process in one game (RLIMIT_CPU)
    processes: int = 64  # processes and threads together (RLIMIT_NPROC / pids cgroup)
    open_files: int = 256  # file descriptors (RLIMIT_NOFILE)
    output_mb: float = 10.0  # stdout + stderr, counted by the launcher
    tmp_mb: int = 64  # the private /tmp (tmpfs size; also RLIMIT_FSIZE)
    cpus: float | None = None  # cores used at once (cpu cgroup, as root); None: no cap

    @property
    def output_bytes(self) -> int:
        return int(self.output_mb * MIB)

    @property
    def charged_bytes(self) -> int:
        """All the memory a bot may hold, where a memory cgroup counts it (as root):
        its address space, plus its two tmpfs folders (/tmp and /dev/shm) full."""
        return (self.memory_mb + 2 * self.tmp_mb) * MIB

    def prlimit_args(self) -> list[str]:
        """`prlimit` options setting soft = hard, except CPU: SIGXCPU first, SIGKILL 1 s
        later; no realtime priority or raised priority at all (no core dumps
        either: CORE_BYTES, set before the sandbox starts); a
        few pending signals and no POSIX message queue, which the kernel
        counts for the runner's user on the host as a whole; 64 KB of
        memory locked in RAM."""
        memory = self.memory_mb * MIB
        return [
            f"--as={memory}:{memory}",
            f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 1}",
            f"--nproc={self.processes}:{self.processes}",
            f"--nofile={self.open_files}:{self.open_files}",
            f"--fsize={self.tmp_mb * MIB}:{self.tmp_mb * MIB}",
            # No realtime scheduling and no priority above the default: a machine
            # that grants them to a group (audio, often) would hand them to the bot,
            # and a realtime bot spins past any `cpus` cap.
            "--rtprio=0:0",
            "--nice=0:0",
            f"--sigpending={PENDING_SIGNALS}:{PENDING_SIGNALS}",
            # POSIX message queues are counted per user of the host too, 800 KB
            # by default: one bot took them all (its user on the host, root for
            # a runner started as root, got EMFILE for every queue while it
            # played), and any share per bot, a few bots at once. None needs one.
            "--msgqueue=0:0",
            # Memory locked in RAM (mlock, SHM_LOCK of a System V segment) can
            # never be swapped out, and a segment stays locked once detached,
            # counted against no process: the runner's own allowance (8 MB
            # by default, unlimited in some containers) would be each bot's.
            # None needs more than the kernel's old default.
            f"--memlock={LOCKED_BYTES}:{LOCKED_BYTES}",
        ]


DEFAULT_LIMITS = Limits()
_BOUNDS: dict[str, tuple[float, float]] = {
    "memory_mb": (64, 1024 * 1024),
    "cpu_seconds": (1, 7 * 24 * 3600),
    "processes": (4, 100_000),
    "open_files": (16, 1_048_576),
    "output_mb": (0.01, 100_000),
    "tmp_mb": (1, 1024 * 1024),
    "cpus": (0.01, 4096),
}
FRACTIONAL = ("output_mb", "cpus")
LIMIT_KEYS = tuple(field.name for field in fields(Limits))


def parse_limits(raw: Mapping[str, Any], base: Limits = DEFAULT_LIMITS) -> Limits:
    """`base` with the limits named in `raw` replaced; unknown keys and bad values raise."""
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _BOUNDS:
            raise LimitsError(key, f"unknown limit (known: {', '.join(LIMIT_KEYS)})")
        low, high = _BOUNDS[key]
        whole = key not in FRACTIONAL
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LimitsError(key, f"must be a number, not {brief(value)}")
        if whole and not float(value).is_integer():
            raise LimitsError(key, f"must be a whole number, not {brief(value)}")
        if not low <= value <= high:
            raise LimitsError(
                key, f"must be between {shown(low)} and {shown(high)}, not {brief(value)}"
            )
        changes[key] = int(value) if whole else float(value)
    return replace(base, **changes)


def shown(number: float) -> str:
    """A number as an error message shows it: 2147483 as "2,147,483", not
    "2.14748e+06"; 0.001 as "0.001"."""
    return f"{int(number):,}" if float(number).is_integer() else f"{number:,}"
