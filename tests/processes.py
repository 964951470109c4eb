"""The machine's processes, read from /proc, for tests that look for leftovers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def processes() -> Iterator[tuple[int, int, bytes]]:
    """(pid, parent pid, command line) of every process still readable."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        yield int(entry), parent, cmdline
