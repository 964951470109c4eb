"""Ends what is left of a Ray instance a run started, and removes its folder.

`python ray_reaper.py FOLDER` (standard library only, started by the run's
driver, its stdin a pipe from the driver) waits until that pipe closes: the
driver ended, however (a SIGKILL too). Then every process of this user that has
a file in FOLDER open or names it in its command line is killed (the instance's
session folder is in FOLDER, which is new and the run's alone: only Ray's
processes of this instance do), and FOLDER is removed. The kernel ends Ray's GCS
and raylet with the driver, and its workers follow within seconds, but its two
agents waited a minute for the dead GCS before they ended, and its session
folder stayed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time

__all__ = ["reap"]

# A second look: a process started while the first was being killed.
PASSES = 2
PAUSE_SECONDS = 0.2


def reap(folder: str, spare: int | None = None) -> list[int]:
    """Kill this user's processes (but this one and `spare`, the run's driver,
    which has Ray's log files open too) that name `folder` or have a file in it
    open, then remove it; returns the processes killed."""
    folder = os.path.abspath(folder)
    killed: list[int] = []
    for attempt in range(PASSES):
        if attempt:
            time.sleep(PAUSE_SECONDS)
        for pid in _naming(folder, {os.getpid(), spare}):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # ended meanwhile
                continue
            killed.append(pid)
        if not killed:
            break
    shutil.rmtree(folder, ignore_errors=True)
    return killed


def _naming(folder: str, spare: set[int | None]) -> list[int]:
    """This user's processes (but those in `spare`) with a file in `folder` open
    (Ray's processes write their output to log files there) or whose command
    line names it (Ray renames its agents' and workers': "ray::DashboardAgent")."""
    found: list[int] = []
    uid = os.getuid()
    inside = folder.rstrip("/") + "/"
    try:
        entries = list(os.scandir("/proc"))
    except OSError:  # no /proc (not Linux): the folder alone is removed
        return found
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) in spare:
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            with open(os.path.join(entry.path, "cmdline"), "rb") as cmdline:
                named = os.fsencode(folder) in cmdline.read()
            if named or _has_open(entry.path, inside):
                found.append(int(entry.name))
        except OSError:  # ended meanwhile
            continue
    return found


def _has_open(process: str, inside: str) -> bool:
    """Whether the process at /proc/`process` has a file under `inside` open."""
    descriptors = os.path.join(process, "fd")
    for descriptor in os.listdir(descriptors):
        with contextlib.suppress(OSError):
            if os.readlink(os.path.join(descriptors, descriptor)).startswith(inside):
                return True
    return False


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: ray_reaper.py FOLDER (stdin: a pipe from the run)", file=sys.stderr)
        return 2
    # Ctrl-C reaches the terminal's whole process group: this one waits for its run.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    driver = os.getppid()
    while sys.stdin.buffer.read(4096):
        pass
    reap(argv[1], spare=driver)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
