"""The launcher's failures, each a clear error: a machine that lacks a tool the
sandbox needs (bubblewrap, util-linux, a cgroup, the seccomp filter,
CAP_SYS_ADMIN for root, a mount an ordinary user may make), a bot that cannot be
started, and what a failed bot printed, shown but never obeyed."""

from __future__ import annotations

import asyncio
import errno
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clients.launch import BotCommand, BotFailure, Launcher, SandboxUnavailable, process
from clients.launch.cgroup import BotCgroup, Hierarchies
from clients.launch.sandbox import SandboxPolicy, find_tools
from tests.conftest import ROOT
from tournament.config import parse_config
from tournament.runner import RunError, run_tournament


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
