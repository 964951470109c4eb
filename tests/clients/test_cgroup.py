"""The bots' cgroups, on folders standing in for the cgroup file systems: which
hierarchies are found, what a bot's cgroup holds, and how the bot joins it.
(The real ones are used by the sandbox tests, which run as root in CI.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clients.bot_limits import MIB, Limits
from clients.launch.cgroup import (
    SOCKET_BUFFER_BYTES,
    BotCgroup,
    Hierarchies,
    _limit_cpu,
    find_cpu_hierarchy,
    find_hierarchies,
)


def _mountinfo(tmp_path: Path, *mounts: tuple[Path, str, str]) -> Path:
    lines = [
        f"{n} 1 0:{n} / {mount} rw,relatime - {fstype} {fstype} {options}"
        for n, (mount, fstype, options) in enumerate(mounts, start=30)
    ]
    path = tmp_path / "mountinfo"
    path.write_text("\n".join(["22 1 0:21 / / rw - ext4 /dev/vda rw", *lines]) + "\n")
    return path


def _own(tmp_path: Path, text: str) -> Path:
    """A stand-in for /proc/self/cgroup."""
    path = tmp_path / "own-cgroup"
    path.write_text(text)
    return path


def test_cgroup_v1_gives_a_pids_and_a_memory_hierarchy(tmp_path: Path) -> None:
    pids, memory, cpu = (tmp_path / name for name in ("pids", "memory", "cpu"))
    for folder in (pids, memory, cpu):
        folder.mkdir()
    info = _mountinfo(
        tmp_path,
        (cpu, "cgroup", "rw,cpu"),
        (memory, "cgroup", "rw,memory"),
        (pids, "cgroup", "rw,pids"),
    )
    at_root = _own(tmp_path, "8:pids:/\n4:memory:/\n1:cpu:/\n")
    found = find_hierarchies(info, at_root)
    assert found is not None and (found.pids, found.memory) == (pids, memory)
    assert found.roots == (pids, memory)
    without_memory = _mountinfo(tmp_path, (pids, "cgroup", "rw,pids"))
    found = find_hierarchies(without_memory, at_root)
    assert found is not None and found.memory is None and found.roots == (pids,)
    only_memory = _mountinfo(tmp_path, (memory, "cgroup", "rw,memory"))
    assert find_hierarchies(only_memory, at_root) is None


def test_on_cgroup_v1_bots_cgroups_go_under_sheepfolds_own(tmp_path: Path) -> None:
    """So that a memory limit on Sheepfold's service or container covers its bots."""
    pids, memory = tmp_path / "pids", tmp_path / "memory"
    (memory / "system.slice" / "cup.service").mkdir(parents=True)
    pids.mkdir()
    info = _mountinfo(tmp_path, (memory, "cgroup", "rw,memory"), (pids, "cgroup", "rw,pids"))
    own = _own(tmp_path, "8:pids:/gone\n4:memory:/system.slice/cup.service\n")
    found = find_hierarchies(info, own)
    assert found is not None
    assert found.memory == memory / "system.slice" / "cup.service"
    assert found.pids == pids  # its own pids folder is not there: the root instead


def test_cgroup_v2_is_one_hierarchy_with_both_controllers_switched_on(tmp_path: Path) -> None:
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "cgroup.controllers").write_text("cpu memory pids\n")
    (unified / "cgroup.subtree_control").write_text("")
    own = _own(tmp_path, "0::/user.slice/session-1.scope\n")
    found = find_hierarchies(_mountinfo(tmp_path, (unified, "cgroup2", "rw")), own)
    assert found is not None and found.pids == found.memory == unified
    assert found.roots == (unified,)
    # Stand-in for the kernel's file, which keeps each controller switched on.
    assert (unified / "cgroup.subtree_control").read_text() == "+memory"


def test_a_bots_cgroup_caps_processes_and_all_its_memory_and_the_bot_joins_each_folder(
    tmp_path: Path,
) -> None:
    pids, memory = tmp_path / "pids", tmp_path / "memory"
    pids.mkdir()
    memory.mkdir()
    limits = Limits(memory_mb=512, tmp_mb=32, processes=20)
    assert limits.charged_bytes == (512 + 2 * 32) * MIB
    cgroup = BotCgroup.create(Hierarchies(pids, memory), limits.processes, limits.charged_bytes)
    (pid_folder,) = pids.iterdir()
    (memory_folder,) = memory.iterdir()
    assert pid_folder.name == memory_folder.name and pid_folder.name.startswith("sheepfold-bot-")
    assert (pid_folder / "pids.max").read_text() == "20"
    assert (memory_folder / "memory.limit_in_bytes").read_text() == str(limits.charged_bytes)
    assert (memory_folder / "memory.memsw.limit_in_bytes").read_text() == str(limits.charged_bytes)
    tcp = (
        memory_folder / "memory.kmem.tcp.limit_in_bytes"
    )  # socket buffers, in a count of their own
    assert tcp.read_text() == str(SOCKET_BUFFER_BYTES)
    argv = cgroup.join_command(["sh", "-c", "echo started $0", "bot"], "sh")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=True)
    assert done.stdout == "started bot\n"
    assert (pid_folder / "cgroup.procs").read_text() == "0\n"
    assert (memory_folder / "cgroup.procs").read_text() == "0\n"
    (memory_folder / "memory.oom_control").write_text(
        "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"
    )
    (pid_folder / "pids.events").write_text("max 3\n")
    assert (cgroup.oom_kills(), cgroup.refused_forks()) == (2, 3)


def test_without_a_memory_hierarchy_a_bot_joins_its_pids_cgroup_alone(tmp_path: Path) -> None:
    cgroup = BotCgroup.create(Hierarchies(tmp_path, None), 10, 1 << 30)
    (folder,) = tmp_path.iterdir()
    assert cgroup.procs == (str(folder / "cgroup.procs"),) and cgroup.oom_kills() == 0
    argv = cgroup.join_command(["true"], "sh")
    assert argv == ["sh", "-c", 'echo 0 > "$0" && exec "$@"', str(folder / "cgroup.procs"), "true"]
    assert subprocess.run(argv, timeout=10, check=False).returncode == 0


def test_only_a_bot_with_the_cpus_limit_joins_a_cpu_cgroup_capping_its_cores(
    tmp_path: Path,
) -> None:
    pids, cpu = tmp_path / "pids", tmp_path / "cpu"
    info = _mountinfo(tmp_path, (cpu, "cgroup", "rw,cpu,cpuacct"), (pids, "cgroup", "rw,pids"))
    for folder in (pids, cpu):
        folder.mkdir()
    found = find_hierarchies(info, _own(tmp_path, "2:cpu,cpuacct:/\n1:pids:/\n"))
    assert found is not None and found.cpu is None  # looked for only when a bot asks
    found.cpu = find_cpu_hierarchy(info, _own(tmp_path, "2:cpu,cpuacct:/\n1:pids:/\n"))
    assert found.cpu == cpu and found.roots == (pids, cpu)
    plain = BotCgroup.create(found, 10, 1 << 30)
    assert plain.cpu is None and len(plain.folders) == 1 and list(cpu.iterdir()) == []
    capped = BotCgroup.create(found, 10, 1 << 30, cpus=0.5)
    (cpu_folder,) = cpu.iterdir()
    assert capped.cpu == cpu_folder and capped.folders[1] == cpu_folder
    assert (cpu_folder / "cpu.cfs_period_us").read_text() == "100000"
    assert (cpu_folder / "cpu.cfs_quota_us").read_text() == "50000"
    argv = capped.join_command(["true"], "sh")
    assert subprocess.run(argv, timeout=10, check=False).returncode == 0
    assert (cpu_folder / "cgroup.procs").read_text() == "0\n"


def test_on_cgroup_v2_the_cpus_limit_is_cpu_max_and_the_controller_is_on_only_when_asked(
    tmp_path: Path,
) -> None:
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "cgroup.controllers").write_text("cpu memory pids\n")
    (unified / "cgroup.subtree_control").write_text("")
    info = _mountinfo(tmp_path, (unified, "cgroup2", "rw"))
    own = _own(tmp_path, "0::/\n")
    find_hierarchies(info, own)
    assert "cpu" not in (unified / "cgroup.subtree_control").read_text().split("+")
    assert find_cpu_hierarchy(info, own, enable=False) is None  # v2: never looked at
    assert find_cpu_hierarchy(info, own) == unified
    assert (unified / "cgroup.subtree_control").read_text() == "+cpu"
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "cpu.max").write_text("max 100000\n")
    _limit_cpu(folder, 1.5)
    assert (folder / "cpu.max").read_text() == "150000 100000"
    with pytest.raises(ValueError, match="cpu hierarchy"):
        BotCgroup.create(Hierarchies(unified, unified), 10, 1 << 30, cpus=1)
