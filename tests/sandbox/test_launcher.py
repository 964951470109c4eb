"""The launcher's pieces: clear errors, and the sandbox as an ordinary user. What a
tournament config says of the sandbox is checked in test_sandbox_config.py."""

from __future__ import annotations

import asyncio
import errno
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from clients.bot_limits import CORE_BYTES, MIB
from clients.launch import (
    BotCommand,
    BotFailure,
    Launcher,
    SandboxUnavailable,
    parse_limits,
    process,
)
from clients.launch.cgroup import BotCgroup, Hierarchies
from clients.launch.proc_view import (
    PROC_READ_ONLY,
    PROC_STAND_INS,
    hidden_proc_files,
    proc_read_only_binds,
    proc_stand_ins,
)
from clients.launch.process import core_bytes
from clients.launch.sandbox import SandboxPolicy, Tools, bwrap_argv, find_tools, in_own_namespaces
from tests.conftest import ROOT
from tournament.config import parse_config
from tournament.runner import RunError, run_tournament

# Starts $1 background `sleep`s, printing the count after each, then waits a
# second with all of them alive. dash gives up ("Cannot fork") when the limit
# refuses a fork.
FORKER = """#!/bin/sh
n=0
while [ $n -lt $1 ]; do
  sleep 5 &
  n=$((n+1))
  echo $n
done
sleep 1
echo done
"""


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


def test_a_trusted_bot_runs_where_setpriv_is_too_old_for_a_parent_death_signal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trusted bot is tied to its runner by setpriv --pdeathsig (util-linux
    2.33+) where that can: an older setpriv (CentOS 7, Ubuntu 18.04) rejects the
    option, and every trusted bot then failed with its message, exit code 1,
    where it ran before. There it runs as it did, without the tie."""
    tools = tmp_path / "tools"
    tools.mkdir()
    old = tools / "setpriv"
    old.write_text("#!/bin/sh\necho \"setpriv: unrecognized option '--pdeathsig'\" >&2\nexit 1\n")
    old.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    command = BotCommand(("sh", "-c", "echo ran >&2"), str(tmp_path), "127.0.0.1:1")
    asyncio.run(Launcher().process(command).run())  # no BotFailure


def test_a_cgroup_that_cannot_be_made_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    launcher = Launcher(str(tmp_path / "arena.sock"))
    launcher.check()
    launcher._cgroups = Hierarchies(tmp_path, None)  # as root; any user here

    def no_space(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(BotCgroup, "create", no_space)
    command = BotCommand(("true",), str(tmp_path), "", sandbox=SandboxPolicy())
    with pytest.raises(SandboxUnavailable) as caught:
        launcher.process(command)
    assert (
        str(caught.value)
        == f"cannot make the bot's cgroup under {tmp_path}: No space left on device"
    )


def test_a_bot_that_cannot_be_sandboxed_mid_run_stops_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable(self: Launcher, command: BotCommand) -> None:
        raise SandboxUnavailable("cannot make the bot's cgroup under /x: No space left on device")

    monkeypatch.setattr(Launcher, "process", unavailable)
    config = parse_config(
        {
            "game": "sheep-n-sheep",
            "games_per_pairing": 1,
            "bots": [
                {"name": "a", "builtin": "random"},
                {"name": "b", "command": ["true"], "sandbox": False},
            ],
        },
        str(tmp_path),
    )
    with pytest.raises(RunError) as caught:
        run_tournament(config, database=str(tmp_path / "t.sqlite"))
    assert str(caught.value).startswith("cannot sandbox a bot of game 1:")
    assert str(caught.value).endswith("No space left on device")


def test_missing_bubblewrap_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "stubborn-sheep"\nplayers = 1\n'
        '[[bots]]\nname = "x"\ncommand = ["{python}", "-c", "pass"]\ncwd = "bot"\n'
    )
    run = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", "run", str(config), "--no-report"],
        cwd=ROOT,
        # No bwrap on PATH (SHEEPFOLD_BWRAP naming a missing file is said otherwise).
        env={
            **{k: v for k, v in os.environ.items() if k != "SHEEPFOLD_BWRAP"},
            "PATH": str(tmp_path / "bot"),
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert "bubblewrap" in run.stderr and "apt-get install bubblewrap" in run.stderr
    assert "sandbox = false" in run.stderr
    assert not (tmp_path / "cup.sqlite").exists() or run.stderr.count("\n") <= 2


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("no-such-bwrap", "which does not exist"),
        ("folder", "which is a folder, not a program"),
        ("plain-file", "which is not executable (chmod +x)"),
        ("dangling", "which is a symbolic link to nothing"),
    ],
)
def test_a_bad_sheepfold_bwrap_is_named_with_what_is_wrong(
    tmp_path: Path, name: str, wrong: str
) -> None:
    """It said "bubblewrap (bwrap) is not installed" (a folder got as far as
    running it: "exec: /tmp: Permission denied"), bwrap on PATH or not."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "plain-file").write_text("#!/bin/sh\n")
    (tmp_path / "plain-file").chmod(0o644)
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    path = str(tmp_path / name)
    with pytest.raises(SandboxUnavailable) as caught:
        find_tools({"SHEEPFOLD_BWRAP": path})
    assert str(caught.value) == (
        f"SHEEPFOLD_BWRAP names {path!r}, {wrong}: name bubblewrap's program there, "
        "or unset it to use the bwrap on PATH"
    )


def test_a_bare_name_in_sheepfold_bwrap_is_looked_up_on_path(tmp_path: Path) -> None:
    with pytest.raises(SandboxUnavailable) as caught:
        find_tools({"SHEEPFOLD_BWRAP": "no-such-bwrap-anywhere"})
    assert "'no-such-bwrap-anywhere', which is not a program on PATH" in str(caught.value)
    if shutil.which("bwrap"):
        assert find_tools({"SHEEPFOLD_BWRAP": "bwrap"}).bwrap == shutil.which("bwrap")


@pytest.mark.parametrize(
    ("missing", "package"),
    [("setpriv", "util-linux"), ("unshare", "util-linux"), ("mount", "mount")],
)
def test_missing_util_linux_tools_are_one_clear_error(
    missing: str, package: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """setpriv and unshare make each sandbox end with its runner, and mount mounts
    its /tmp: without them the check says so, as it does for bubblewrap, with
    the package to install (Debian's util-linux has no mount: its package
    `mount` does)."""
    found = shutil.which

    def which(name: str) -> str | None:
        return None if name == missing else found(name)

    monkeypatch.setattr("clients.launch.sandbox.shutil.which", which)
    with pytest.raises(SandboxUnavailable) as caught:
        find_tools({"SHEEPFOLD_BWRAP": "/bin/true"})
    assert str(caught.value).startswith(f"{missing} is not installed")
    assert f"apt-get install {package}" in str(caught.value)


def _forker_sandbox(folder: Path, tools: Tools, processes: int, count: int) -> list[str]:
    policy = SandboxPolicy(limits=parse_limits({"processes": processes}))
    socket = folder / "arena.sock"
    socket.touch()
    command = ["/bin/sh", "forker.sh", str(count)]
    options, inner = bwrap_argv(tools, policy, command, str(folder), str(socket), {})
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    # As an ordinary user: its own namespaces mount the sandbox's /tmp and /dev/shm.
    argv = in_own_namespaces(
        tools,
        [tools.bwrap, *options, "--", *inner],
        False,
        policy.limits.tmp_mb * MIB,
        policy.limits.memory_mb * MIB,
    )
    return [*(drop if os.geteuid() == 0 else []), *argv]


def test_an_ordinary_user_gets_a_process_limit_of_its_own_in_each_sandbox(
    sandbox_ready: None,
) -> None:
    """The sandbox run by an unprivileged user (root drops to nobody for this test):
    each sandbox's processes are counted apart, and the limit holds."""
    folder = Path(tempfile.mkdtemp(prefix="sheepfold-user-"))
    try:
        folder.chmod(0o755)
        (folder / "forker.sh").write_text(FORKER)
        found = find_tools()
        # No Python runtime needed.
        tools = Tools(found.bwrap, found.prlimit, unshare=found.unshare, mount=found.mount)
        # Two sandboxes at once, 14 processes each: 28 would break a shared limit of 20.
        together = [
            subprocess.Popen(
                _forker_sandbox(folder, tools, processes=20, count=12),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # as bots are: in_own_namespaces needs it
            )
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=60) for run in together]
        greedy = subprocess.run(
            _forker_sandbox(folder, tools, processes=20, count=40),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            start_new_session=True,
        )
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)
    for run, (out, err) in zip(together, outputs, strict=True):
        assert run.returncode == 0 and out.split()[-1] == "done", err
    started = int(greedy.stdout.split()[-1])
    assert greedy.returncode != 0 and "Cannot fork" in greedy.stderr
    assert 14 <= started < 20, greedy.stdout


def test_a_bot_gets_no_realtime_priority_nor_a_raised_one(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """RLIMIT_RTPRIO and RLIMIT_NICE were the runner's: where a group is granted
    realtime priority (audio, on many desktops), a bot could take it and spin
    past its `cpus` cap. The limits as the bot's own process reads them."""
    socket = tmp_path / "arena.sock"
    socket.touch()
    tools, policy = find_tools(), SandboxPolicy()
    command = ["/bin/cat", "/proc/self/limits"]
    options, inner = bwrap_argv(tools, policy, command, str(tmp_path), str(socket), {})
    argv = in_own_namespaces(
        tools,
        [tools.bwrap, *options, "--", *inner],
        False,
        policy.limits.tmp_mb * MIB,
        policy.limits.memory_mb * MIB,
    )
    shown = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, check=False, start_new_session=True
    )
    assert shown.returncode == 0, shown.stderr
    limits = {line[:26].strip(): line[26:].split()[:2] for line in shown.stdout.splitlines()}
    assert limits["Max realtime priority"] == ["0", "0"], shown.stdout
    assert limits["Max nice priority"] == ["0", "0"], shown.stdout
    assert "--rtprio=0:0" in inner and "--nice=0:0" in inner
    # The core dump limit is set before bwrap, whose seccomp filter refuses
    # setting it (tests/sandbox/test_kernel_budgets.py): not by the prlimit in it.
    assert not any(arg.startswith("--core") for arg in inner)


def test_a_runner_whose_hard_core_limit_is_0_gives_its_bots_0() -> None:
    """A bot's core dump limit is set to CORE_BYTES before its sandbox starts;
    an ordinary user may not raise a hard limit, and a container's or a
    service's is often 0: there `prlimit --core=1:1` failed, and would have
    failed every bot, so the bot gets the runner's 0."""
    assert core_bytes(resource.RLIM_INFINITY) == CORE_BYTES == 1
    assert core_bytes(4096) == CORE_BYTES
    assert core_bytes(0) == 0


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


def test_what_a_failed_bot_printed_is_shown_and_never_obeyed(tmp_path: Path) -> None:
    """A bot's stderr goes into the reason its game ended, which the organiser's
    terminal shows: its escape sequences (clear the screen, retitle the window)
    and carriage returns are written out, not passed on."""
    shout = "\\x1b[2J\\x1b]0;pwned\\x07\\rwinner: seat 0"
    program = f"import sys; print('{shout}', file=sys.stderr); sys.exit(1)"
    command = BotCommand((sys.executable, "-c", program), str(tmp_path), "127.0.0.1:1")
    with pytest.raises(BotFailure) as failed:
        asyncio.run(Launcher().process(command).run())
    detail = failed.value.tail
    assert detail == "\\x1b[2J\\x1b]0;pwned\\x07\\rwinner: seat 0"
    assert not any(not c.isprintable() for c in detail)


def test_a_bot_printing_millions_of_lines_costs_the_runner_little(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's stderr is looked at a chunk at a time: one search of the chunk for
    the signs of a limit, and its last few lines for the tail. Looked at line by
    line, a bot printing its whole output limit (10 MB) in two-byte lines took
    about 6 s of the runner's event loop a game, which the run's own server
    shares (its clocks and every other game's decisions), in stalls of up to
    80 ms."""
    shown: list[str] = []

    def counted(text: str) -> str:
        shown.append(text)
        return text

    monkeypatch.setattr(process, "shown_safely", counted)
    program = (
        "import sys; write = sys.stderr.buffer.write; write(b'a\\n' * 4_000_000); "
        "write(b'one\\n\\n  \\ntwo\\nMemoryError\\n'); sys.exit(1)"
    )
    command = BotCommand((sys.executable, "-c", program), str(tmp_path), "127.0.0.1:1")
    with pytest.raises(BotFailure) as failed:
        asyncio.run(Launcher().process(command).run())
    assert failed.value.tail == "a | a | one | two | MemoryError"
    assert len(shown) < 10_000, len(shown)  # a few lines a chunk, not 4 million


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


THREADS_BOT = """
import threading, time
threads = []
for _ in range(200):
    thread = threading.Thread(target=time.sleep, args=(30,), daemon=True)
    thread.start()  # each stack is 8 MB of address space: the 64 MB limit refuses one soon
    threads.append(thread)
"""


def test_a_thread_refused_by_the_memory_limit_is_blamed_on_it(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """pthread_create fails with EAGAIN both when the process limit refuses it and
    when its stack does not fit the address space: a bot with a 64 MB memory
    limit and the default process limit was told it had hit the process limit."""
    (tmp_path / "bot.py").write_text(THREADS_BOT)
    socket = tmp_path / "arena.sock"
    socket.touch()
    limits = parse_limits({"memory_mb": 64})
    command = BotCommand(
        (sys.executable, "bot.py"), str(tmp_path), "", sandbox=SandboxPolicy(limits=limits)
    )
    launcher = Launcher(str(socket))
    launcher.check()
    with pytest.raises(BotFailure) as failed:
        asyncio.run(launcher.process(command).run())
    if launcher.cgroups is not None:  # root (CI): a pids cgroup counts refused forks
        assert failed.value.reason == "memory limit (64 MB)", failed.value
    else:  # nothing counts them for an ordinary user: EAGAIN stays the process limit's
        assert failed.value.reason == f"process limit ({limits.processes})", failed.value


def test_a_machine_that_cannot_load_the_seccomp_filter_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check once started its sandbox without the filter every bot gets: where
    the kernel or a container refuses seccomp filters it passed, and every bot
    then "crashed" on bwrap's error and was ranked last."""
    refusing = tmp_path / "bwrap"
    refusing.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do [ "$a" = --seccomp ] && '
        '{ echo "bwrap: prctl(PR_SET_SECCOMP): Invalid argument" >&2; exit 1; }; done\n'
        f'exec {find_tools().bwrap} "$@"\n'
    )
    refusing.chmod(0o755)
    monkeypatch.setenv("SHEEPFOLD_BWRAP", str(refusing))
    with pytest.raises(SandboxUnavailable, match=r"seccomp filter.*CONFIG_SECCOMP_FILTER"):
        Launcher(str(tmp_path / "arena.sock")).check()


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


def test_a_bot_whose_descriptors_cannot_be_made_is_a_bot_failure_and_leaves_nothing(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """Out of descriptors (EMFILE) before the bot starts: a BotFailure, as any
    start that fails, and its socket lease is given back."""
    socket = tmp_path / "arena.sock"
    socket.touch()
    launcher = Launcher(str(socket))
    process = launcher.process(BotCommand(("true",), str(tmp_path), "", sandbox=SandboxPolicy()))

    async def out_of_descriptors() -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        lowest_free = os.open(os.devnull, os.O_RDONLY)
        os.close(lowest_free)
        resource.setrlimit(resource.RLIMIT_NOFILE, (lowest_free, hard))  # no new one
        try:
            await process.run()
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    with pytest.raises(BotFailure, match="cannot start"):
        asyncio.run(out_of_descriptors())
    assert process.cgroup is None or not any(f.exists() for f in process.cgroup.folders)


def test_root_without_cap_sys_admin_is_told_what_is_missing(sandbox_ready: None) -> None:
    """As root, each sandbox starts in a mount namespace of its own (unshare
    --mount), which needs CAP_SYS_ADMIN, unlike bwrap's user namespaces: root
    without it (a hardened service, a container) was told to check that
    unprivileged user namespaces are allowed, which they were."""
    # Run by a user, the check runs as root of a user namespace of its own.
    as_root = [] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user"]
    check = (
        "from clients.launch import Launcher, SandboxUnavailable\n"
        "try:\n    Launcher('/nonexistent.sock').check()\n"
        "except SandboxUnavailable as error:\n    print(error)\n"
    )
    done = subprocess.run(
        [
            *as_root,
            "setpriv",
            "--bounding-set=-sys_admin",
            "--inh-caps=-sys_admin",
            sys.executable,
            "-c",
            check,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "CAP_SYS_ADMIN" in done.stdout, done.stdout
    assert "user namespaces" not in done.stdout, done.stdout


def test_as_root_the_start_up_takes_no_place_of_the_bots_process_limit(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """As root the limit is a pids cgroup joined before the sandbox starts, so
    the start-up's own processes in it are counted too: bwrap's two always were.
    unshare, which stays as the parent of the sandbox's PID namespace, took one
    more place of the bot's: with `processes = 8` its shell started 4 others, not 5
    as before (and with the smallest limit, 4, it could not fork at all)."""
    tmp_path.chmod(0o755)
    (tmp_path / "forker.sh").write_text(
        "n=0\nwhile [ $n -lt 10 ]; do\n  sleep 5 &\n  n=$((n+1))\n"
        '  echo "started $n" >&2\ndone\nexit 3\n'
    )
    socket = tmp_path / "arena.sock"
    socket.touch()
    launcher = Launcher(str(socket))
    launcher.check()
    if os.geteuid() != 0:
        # An ordinary user's limit is no cgroup: it counts only the processes of
        # the bot's own user namespace, where the start-up's are not.
        assert launcher.cgroups is None
        return
    policy = SandboxPolicy(limits=parse_limits({"processes": 8}))
    bot = launcher.process(
        BotCommand(("/bin/sh", "./forker.sh"), str(tmp_path), "", sandbox=policy)
    )
    with pytest.raises(BotFailure) as failed:
        asyncio.run(bot.run())
    said = str(failed.value)
    # bwrap's two processes and the bot's shell: five places left for its sleeps.
    assert "started 5" in said and "started 6" not in said, said


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


def test_an_ordinary_users_mount_refused_in_its_namespace_is_not_blamed_on_bubblewrap() -> None:
    """As an ordinary user, unshare's user namespace mounts each sandbox's /tmp
    before bwrap starts; where that is refused (AppArmor's restriction of
    unprivileged user namespaces lets unshare make one, with no right to mount
    in it), the check said "bubblewrap cannot create a sandbox here"."""
    from clients.launch.sandbox import _why_not

    done = subprocess.CompletedProcess(["unshare"], 125, "", "mount: /sys: permission denied.\n")
    said = str(_why_not(find_tools(), done, as_root=False))
    assert "bubblewrap cannot" not in said, said
    assert "mount: /sys: permission denied." in said and "unshare" in said, said
    assert "user namespaces" in said and "\n" not in said, said


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
