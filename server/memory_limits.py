"""Memory limits set on the process (`ulimit -v`, `ulimit -d`): a server under
one too small for it cannot start its threads."""

from __future__ import annotations

import resource

__all__ = ["MIN_MEMORY_LIMIT", "memory_limit_too_low"]

# A server here reserves about 170 MB of address space (VmSize) while it serves
# matches, 130 MB of it data (VmData): mostly its threads' stacks (gRPC's, the
# database's, the log's) and the libraries it loads. Under 160 MB its threads
# failed to start in turn; this leaves room for a machine with more cores, where
# gRPC starts more threads.
MIN_MEMORY_LIMIT = 256 * 1024 * 1024

_LIMITS = (
    ("address space", resource.RLIMIT_AS, "ulimit -v, systemd's LimitAS"),
    ("data segment", resource.RLIMIT_DATA, "ulimit -d, systemd's LimitDATA"),
)


def memory_limit_too_low() -> str | None:
    """A sentence naming the process's memory limit below `MIN_MEMORY_LIMIT`,
    or None when each is above it or unlimited."""
    for name, which, where in _LIMITS:
        soft = resource.getrlimit(which)[0]
        if soft != resource.RLIM_INFINITY and soft < MIN_MEMORY_LIMIT:
            return (
                f"the {name} limit is {soft // 2**20} MiB ({where}), too low to serve: "
                f"the server's threads and libraries alone take about 170 MiB of it; "
                f"raise it to {MIN_MEMORY_LIMIT // 2**20} MiB or more, or leave it unlimited "
                f"(a container's memory limit bounds the memory it uses instead)"
            )
    return None
