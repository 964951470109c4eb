"""One malloc arena for the server's threads, where the C library is glibc."""

from __future__ import annotations

import ctypes
import os

__all__ = ["ARENAS", "limit_malloc_arenas"]

ARENAS = 1
_M_ARENA_MAX = -8  # glibc's mallopt parameter for the number of arenas


def limit_malloc_arenas() -> bool:
    """Let the threads that start from now on allocate from `ARENAS` malloc
    arena, unless $MALLOC_ARENA_MAX says otherwise; whether it was set.

    glibc gives each thread an arena of its own, up to eight per core, and
    memory freed in one arena serves only that arena's threads. gRPC's threads
    take turns with a burst of calls: each burst of 30,000 queued calls (about
    430 MB) left its memory in another arena, and six bursts grew the server by
    1.2 GB. With one arena the next burst reuses the first one's memory."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):  # not glibc
        return False
    return bool(mallopt(_M_ARENA_MAX, ARENAS))
