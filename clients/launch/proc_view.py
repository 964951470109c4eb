"""What a sandbox shows of /proc: the kernel's settings read-only, the files
that would show the host's key store or every task hidden, and the counters
that count for the whole machine hidden or shown as still stand-ins
(clients/launch/sandbox.py binds them so)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Files of the sandbox's own /proc that are the host's kernel settings. A runner
# started as root runs its bots as root (mapped to the host's root, with no
# capabilities), and file permissions alone let root write these: the host's
# core_pattern, for one, names a program the kernel runs as root. bwrap makes
# /proc/irq and /proc/bus read-only itself, but not these.
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/mtrr")


# Files of the sandbox's own /proc that list the kernel's key store, which belongs
# to no namespace: /proc/keys showed a bot every key of the host user it runs as
# (the host's root, for a runner started as root), with its serial, owner and
# description (a Kerberos ticket cache names its principal), and /proc/key-users
# how many keys every user of the machine holds. The seccomp filter refuses the
# key store's calls, not the reading of these files. And /proc/sched_debug,
# which kernels before 5.13 built with CONFIG_SCHED_DEBUG (as most
# distributions' are) let anyone read: every task of the machine, with its
# name, its pid on the host and its cgroup's path, the host's process list
# past the sandbox's own PID namespace (other bots' programs, the runner, every
# container's). Later kernels moved it to debugfs. Hidden under /dev/null,
# which the sandbox's /proc (mounted nodev) refuses to open.
PROC_HIDDEN = ("/proc/keys", "/proc/key-users", "/proc/sched_debug")


# Files of the sandbox's own /proc that count for the whole machine, moving with
# what every program on it does: another bot's CPU time in /proc/stat's
# counters, its memory in /proc/meminfo, its open files in file-nr, its files
# in dentry-state. One bot modulated them and another, playing at once, read
# the bits back; and they showed every bot how busy the host and its disks
# were. And /proc/cgroups, which counts every cgroup of the machine whatever
# the reader's cgroup namespace: as root the runner makes a cgroup for each
# bot, and a bot read there how many others played at once; /proc/swaps, the
# swap every program together has used. No runtime reads these (those it
# does read get stand-ins, PROC_STAND_INS; a JVM that cannot read
# /proc/cgroups sizes itself by /proc/meminfo): hidden under /dev/null, as
# PROC_HIDDEN are.
PROC_HOST_COUNTERS = (
    "/proc/cgroups",
    "/proc/swaps",
    "/proc/vmstat",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/schedstat",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/fs/aio-nr",
    "/proc/sys/kernel/pty/nr",
)
# ... and folders of them, each under an empty read-only tmpfs: the machine's
# pressure stall counts (CPU, memory, I/O), and its quota statistics, whose
# `syncs` went up each time any program of the host called sync (a bot's own
# sync does nothing: clients/launch/seccomp_calls.py); each filesystem's
# statistics (/proc/fs: ext4's extent cache hits and free blocks by group, XFS's
# operations, the journal's commits) and each interrupt line's count
# (/proc/irq/N/spurious), which moved with what the host's disks and devices
# did, as /proc/diskstats and /proc/interrupts do. No runtime reads them.
PROC_HOST_FOLDERS = ("/proc/pressure", "/proc/sys/fs/quota", "/proc/fs", "/proc/irq")

# Files of /proc that runtimes read, each shown as a still stand-in of the same
# format (as LXCFS does for containers) instead of the host's moving counters:
# glibc counts the CPUs in /proc/stat where /sys is missing (Python's
# os.cpu_count, a C program's sysconf), libuv reads its CPU times,
# /proc/meminfo's MemTotal (Node's os.cpus, os.totalmem, and V8's heap size)
# and /proc/loadavg (Node's os.loadavg). See proc_stand_ins. (glibc's
# getloadavg, Python's os.getloadavg, asks the kernel by sysinfo instead:
# docs/operations.md, "What is not contained".)
PROC_STAND_INS = ("/proc/stat", "/proc/meminfo", "/proc/loadavg", "/proc/uptime")
# The fields of the stand-in /proc/meminfo that say 0, after its total, free and
# available memory: the ones programs that parse it look for.
MEMINFO_ZEROS = (
    *("Buffers", "Cached", "SwapCached", "Active", "Inactive", "SwapTotal", "SwapFree"),
    *("Dirty", "Writeback", "AnonPages", "Mapped", "Shmem", "Slab", "CommitLimit"),
)


def hidden_proc_files(proc: str = "/proc") -> list[str]:
    """The files of `proc` each sandbox hides under /dev/null: those of
    PROC_HIDDEN and PROC_HOST_COUNTERS this kernel has, and root_only_proc_files."""
    named = [os.path.join(proc, path.removeprefix("/proc/")) for path in PROC_HIDDEN]
    named += [os.path.join(proc, path.removeprefix("/proc/")) for path in PROC_HOST_COUNTERS]
    return sorted({*filter(os.path.exists, named), *root_only_proc_files(proc)})


def proc_stand_ins(memory_bytes: int, proc: str = "/proc") -> dict[str, str]:
    """What the sandbox's PROC_STAND_INS say, by their paths: the host's CPUs
    (the same cpuN lines, so that whatever counts them counts as many) with
    every counter 0, and its boot time; memory of `memory_bytes` (the bot's
    limit, or the host's own memory where less), all of it free, and no swap;
    a load of 0; and the host's uptime as the sandbox starts, with no idle
    time. None of them moves while the bot runs."""
    host_stat = _read(os.path.join(proc, "stat"))
    cpus = [line.split()[0] for line in host_stat if line.startswith("cpu") and line[3:4].isdigit()]
    btime = next((line.split()[1] for line in host_stat if line.startswith("btime ")), "0")
    stat_lines = [f"{cpu:<4} {' '.join(['0'] * 10)}" for cpu in ["cpu", *(cpus or ["cpu0"])]]
    stat_lines += ["intr 0", "ctxt 0", f"btime {btime}", "processes 1", "procs_running 1"]
    stat_lines += ["procs_blocked 0", f"softirq {' '.join(['0'] * 11)}"]
    host_memory = _read(os.path.join(proc, "meminfo"))
    total_kb = memory_bytes // 1024
    for line in host_memory:
        words = line.split()
        if words[:1] == ["MemTotal:"] and len(words) > 1 and words[1].isdigit():
            total_kb = min(total_kb, int(words[1]))
    huge = [line.split()[1:2] for line in host_memory if line.startswith("Hugepagesize:")]
    huge_kb = huge[0][0] if huge and huge[0] else ""
    memory = {"MemTotal": total_kb, "MemFree": total_kb, "MemAvailable": total_kb}
    memory_lines = [f"{name + ':':<16}{kb:>8} kB" for name, kb in memory.items()]
    memory_lines += [f"{name + ':':<16}{0:>8} kB" for name in MEMINFO_ZEROS]
    if huge_kb.isdigit():
        memory_lines.append(f"{'Hugepagesize:':<16}{huge_kb:>8} kB")
    uptime = _read(os.path.join(proc, "uptime"))
    up = uptime[0].split()[0] if uptime and uptime[0].split() else "0.00"
    return {
        "/proc/stat": "\n".join(stat_lines) + "\n",
        "/proc/meminfo": "\n".join(memory_lines) + "\n",
        "/proc/loadavg": "0.00 0.00 0.00 1/1 1\n",
        "/proc/uptime": f"{up} 0.00\n",
    }


def _read(path: str) -> list[str]:
    """The lines of a host file of /proc, none where it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read().splitlines()
    except OSError:
        return []


def root_only_proc_files(proc: str = "/proc") -> list[str]:
    """The files at the top of `proc` that only root may read (mode 0400), to hide
    as PROC_HIDDEN are: each shows the whole machine, and a bot run as root (the
    host's root, without capabilities) read them all. kpageflags, kpagecount and
    kpagecgroup give the state of every physical page of the host, timer_list
    every timer, slabinfo and vmallocinfo the kernel's allocations: a side
    channel on every other program. An ordinary user's bot cannot open them."""
    found = []
    try:
        entries = list(os.scandir(proc))
    except OSError:
        return []
    for entry in entries:
        if entry.name.isdigit():
            continue
        try:
            mode = entry.stat(follow_symlinks=False).st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) and stat.S_IMODE(mode) & 0o444 == 0o400:
            found.append(entry.path)
    return sorted(found)


def proc_read_only_binds(mountinfo: str = "/proc/self/mountinfo") -> list[str]:
    """The host paths to bind read-only over the sandbox's /proc: PROC_READ_ONLY,
    around any filesystem the host mounts inside them. A bind takes the mounts
    under it along, and systemd mounts binfmt_misc under /proc/sys as an
    automount, which a read-only bind would try to mount or fail on; the
    sandbox keeps its own (empty) directory there instead."""
    try:
        with open(mountinfo, encoding="utf-8") as file:
            mounts = {Path(line.split()[4]) for line in file if len(line.split()) > 4}
    except OSError:
        mounts = set()
    binds = []
    for top in map(Path, PROC_READ_ONLY):
        below = {mount for mount in mounts if mount != top and mount.is_relative_to(top)}
        binds += _around(top, below)
    return binds


def _around(path: Path, mounts: set[Path]) -> list[str]:
    """`path`, or the entries in it that hold none of `mounts`, recursively."""
    if path in mounts:
        return []
    if not any(mount.is_relative_to(path) for mount in mounts):
        return [str(path)]
    try:
        entries = sorted(path.iterdir())
    except OSError:
        return []
    return [bind for entry in entries for bind in _around(entry, mounts)]
