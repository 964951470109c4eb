"""The launcher's sandbox as a bot sees it: what it binds (every package, the
kernel settings, the server's socket wherever it lies), the stand-ins of /proc,
and the environment and arguments it passes on. Its failures are checked in
test_launcher_failures.py, the limits it sets in test_launcher_limits.py, and
what a tournament config says of the sandbox in test_sandbox_config.py."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from clients.bot_limits import MIB
from clients.launch import BotCommand, BotFailure, Launcher
from clients.launch.proc_view import (
    PROC_READ_ONLY,
    PROC_STAND_INS,
    hidden_proc_files,
    proc_read_only_binds,
    proc_stand_ins,
)
from clients.launch.sandbox import SandboxPolicy
from tests.conftest import ROOT


def test_an_unsandboxed_bot_keeps_the_environment_but_never_the_admin_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHEEPFOLD_ADMIN_TOKEN", "runner-only")
    monkeypatch.setenv("SOME_SETTING", "kept")
    command = BotCommand(("true",), str(tmp_path), "127.0.0.1:1", {"SHEEPFOLD_SEAT": "0"})
    env = Launcher().process(command).env
    assert "SHEEPFOLD_ADMIN_TOKEN" not in env
    assert (env["SOME_SETTING"], env["SHEEPFOLD_SEAT"]) == ("kept", "0")
    assert env["SHEEPFOLD_SERVER"] == "127.0.0.1:1"


def test_the_sandbox_binds_every_package_sheepfold_installs() -> None:
    """A {python} bot may run `sheepfold bot`, which imports the whole CLI: every
    installed package except the benchmarks must be visible in the sandbox."""
    import tomllib

    from clients.launch.sandbox import SHEEPFOLD_PACKAGES

    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    installed = {name.rstrip("*") for name in found["packages"]["find"]["include"]}
    assert installed - {"benchmarks"} == set(SHEEPFOLD_PACKAGES)


BIG_ENV_BOT = """
import os, sys
fds = []
for fd in os.listdir("/proc/self/fd"):
    try:
        fds.append(os.readlink(f"/proc/self/fd/{fd}"))
    except FileNotFoundError:  # listdir's own
        pass
if any("bwrap" in target for target in fds):
    sys.exit(f"bwrap's options are still open: {fds}")
sys.exit(0 if os.environ["BIG"] == "x" * 100_000 else "BIG arrived changed")
"""


def test_a_bot_with_a_long_environment_starts(tmp_path: Path, sandbox_ready: None) -> None:
    """bwrap's options (the bot's environment among them) once went through a
    pipe written before bwrap started: past 64 KB the write never returned, and
    the runner's event loop with it."""
    (tmp_path / "bot.py").write_text(BIG_ENV_BOT)
    socket = tmp_path / "arena.sock"
    socket.touch()
    command = BotCommand(
        (sys.executable, "bot.py"),
        str(tmp_path),
        "",
        {"BIG": "x" * 100_000},
        sandbox=SandboxPolicy(),
    )

    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(Launcher(str(socket)).process(command).run())
        except BaseException as error:  # handed to the test's thread
            failures.append(error)

    # On a thread of its own: the old write blocked the event loop itself, which
    # no timeout on that loop would ever have ended.
    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(60)
    assert not runner.is_alive(), "the launcher hung"
    assert failures == []


def test_the_kernel_settings_are_bound_around_the_hosts_mounts_in_them(tmp_path: Path) -> None:
    """A read-only bind of /proc/sys would take along what the host mounts inside it:
    systemd's binfmt_misc automount, which bwrap would then try to mount. The binds
    go around it, and cover every other entry."""
    proc = "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
    plain = tmp_path / "plain"
    plain.write_text(proc)
    assert proc_read_only_binds(str(plain)) == list(PROC_READ_ONLY)
    with_automount = tmp_path / "automount"
    with_automount.write_text(
        proc + "30 22 0:50 / /proc/sys/fs/binfmt_misc rw,relatime - autofs systemd-1 rw\n"
    )
    binds = proc_read_only_binds(str(with_automount))
    assert not any(bind == "/proc/sys" or "binfmt_misc" in bind for bind in binds)
    others = {str(entry) for entry in Path("/proc/sys/fs").iterdir()} - {"/proc/sys/fs/binfmt_misc"}
    assert others and others <= set(binds)
    assert {"/proc/sys/kernel", "/proc/sys/vm", "/proc/sysrq-trigger"} <= set(binds)


def test_the_hosts_task_list_in_proc_is_hidden_where_the_kernel_has_one(tmp_path: Path) -> None:
    """Kernels before 5.13 built with CONFIG_SCHED_DEBUG (most distributions')
    have /proc/sched_debug, mode 0444, listing every task of the machine with
    its name, its pid on the host and its cgroup: a bot could read the host's process
    list there, past its own PID namespace. It is hidden where it exists, with
    the key store's lists and every file only root may read; the rest of
    /proc is not."""
    proc = tmp_path / "proc"
    (proc / "1").mkdir(parents=True)
    for name, mode in (
        ("sched_debug", 0o444),
        ("keys", 0o444),
        ("kpageflags", 0o400),
        ("meminfo", 0o444),
        ("stat", 0o444),
    ):
        (proc / name).touch()
        (proc / name).chmod(mode)
    assert hidden_proc_files(str(proc)) == [
        str(proc / "keys"),
        str(proc / "kpageflags"),
        str(proc / "sched_debug"),
    ]
    (proc / "sched_debug").unlink()  # Linux 5.13 and later: in debugfs
    assert str(proc / "sched_debug") not in hidden_proc_files(str(proc))


def test_the_stand_ins_of_proc_keep_the_hosts_cpus_and_state_the_bots_memory(
    tmp_path: Path,
) -> None:
    """The stand-in /proc/stat has the host's cpuN lines (glibc counts the CPUs
    there), every counter 0; /proc/meminfo says the bot's memory limit, or the
    host's memory where that is less, all of it free; the load is 0 and the
    uptime idles not at all."""
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "stat").write_text(
        "cpu  5 6 7 8 9 0 0 0 0 0\ncpu0 1 2 3 4 5 0 0 0 0 0\ncpu3 1 2 3 4 5 0 0 0 0 0\n"
        "intr 99 1 2\nctxt 1234\nbtime 1700000000\nprocesses 4321\n"
    )
    (proc / "meminfo").write_text("MemTotal:       2097152 kB\nHugepagesize:    2048 kB\n")
    (proc / "uptime").write_text("123.45 400.10\n")
    shown = proc_stand_ins(1024 * MIB, str(proc))
    assert sorted(shown) == sorted(PROC_STAND_INS)
    stat_lines = shown["/proc/stat"].splitlines()
    assert [line.split()[0] for line in stat_lines[:3]] == ["cpu", "cpu0", "cpu3"]
    assert all(set(line.split()[1:]) == {"0"} for line in stat_lines[:3])
    assert "btime 1700000000" in stat_lines and "ctxt 0" in stat_lines
    memory = {line.split(":")[0]: line.split()[1] for line in shown["/proc/meminfo"].splitlines()}
    assert memory["MemTotal"] == memory["MemFree"] == memory["MemAvailable"] == str(1024 * 1024)
    assert memory["SwapTotal"] == "0" and memory["Hugepagesize"] == "2048"
    assert proc_stand_ins(4096 * MIB, str(proc))["/proc/meminfo"].startswith(
        "MemTotal:        2097152 kB"
    )
    assert shown["/proc/loadavg"].split()[:3] == ["0.00", "0.00", "0.00"]
    assert shown["/proc/uptime"] == "123.45 0.00\n"


def test_a_bots_own_arguments_are_never_taken_for_bwraps_descriptors(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """The descriptors of bwrap's options and filter are put in its own
    arguments; a bot given the same words as arguments gets them as written."""
    socket = tmp_path / "arena.sock"
    socket.touch()
    program = "import sys; print(' '.join(sys.argv[1:]), file=sys.stderr); sys.exit(1)"
    words = ("{args-fd}", "{seccomp-fd}")
    command = BotCommand(
        (sys.executable, "-c", program, *words), str(tmp_path), "", sandbox=SandboxPolicy()
    )
    with pytest.raises(BotFailure) as failed:
        asyncio.run(Launcher(str(socket)).process(command).run())
    assert failed.value.tail == " ".join(words)


def test_a_server_socket_under_the_hosts_dev_shm_reaches_the_bot(sandbox_ready: None) -> None:
    """The server's socket may lie under the host's /dev/shm (TMPDIR=/dev/shm puts
    the runner's own there; `--server unix:/dev/shm/...`). The tmpfs of each
    sandbox's /tmp and /dev/shm were once mounted over /dev/shm before bwrap
    started, which hid the socket from bwrap: every bot failed ("Can't find
    source path"). The host's /dev/shm keeps nothing of the sandbox."""
    before = sorted(os.listdir("/dev/shm"))
    folder = Path(tempfile.mkdtemp(prefix="sheepfold-test-", dir="/dev/shm"))
    try:
        folder.chmod(0o755)
        socket = folder / "arena.sock"
        socket.touch()
        command = BotCommand(
            ("/bin/sh", "-c", "test -e /sheepfold/arena.sock && test -w /tmp"),
            str(ROOT),
            "",
            sandbox=SandboxPolicy(),
        )
        asyncio.run(Launcher(str(socket)).process(command).run())
        assert sorted(os.listdir(folder)) == ["arena.sock"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert sorted(os.listdir("/dev/shm")) == before


def test_a_relative_server_socket_is_the_runners_never_a_file_of_the_bots_folder(
    tmp_path: Path, sandbox_ready: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--server unix:arena.sock` names a socket in the runner's current folder,
    which is where `sheepfold bot` and `match` reach the server. bwrap, started
    in the bot's folder, once bound `arena.sock` from there instead: a stranger's
    link of that name in its folder showed the bot any file of the host at
    /sheepfold/arena.sock (a secret, or a socket such as the container
    runtime's), and without one every bot failed on "Can't find source path"."""
    runner, folder = tmp_path / "runner", tmp_path / "bot"
    for path in (tmp_path, runner, folder):
        path.mkdir(exist_ok=True)
        path.chmod(0o755)
    (runner / "arena.sock").write_text("the runner's socket\n")
    secret = tmp_path / "secret.txt"
    secret.write_text("a file of the host\n")
    (folder / "arena.sock").symlink_to(secret)
    monkeypatch.chdir(runner)
    command = BotCommand(
        ("/bin/sh", "-c", "cat /sheepfold/arena.sock >&2; exit 1"),
        str(folder),
        "",
        sandbox=SandboxPolicy(),
    )
    with pytest.raises(BotFailure) as failed:
        asyncio.run(Launcher("arena.sock").process(command).run())
    said = str(failed.value)
    assert "the runner's socket" in said and "a file of the host" not in said, said
