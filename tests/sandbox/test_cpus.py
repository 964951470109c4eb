"""The opt-in `cpus` limit: how many cores a sandboxed bot uses at once (a cpu
cgroup, as root), and the refusal wherever it cannot be enforced."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clients.launch import BotCommand, BotFailure, Launcher, SandboxUnavailable, parse_limits
from clients.launch.cgroup import BotCgroup, cpu_quota_us
from clients.launch.sandbox import SandboxPolicy
from tests.conftest import ROOT
from tournament.config import parse_config
from tournament.runner import RunError, run_tournament

SPINNER = Path(__file__).resolve().parent / "bots" / "spinner"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def test_cpus_is_a_positive_number_of_cores_and_off_by_default() -> None:
    assert parse_limits({}).cpus is None
    assert parse_limits({"cpus": 0.5}).cpus == 0.5 and parse_limits({"cpus": 2}).cpus == 2.0
    for bad in (0, -1, 0.001, "1", True):
        with pytest.raises(ValueError, match="cpus"):
            parse_limits({"cpus": bad})
    assert cpu_quota_us(0.5) == 50_000 and cpu_quota_us(0.01) == 1_000


def _used_seconds(cgroup: BotCgroup) -> float:
    """The CPU time the bot's cgroup has used: cgroup v2 counts it in cpu.stat;
    v1's cpu controller does not, and its processes' own counts (every thread of
    each) add up to it."""
    assert cgroup.cpu is not None
    stat = cgroup.cpu / "cpu.stat"
    for line in stat.read_text().splitlines():
        if line.startswith("usage_usec "):
            return int(line.split()[1]) / 1e6
    ticks = 0
    for pid in (cgroup.cpu / "cgroup.procs").read_text().split():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / CLOCK_TICKS


def _throttled(cgroup: BotCgroup) -> int:
    assert cgroup.cpu is not None
    for line in (cgroup.cpu / "cpu.stat").read_text().splitlines():
        if line.startswith("nr_throttled "):
            return int(line.split()[1])
    return 0


def test_a_bot_spinning_four_threads_under_half_a_core_gets_about_half_a_core(
    tmp_path: Path, sandbox_ready: None
) -> None:
    socket = tmp_path / "arena.sock"
    socket.touch()
    launcher = Launcher(str(socket))
    policy = SandboxPolicy(limits=parse_limits({"cpus": 0.5}))
    command = BotCommand(
        (sys.executable, "spin.py"),
        str(SPINNER),
        "",
        sandbox=policy,
    )
    if os.geteuid() != 0:  # an ordinary user makes no cgroups: refused, never run uncapped
        with pytest.raises(SandboxUnavailable, match="as root"):
            launcher.process(command)
        return
    bot = launcher.process(command)
    cgroup = bot.cgroup
    assert cgroup is not None and cgroup.cpu is not None

    async def measure() -> tuple[float, float, int]:
        running = asyncio.create_task(bot.run())
        try:
            # Started: its four threads are in the cgroup and have used some CPU.
            while _used_seconds(cgroup) < 0.3:
                assert not running.done(), "the spinner ended"
                await asyncio.sleep(0.05)
            used, start = _used_seconds(cgroup), time.monotonic()
            await asyncio.sleep(3)
            used, window = _used_seconds(cgroup) - used, time.monotonic() - start
            return used, window, _throttled(cgroup)
        finally:
            await bot.kill()
            with pytest.raises(BotFailure):
                await running

    used, window, throttled = asyncio.run(measure())
    # Half a core, with room for the period the window cuts in two and for
    # accounting; unlimited, four threads took every core (2 in CI).
    assert used <= 0.5 * window * 1.3 + 0.1, (used, window)
    assert throttled > 0
    assert not any(folder.exists() for folder in cgroup.folders)


def test_without_a_cpu_controller_the_cpus_limit_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    monkeypatch.setattr("clients.launch.process.find_cpu_hierarchy", lambda **_: None)
    launcher = Launcher()
    launcher.check()  # a bot without the limit runs as before
    with pytest.raises(SandboxUnavailable) as caught:
        launcher.check(cpus=1)
    said = str(caught.value)
    assert "cpus" in said and "cpu" in said and "\n" not in said
    if os.geteuid() == 0:
        assert "controller" in said and "/sys/fs/cgroup" in said


def test_a_tournament_asking_for_cpus_that_cannot_be_enforced_stops_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    monkeypatch.setattr("clients.launch.process.find_cpu_hierarchy", lambda **_: None)
    (tmp_path / "bot").mkdir()
    config = parse_config(
        {
            "game": "sheep-n-sheep",
            "games_per_pairing": 1,
            "sandbox": {"cpus": 1},
            "bots": [
                {"name": "a", "builtin": "random"},
                {"name": "b", "command": ["true"], "cwd": "bot"},
            ],
        },
        str(tmp_path),
    )
    assert config.bots[1].sandbox is not None and config.bots[1].sandbox.limits.cpus == 1
    with pytest.raises(RunError) as caught:
        run_tournament(config, database=str(tmp_path / "t.sqlite"))
    said = str(caught.value)
    assert said.startswith("cannot sandbox b:") and "`cpus` limit" in said, said


def test_an_ordinary_user_asking_for_cpus_is_refused(sandbox_ready: None) -> None:
    """An ordinary user's launcher makes no cgroups (it has none to make them in)."""
    launcher = Launcher()
    launcher.check()
    launcher._cgroups = None  # as an ordinary user's is
    with pytest.raises(SandboxUnavailable) as caught:
        launcher.check(cpus=1)
    said = str(caught.value)
    assert "`cpus` limit" in said and "as root" in said and "\n" not in said


# `sheepfold match`, on a machine without a writable cpu controller.
WITHOUT_CPU_CONTROLLER = (
    "import sys, clients.launch.process as p; p.find_cpu_hierarchy = lambda **_: None; "
    "from cli.main import main; sys.exit(main(sys.argv[1:]))"
)


def test_sheepfold_match_asking_for_cpus_that_cannot_be_enforced_stops_in_one_line(
    sandbox_ready: None,
) -> None:
    match = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_CPU_CONTROLLER,
            "match",
            "--game",
            "stubborn-sheep",
            "--players",
            "2",
            "--bots",
            "random,cmd:{python} command_bot.py",
            "--bot-dir",
            str(ROOT / "examples" / "command-bot"),
            "--limit",
            "cpus=1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert match.returncode != 0
    lines = match.stderr.strip().splitlines()
    assert len(lines) == 1, match.stderr
    assert lines[0].startswith("sheepfold match: ") and "`cpus` limit" in lines[0], lines


def test_more_cores_than_the_runners_own_cgroup_allows_are_refused_before_any_game(
    sandbox_ready: None,
) -> None:
    """On cgroup v1 a bot's quota may not exceed that of the cgroup above it
    (Sheepfold's own, in a container limited to fewer cores): the bot's cgroup
    could not be made, and the run stopped at its first game with "Invalid
    argument". The check now sets the largest limit once, before any game. On
    v2 the kernel takes it, and caps the bot at what the parents allow."""
    launcher = Launcher()
    launcher.check()
    if launcher.cgroups is None:  # an ordinary user: no cgroups at all
        with pytest.raises(SandboxUnavailable, match="as root"):
            launcher.check(cpus=1)
        return
    launcher.check(cpus=0.25)
    cpu = launcher.cgroups.cpu
    assert cpu is not None
    parent = cpu / f"sheepfold-test-{os.getpid()}"  # a runner's cgroup with half a core
    parent.mkdir()
    try:
        v1 = (parent / "cpu.cfs_quota_us").exists()
        if v1:
            (parent / "cpu.cfs_quota_us").write_text("50000")
        else:
            (parent / "cgroup.subtree_control").write_text("+cpu")
            (parent / "cpu.max").write_text("50000 100000")
        launcher.cgroups.cpu = parent
        launcher.check(cpus=0.5)  # what it allows
        if v1:
            with pytest.raises(SandboxUnavailable) as caught:
                launcher.check(cpus=2)
            said = str(caught.value)
            assert said.startswith("cannot set the `cpus` limit of 2 under ") and "\n" not in said
            assert "ask for fewer cores" in said
        else:
            launcher.check(cpus=2)
        assert [folder.name for folder in parent.iterdir() if folder.is_dir()] == []
    finally:
        parent.rmdir()
