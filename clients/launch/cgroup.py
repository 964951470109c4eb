"""A cgroup per sandboxed bot, for when Sheepfold runs as root.

The kernel never enforces RLIMIT_NPROC on root's processes, even inside a
user namespace (they still belong to root on the host). So as root the
process limit is a cgroup's `pids.max` instead: one cgroup per bot and game,
made under the first writable pids hierarchy (cgroup v1 `pids` or cgroup v2),
joined by the bot before bubblewrap starts, emptied and removed after it.

Where a memory hierarchy is writable too, the bot's cgroup also caps all the
memory charged to it. The address-space limit (RLIMIT_AS) counts only what a
process maps; files in its tmpfs folders, memfd files it never maps and
System V shared memory it detached are memory all the same, and only a
memory cgroup counts them. A bot over that cap is killed by the kernel's
out-of-memory killer, which the cgroup records (`oom_kills`). Its TCP and UDP
buffers come out of one pool for the whole machine (net.ipv4.tcp_mem), past
which no socket on the host gets more: cgroup v2 counts them as the bot's
memory, and v1 in a count of their own, capped at SOCKET_BUFFER_BYTES.

A bot given the `cpus` limit also joins a cgroup of the `cpu` controller
capping the cores it uses at once (CFS bandwidth: cgroup v2's `cpu.max`, v1's
`cpu.cfs_quota_us`), looked for only then: other bots join no cpu cgroup.

An ordinary user needs none of this for processes: its RLIMIT_NPROC, set
inside the bot's own user namespace, counts only that bot's processes. It
gets no memory cgroup either (see docs/operations.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

__all__ = [
    "SOCKET_BUFFER_BYTES",
    "BotCgroup",
    "Hierarchies",
    "find_cpu_hierarchy",
    "find_hierarchies",
    "find_pids_hierarchy",
    "remove_stale",
    "try_cpu_limit",
]

MOUNTINFO = Path("/proc/self/mountinfo")
OWN_CGROUPS = Path("/proc/self/cgroup")
PREFIX = "sheepfold-bot-"
CPU_PERIOD_US = 100_000  # the kernel's default CFS period
MIN_QUOTA_US = 1_000  # the smallest quota the kernel takes
# The TCP and UDP buffers of one bot, on cgroup v1 (memory.kmem.tcp): it reaches
# the server through a Unix socket, which this does not count. The kernel's pool
# for every socket of the machine is 9% of its memory (net.ipv4.tcp_mem), and
# v1 counts none of a bot's buffers otherwise: one bot holding loopback
# connections it never read took it whole, within its open file limit.
SOCKET_BUFFER_BYTES = 16 * 1024 * 1024


def _mounts(mountinfo: Path) -> list[tuple[Path, str, list[str]]]:
    """(mount point, file system type, super options) of every mount."""
    try:
        lines = mountinfo.read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        before, _, after = line.partition(" - ")
        fields, extra = before.split(), after.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        found.append((Path(fields[4]), extra[0], extra[2].split(",")))
    return found


def _find(
    controller: str, mountinfo: Path, own: Path = OWN_CGROUPS, v2: bool = True
) -> Path | None:
    """Where bots' cgroups for `controller` are made, or None: under Sheepfold's
    own cgroup on cgroup v1 (so a limit on its service or container covers its
    bots too), at the root of the hierarchy on v2 (where a cgroup holding
    processes may not have children with controllers). `v2`: look at cgroup v2
    too (and switch the controller on there)."""
    for mount, fstype, options in _mounts(mountinfo):
        if fstype == "cgroup" and controller in options and os.access(mount, os.W_OK):
            return _own_folder(mount, controller, own)
        if not v2:
            continue
        if fstype == "cgroup2" and os.access(mount, os.W_OK) and _v2_enable(mount, controller):
            return mount
    return None


def _own_folder(mount: Path, controller: str, own: Path) -> Path:
    """This process's cgroup folder in a v1 hierarchy when it can be written, else `mount`."""
    with contextlib.suppress(OSError):
        for line in own.read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                folder = mount / path.lstrip("/")
                if folder.is_dir() and os.access(folder, os.W_OK):
                    return folder
    return mount


def _v2_enable(mount: Path, controller: str) -> bool:
    try:
        if controller not in (mount / "cgroup.controllers").read_text().split():
            return False
        control = mount / "cgroup.subtree_control"
        if controller not in control.read_text().split():
            control.write_text(f"+{controller}")
    except OSError:
        return False
    return True


def find_pids_hierarchy(mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUPS) -> Path | None:
    """Where bots' pids cgroups are made in a writable hierarchy, or None."""
    return _find("pids", mountinfo, own)


def find_cpu_hierarchy(
    mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUPS, enable: bool = True
) -> Path | None:
    """Where bots' cpu cgroups are made in a writable hierarchy, or None.
    `enable=False` looks only at cgroup v1, changing nothing (on v2 the cpu
    cgroups are in the pids hierarchy's folder)."""
    return _find("cpu", mountinfo, own, v2=enable)


class Hierarchies:
    """Where bots' cgroups are made: in a pids hierarchy, and in a memory one if
    any (the same folder on cgroup v2); in a cpu one too once a bot asks for the
    `cpus` limit (see find_cpu_hierarchy)."""

    def __init__(self, pids: Path, memory: Path | None, cpu: Path | None = None) -> None:
        self.pids = pids
        self.memory = memory
        self.cpu = cpu

    @property
    def roots(self) -> tuple[Path, ...]:
        return self.roots_for(cpu=True)

    def roots_for(self, cpu: bool) -> tuple[Path, ...]:
        """The folders a bot's cgroup is made in, the pids one first; the cpu
        hierarchy only for a bot with the `cpus` limit."""
        wanted = (self.pids, self.memory, self.cpu if cpu else None)
        return tuple(dict.fromkeys(root for root in wanted if root is not None))


def find_hierarchies(mountinfo: Path = MOUNTINFO, own: Path = OWN_CGROUPS) -> Hierarchies | None:
    """Where bots' cgroups are made, or None without a writable pids hierarchy."""
    pids = find_pids_hierarchy(mountinfo, own)
    if pids is None:
        return None
    return Hierarchies(pids, _find("memory", mountinfo, own))


class BotCgroup:
    """One bot's cgroup (a folder in each hierarchy): at most `max_pids`
    processes and threads, and at most `max_bytes` of memory where there is a
    memory hierarchy; at most `cpus` cores at once when given."""

    def __init__(
        self, folders: tuple[Path, ...], memory: Path | None, cpu: Path | None = None
    ) -> None:
        self.folders = folders  # the pids folder first
        self.memory = memory  # the folder holding the memory files, if any
        self.cpu = cpu  # the folder holding the cpu files, with the `cpus` limit

    @classmethod
    def create(
        cls, where: Hierarchies, max_pids: int, max_bytes: int, cpus: float | None = None
    ) -> BotCgroup:
        """A new cgroup named after this process (so a later run can tell it is stale).
        `cpus` needs `where.cpu` (ValueError without: never run without the limit)."""
        if cpus is not None and where.cpu is None:
            raise ValueError("the cpus limit needs a cpu hierarchy")
        name = f"{PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
        made: list[Path] = []
        try:
            for root in where.roots_for(cpu=cpus is not None):
                (root / name).mkdir(mode=0o755)
                made.append(root / name)
            (made[0] / "pids.max").write_text(str(max_pids))
            memory = None if where.memory is None else where.memory / name
            if memory is not None:
                _limit_memory(memory, max_bytes)
            cpu = None if cpus is None or where.cpu is None else where.cpu / name
            if cpu is not None and cpus is not None:
                _limit_cpu(cpu, cpus)
        except OSError:
            for folder in made:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise
        return cls(tuple(made), memory, cpu)

    @property
    def procs(self) -> tuple[str, ...]:
        """The `cgroup.procs` file of each folder: the bot joins all of them."""
        return tuple(str(folder / "cgroup.procs") for folder in self.folders)

    def join_command(self, argv: list[str], shell: str) -> list[str]:
        """`argv` started by `shell` once it has moved itself into every folder."""
        joins = [f'echo 0 > "${index}"' for index in range(len(self.folders))]
        shift = [f"shift {len(self.folders) - 1}"] if len(self.folders) > 1 else []
        script = " && ".join([*joins, *shift, 'exec "$@"'])
        return [shell, "-c", script, *self.procs, *argv]

    def refused_forks(self) -> int:
        """How often the limit refused a fork (pids.events `max`)."""
        return _counter(self.folders[0] / "pids.events", "max")

    def oom_kills(self) -> int:
        """Processes the memory limit's out-of-memory killer ended (v1 and v2)."""
        if self.memory is None:
            return 0
        return max(
            _counter(self.memory / "memory.oom_control", "oom_kill"),
            _counter(self.memory / "memory.events", "oom_kill"),
        )

    def remove(self, timeout: float = 2.0) -> None:
        """Kill whatever is left in the cgroup and remove its folders."""
        deadline = time.monotonic() + timeout
        for folder in self.folders:
            while True:
                _kill_all(folder)
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break  # a stuck process: leave the empty-ish cgroup behind
                    time.sleep(0.02)


def _limit_memory(folder: Path, max_bytes: int) -> None:
    if (folder / "memory.max").exists():  # v2
        (folder / "memory.max").write_text(str(max_bytes))
        with contextlib.suppress(FileNotFoundError):
            (folder / "memory.swap.max").write_text("0")
        return
    (folder / "memory.limit_in_bytes").write_text(str(max_bytes))
    # Memory and swap together, so that swap adds nothing (absent without swap accounting).
    with contextlib.suppress(OSError):
        (folder / "memory.memsw.limit_in_bytes").write_text(str(max_bytes))
    # Absent where the kernel no longer has it (deprecated in Linux 6.x): the
    # bot then plays without the cap, as without swap accounting above.
    with contextlib.suppress(OSError):
        (folder / "memory.kmem.tcp.limit_in_bytes").write_text(str(SOCKET_BUFFER_BYTES))


def cpu_quota_us(cpus: float) -> int:
    """The CFS quota, per CPU_PERIOD_US, that lets `cpus` cores run at once."""
    return max(MIN_QUOTA_US, round(cpus * CPU_PERIOD_US))


def try_cpu_limit(root: Path, cpus: float) -> None:
    """Set `cpus` on a cgroup made and removed under `root`; raise OSError where
    it cannot be (cgroup v1 refuses more than the parent's quota)."""
    folder = root / f"{PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
    folder.mkdir(mode=0o755)
    try:
        _limit_cpu(folder, cpus)
    finally:
        folder.rmdir()


def _limit_cpu(folder: Path, cpus: float) -> None:
    quota = cpu_quota_us(cpus)
    if (folder / "cpu.max").exists():  # v2
        (folder / "cpu.max").write_text(f"{quota} {CPU_PERIOD_US}")
        return
    (folder / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
    (folder / "cpu.cfs_quota_us").write_text(str(quota))


def _counter(path: Path, key: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


def _kill_all(folder: Path) -> None:
    kill = folder / "cgroup.kill"
    if kill.exists():
        with contextlib.suppress(OSError):
            kill.write_text("1")
        return
    with contextlib.suppress(OSError):
        for pid in (folder / "cgroup.procs").read_text().split():
            with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
                os.kill(int(pid), signal.SIGKILL)


def remove_stale(where: Hierarchies) -> None:
    """Remove bot cgroups left behind by runners that died (their pid is gone)."""
    for root in where.roots:
        for folder in root.glob(f"{PREFIX}*-*"):
            try:
                owner = int(folder.name.removeprefix(PREFIX).split("-")[0])
                os.kill(owner, 0)
            except ProcessLookupError:
                BotCgroup((folder,), None).remove(timeout=0.5)
            except (ValueError, PermissionError):
                continue
