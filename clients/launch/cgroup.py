"""A pids cgroup per sandboxed bot, for when Sheepfold runs as root.

The kernel never enforces RLIMIT_NPROC on root's processes, even inside a
user namespace (they still belong to root on the host). So as root the
process limit is a cgroup's `pids.max` instead: one cgroup per bot and game,
made under the first writable pids hierarchy (cgroup v1 `pids` or cgroup v2),
joined by the bot before bubblewrap starts, emptied and removed after it.
An ordinary user needs none of this: its RLIMIT_NPROC, set inside the bot's
own user namespace, counts only that bot's processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

__all__ = ["PidsCgroup", "find_pids_hierarchy", "remove_stale"]

MOUNTINFO = Path("/proc/self/mountinfo")


def find_pids_hierarchy(mountinfo: Path = MOUNTINFO) -> Path | None:
    """The root folder of a writable pids cgroup hierarchy, or None."""
    try:
        lines = mountinfo.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        before, _, after = line.partition(" - ")
        fields, extra = before.split(), after.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        mount, fstype, options = Path(fields[4]), extra[0], extra[2].split(",")
        if fstype == "cgroup" and "pids" in options and os.access(mount, os.W_OK):
            return mount
        if fstype == "cgroup2" and os.access(mount, os.W_OK) and _v2_pids(mount):
            return mount
    return None


def _v2_pids(mount: Path) -> bool:
    try:
        if "pids" not in (mount / "cgroup.controllers").read_text().split():
            return False
        control = mount / "cgroup.subtree_control"
        if "pids" not in control.read_text().split():
            control.write_text("+pids")
    except OSError:
        return False
    return True


class PidsCgroup:
    """One bot's cgroup: at most `max_pids` processes and threads."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, hierarchy: Path, max_pids: int) -> PidsCgroup:
        """A new cgroup named after this process (so a later run can tell it is stale)."""
        path = hierarchy / f"sheepfold-bot-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        path.mkdir(mode=0o755)
        try:
            (path / "pids.max").write_text(str(max_pids))
        except OSError:
            path.rmdir()
            raise
        return cls(path)

    @property
    def procs(self) -> str:
        return str(self.path / "cgroup.procs")

    def refused_forks(self) -> int:
        """How often the limit refused a fork (pids.events `max`)."""
        with contextlib.suppress(OSError, ValueError):
            for line in (self.path / "pids.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        return 0

    def remove(self, timeout: float = 2.0) -> None:
        """Kill whatever is left in the cgroup and remove it."""
        deadline = time.monotonic() + timeout
        while True:
            self._kill_all()
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return  # a stuck process: leave the empty-ish cgroup behind
                time.sleep(0.02)

    def _kill_all(self) -> None:
        kill = self.path / "cgroup.kill"
        if kill.exists():
            with contextlib.suppress(OSError):
                kill.write_text("1")
            return
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)


def remove_stale(hierarchy: Path) -> None:
    """Remove bot cgroups left behind by runners that died (their pid is gone)."""
    for folder in hierarchy.glob("sheepfold-bot-*-*"):
        try:
            owner = int(folder.name.split("-")[2])
            os.kill(owner, 0)
        except ProcessLookupError:
            PidsCgroup(folder).remove(timeout=0.5)
        except (ValueError, PermissionError):
            continue
