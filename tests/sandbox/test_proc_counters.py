"""What a sandboxed bot sees of the counters in /proc that count for the whole
machine: hidden, or still stand-ins that its runtime reads as its own CPUs and
memory limit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clients.bot_limits import Limits
from clients.launch.sandbox import SANDBOX_PATH, SandboxPolicy
from tests.sandbox.sandboxed import run_in_sandbox as _run

# Each file of /proc that counts for the whole machine, read twice around work
# that moves the host's counters (CPU time, open files, memory, new files):
# those that could be read, were not empty, and changed.
HOST_COUNTERS = """
import sys, time
def read_all():
    shown = {}
    for path in sys.argv[1:]:
        try:
            with open(path, "rb") as file:
                shown[path] = file.read()
        except OSError:
            shown[path] = b""
    return shown
before = read_all()
held = [open("/dev/null") for _ in range(100)]
memory = bytearray(64 << 20)
for number in range(200):
    open(f"/tmp/file-{number}", "w").close()
until = time.monotonic() + 1.5
while time.monotonic() < until:
    pass
after = read_all()
moved = [path for path in before if before[path] and before[path] != after[path]]
if moved:
    print("moved with the host's work:", *moved, file=sys.stderr)
    sys.exit(3)
"""

HOST_WIDE = (
    "/proc/stat",
    "/proc/meminfo",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/vmstat",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/pressure/cpu",
    "/proc/pressure/memory",
    "/proc/pressure/io",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
)


def test_no_bot_reads_the_machines_moving_counters_in_proc(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A sandbox's /proc is its own, but /proc/stat, /proc/meminfo, /proc/loadavg,
    the pressure files and the like count for the whole machine: one bot spun a
    core, held memory or opened files, and another, playing at once, read the
    bits back from these counters; every bot saw how busy the host and its
    disks were. Each either cannot be read, is empty, or stays as it was while
    the bot itself works the machine (this probe, unsandboxed, sees /proc/stat
    move)."""
    outside = subprocess.run(
        [sys.executable, "-c", HOST_COUNTERS, "/proc/stat"], capture_output=True, timeout=60
    )
    assert outside.returncode == 3, outside.stderr  # the probe does notice a counter moving
    said = _run(tmp_path, sys.executable, "-c", HOST_COUNTERS, *HOST_WIDE)
    assert said == "ok", said


# Files of /proc whose counts move with what the whole machine does, but not
# with anything a bot can do there itself: each must show it nothing.
SHOWS_NOTHING = """
import sys
shown = []
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as file:
            if file.read():
                shown.append(path)
    except OSError:
        pass
if shown:
    print("shows the machine's counts:", *shown, file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_counts_the_machines_cgroups_or_its_swap(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """/proc/cgroups counts every cgroup of the machine, whatever the reader's
    cgroup namespace: a runner started as root makes a pids cgroup for each
    bot, so a bot read there how many other bots played at once (its count
    went from 1 to 2 as one started), and how many services and containers
    the host ran. /proc/swaps shows how much of the host's swap every program
    together has used. Neither is a bot's own, and no runtime needs them
    (a JVM that cannot read /proc/cgroups takes its memory from
    /proc/meminfo, which is the bot's own)."""
    said = _run(tmp_path, sys.executable, "-c", SHOWS_NOTHING, "/proc/cgroups", "/proc/swaps")
    assert said == "ok", said


# What a bot's runtime makes of the stand-ins: the CPUs it counts, the memory it
# is told of and, for libuv, the CPUs it lists.
RUNTIME_VIEW = {
    "python": (
        "import os, sys; "
        "total = next(int(line.split()[1]) for line in open('/proc/meminfo') "
        "if line.startswith('MemTotal:')); "
        "online = os.sysconf('SC_NPROCESSORS_ONLN'); "
        "print(os.cpu_count(), online, total * 1024, file=sys.stderr); "
        "sys.exit(0 if (os.cpu_count(), online, total * 1024) "
        "== (int(sys.argv[1]), int(sys.argv[1]), int(sys.argv[2])) else 3)"
    ),
    "node": (
        "const os = require('os'); const [cpus, memory] = process.argv.slice(1).map(Number); "
        "console.error(os.cpus().length, os.totalmem(), os.freemem()); "
        "process.exit(os.cpus().length === cpus && os.totalmem() === memory "
        "&& os.freemem() === memory ? 0 : 3);"
    ),
}


@pytest.mark.parametrize("runtime", sorted(RUNTIME_VIEW))
def test_runtimes_read_the_stand_ins_of_proc(
    tmp_path: Path, runtime: str, sandbox_ready: None
) -> None:
    """glibc counts the CPUs in /proc/stat where there is no /sys (its sysconf,
    which Python's os.cpu_count and a C program call), libuv lists them there
    and reads /proc/meminfo (Node's os.cpus and os.totalmem, and V8's heap
    size). Each gets the host's CPUs and the bot's own memory limit, all of it
    free. Node is one of the tools the sandbox's tests need (Makefile,
    test-sandbox)."""
    policy = SandboxPolicy(limits=Limits(memory_mb=768))
    memory = 768 * 1024 * 1024
    cpus = str(os.cpu_count())
    if runtime == "python":
        argv = [sys.executable, "-c", RUNTIME_VIEW["python"], cpus, str(memory)]
    else:
        node = shutil.which("node", path=SANDBOX_PATH)
        assert node is not None, f"no node on the sandbox's PATH ({SANDBOX_PATH})"
        argv = [node, "-e", RUNTIME_VIEW["node"], cpus, str(memory)]
    said = _run(tmp_path, *argv, policy=policy)
    assert said == "ok", said


def test_no_bot_counts_the_hosts_syncs_in_the_quota_statistics(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """/proc/sys/fs/quota holds the whole machine's quota statistics: its `syncs`
    went up by 2 each time any program of the host called sync, and its lookups
    and reads move with the quota files of every filesystem. A bot's own sync
    does nothing (the seccomp filter), so it read there only what the host
    did. The folder is an empty one in the sandbox."""
    quota = [f"/proc/sys/fs/quota/{name}" for name in ("syncs", "lookups", "reads", "writes")]
    said = _run(tmp_path, sys.executable, "-c", SHOWS_NOTHING, *quota)
    assert said == "ok", said


def test_no_bot_reads_the_hosts_disk_and_interrupt_counts_in_proc(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """/proc/fs holds each mounted filesystem's statistics for the whole machine
    (ext4's extent cache hits and misses and its free blocks group by group,
    XFS's every operation, the journal's commits), and /proc/irq/N/spurious
    each interrupt line's count: both moved while a bot slept, with what the
    host's disks and devices did (the server writing its database among it),
    as /proc/diskstats and /proc/interrupts, hidden for that, did. Both are
    empty folders in the sandbox."""
    shown = sorted(str(path) for path in Path("/proc/irq").glob("*/spurious"))
    assert shown, "no /proc/irq/N/spurious on this host"
    shown += sorted(str(path) for path in Path("/proc/fs").glob("*/*") if path.is_file())
    shown += sorted(str(path) for path in Path("/proc/fs").glob("*/*/*") if path.is_file())
    said = _run(tmp_path, sys.executable, "-c", SHOWS_NOTHING, *shown)
    assert said == "ok", said
