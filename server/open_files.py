"""The open file limit: every client connection is a file descriptor."""

from __future__ import annotations

import contextlib
import resource

__all__ = ["raise_open_file_limit"]


def raise_open_file_limit() -> int:
    """Raise the soft limit to the hard one, and return it. A server left at a
    soft limit of 1024 stops accepting anyone's connections once one client has
    opened about a thousand."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
