"""The bubblewrap command line that jails one bot, and the check that it can run here.

A sandboxed bot gets new user, PID, network, IPC, UTS and cgroup namespaces;
read-only binds of the system's runtime (`/usr` and friends, a few files of
`/etc`, the Python that runs Sheepfold and Sheepfold's own packages), of its
own folder and of any extra folders its config names; a private tmpfs `/tmp`;
and the server's Unix socket at /sheepfold/arena.sock. Nothing else of the
host is visible, and of its own /proc the files that count for the whole
machine are hidden or shown as still stand-ins (PROC_HOST_COUNTERS,
PROC_STAND_INS). Its environment is only what the runner passes. Which host
paths every sandbox binds, and which none may, is in clients/launch/host_view.py.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from clients.bot_limits import DEFAULT_LIMITS, MIB, Limits
from clients.launch.host_view import (
    ETC_FILES,
    RUNTIME_DIRS,
    SHEEPFOLD_PACKAGES,
    held_home,
    held_temp,
    host_state,
    is_inside,
    python_runtime,
    runtime_problem,
    seen_by_every_bot,
)
from clients.launch.proc_view import (
    PROC_HOST_FOLDERS,
    PROC_STAND_INS,
    hidden_proc_files,
    proc_read_only_binds,
    proc_stand_ins,
)
from clients.launch.seccomp import refused_calls

__all__ = [
    "SANDBOX_PATH",
    "SERVER_IN_SANDBOX",
    "SHEEPFOLD_PACKAGES",
    "SHELL",
    "SOCKET_IN_SANDBOX",
    "SandboxPolicy",
    "SandboxUnavailable",
    "Tools",
    "bwrap_argv",
    "dying_with_runner",
    "file_in_memory",
    "find_tools",
    "held_home",
    "held_temp",
    "host_state",
    "in_own_namespaces",
    "is_inside",
    "resolve_program",
    "runtime_problem",
    "seen_by_every_bot",
]

SOCKET_IN_SANDBOX = "/sheepfold/arena.sock"
SERVER_IN_SANDBOX = f"unix:{SOCKET_IN_SANDBOX}"
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
SHELL = "/bin/sh"
INSTALL_HINT = (
    "install the package `bubblewrap` (Debian/Ubuntu: sudo apt-get install bubblewrap; "
    "Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)"
)


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run on this machine; the message says what to install or change."""


@dataclass(frozen=True, slots=True)
class SandboxPolicy:
    """How one bot is jailed: its limits and any extra host folders it may read."""

    limits: Limits = DEFAULT_LIMITS
    read_only: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tools:
    """The programs the sandbox is built from, found on this machine."""

    bwrap: str
    prlimit: str
    shell: str = SHELL
    runtime: tuple[str, ...] = field(default=())
    # util-linux's setpriv and unshare, which tie each sandbox's life to its
    # runner's (dying_with_runner, in_own_namespaces), and mount, which mounts
    # its /tmp and /dev/shm (find_tools requires them all); "" where missing.
    unshare: str = ""
    mount: str = ""
    setpriv: str = ""


# The sandbox's tools from util-linux (each a field of Tools), and what each is for.
_ENDS_WITH_RUNNER = "it makes each sandbox end with the runner that started it, whenever that dies"
UTIL_LINUX_TOOLS = (
    ("prlimit", "it sets the sandbox's limits"),
    ("setpriv", _ENDS_WITH_RUNNER),
    ("unshare", _ENDS_WITH_RUNNER),
    ("mount", "it mounts each sandbox's /tmp and /dev/shm, with a cap on their files"),
)
# Debian and Ubuntu ship util-linux's mount in a package of its own.
DEBIAN_PACKAGES = {"mount": "mount"}


def find_tools(environ: Mapping[str, str] | None = None) -> Tools:
    """Locate bwrap and UTIL_LINUX_TOOLS, or raise `SandboxUnavailable` saying how
    to get them.

    `SHEEPFOLD_BWRAP` names another bubblewrap binary; one that is not a
    program is named, with what is wrong with it (it was "bubblewrap is not
    installed", bwrap on PATH or not).
    """
    environ = os.environ if environ is None else environ
    named = environ.get("SHEEPFOLD_BWRAP")
    if named:
        wrong = _not_a_program(named)
        if wrong is not None:
            raise SandboxUnavailable(
                f"SHEEPFOLD_BWRAP names {named!r}, {wrong}: name bubblewrap's program "
                "there, or unset it to use the bwrap on PATH"
            )
        bwrap = named if os.sep in named else shutil.which(named) or named
    else:
        bwrap = shutil.which("bwrap") or ""
    if not bwrap or not os.access(bwrap, os.X_OK):
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed, and sandboxed bots cannot run without it: "
            f"{INSTALL_HINT}. Bots you trust can run unsandboxed (`sandbox = false` in a "
            "tournament config, --no-sandbox for sheepfold match and bot)."
        )
    found: dict[str, str] = {}
    for name, why in UTIL_LINUX_TOOLS:
        path = shutil.which(name)
        if path is None:
            raise SandboxUnavailable(
                f"{name} is not installed ({why}): install the package `util-linux` "
                f"(Debian/Ubuntu: sudo apt-get install {DEBIAN_PACKAGES.get(name, 'util-linux')})"
            )
        found[name] = path
    return Tools(
        bwrap=bwrap,
        runtime=tuple(python_runtime()),
        **found,
    )


def _not_a_program(path: str) -> str | None:
    """What keeps `path` (SHEEPFOLD_BWRAP) from being run, in a few words; None
    when it can be. A bare name is looked up on PATH, as the shell would."""
    if os.sep not in path:
        return None if shutil.which(path) else "which is not a program on PATH"
    if not os.path.lexists(path):
        return "which does not exist"
    if not os.path.exists(path):
        return "which is a symbolic link to nothing"
    if os.path.isdir(path):
        return "which is a folder, not a program"
    if not os.path.isfile(path):
        return "which is not a regular file"
    if not os.access(path, os.X_OK) or not os.stat(path).st_mode & 0o111:
        return "which is not executable (chmod +x)"
    return None


# The device nodes bwrap's --dev binds in from the host's /dev. Root owns them,
# and a bind mount that can be written lets their owner set their mode and times
# (anyone may set the times to now): changes the host, and every later sandbox,
# would see. A bot run as root could keep notes from one game to the next in
# them, or make the host's /dev/null unusable; see with_read_only_devices.
DEVICE_NODES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")

# Where the first process of a sandbox's own namespaces mounts the tmpfs of its
# /tmp and of its /dev/shm (see in_own_namespaces), in its own mount namespace:
# over the host's /sys there, which the host does not see hidden, and from which
# bwrap binds nothing (no sandbox sees the host's /sys, and no socket can be in
# it). Not /dev/shm: the server's socket may be there (TMPDIR=/dev/shm), and
# hidden from bwrap it failed every bot ("Can't find source path").
STAGING = "/sys"
STAGED_TMP = f"{STAGING}/tmp"
STAGED_SHM = f"{STAGING}/shm"


def staged_stand_in(path: str) -> str:
    """Where in_own_namespaces writes the stand-in of `path`, one of
    PROC_STAND_INS: in that tmpfs, so that the sandbox's mount table names a
    path of it, not one of the host's."""
    return f"{STAGING}/proc-{os.path.basename(path)}"


def tmpfs_inodes(tmp_bytes: int) -> int:
    """How many files and folders each of a sandbox's tmpfs folders holds: one a
    page of its size. A tmpfs counts only its files' contents against its size,
    and bwrap's holds as many inodes as half the host's pages: an empty file
    took no byte of the size, and a bot made millions, gigabytes of the kernel's
    memory that no limit counted (a memory cgroup, only as root, does)."""
    return max(tmp_bytes // 4096, 256)


def _runner_ids() -> list[str]:
    """bwrap's options giving an ordinary user's bot that user's own ids, not the
    0 of the namespace in_own_namespaces starts it in (none as root)."""
    if os.geteuid() == 0:
        return []
    return ["--uid", str(os.getuid()), "--gid", str(os.getgid())]


def runtime_args(tools: Tools, tmp_bytes: int) -> list[str]:
    """Namespaces, /tmp, the runtime's read-only binds, /proc (read-only, its
    machine-wide counters hidden or replaced by the stand-ins in_own_namespaces
    stages), /dev and /dev/shm: common to every sandbox. /tmp and /dev/shm are
    each a tmpfs of `tmp_bytes` and tmpfs_inodes, mounted before bwrap starts
    (in_own_namespaces, given the same `tmp_bytes`): bwrap cannot limit a
    tmpfs's inodes.

    /tmp comes first so that binds of folders under the host's /tmp (a bot's
    folder, a venv) land on top of it rather than being hidden by it.
    """
    args = [
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "sandbox",
        *_runner_ids(),
        "--bind",
        STAGED_TMP,
        "/tmp",
    ]
    for top in RUNTIME_DIRS:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for path in ETC_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in tools.runtime:
        args += ["--ro-bind", path, path]
    args += ["--proc", "/proc"]
    for path in proc_read_only_binds():
        args += ["--ro-bind-try", path, path]
    for path in hidden_proc_files():
        args += ["--ro-bind", os.devnull, path]
    for path in PROC_HOST_FOLDERS:
        if os.path.isdir(path):
            args += ["--tmpfs", path, "--remount-ro", path]
    for path in PROC_STAND_INS:
        args += ["--ro-bind", staged_stand_in(path), path]
    # The rest of /proc read-only too: the mode of a /proc entry that is no
    # process's belongs to the kernel, shared by every /proc on the machine.
    # And /proc/1/mem: writable, it let a bot write into bwrap's pid 1 (which
    # has none of the bot's limits) without the ptrace the seccomp filter refuses.
    args += ["--remount-ro", "/proc"]
    # /dev is a tmpfs bwrap sizes by the host's memory: /dev/shm gets the same caps
    # as /tmp (shared memory is memory), and the rest of /dev is read-only. Its
    # device nodes are the host's own, bound in (see DEVICE_NODES). Its devpts,
    # bwrap's own instance, is hidden under an empty read-only tmpfs: it has no
    # cap of its own, and its terminals come out of the machine's count
    # (kernel.pty.max less the host's reserve, 3,072 by default), which one bot
    # once took whole: every container on the host was refused a terminal.
    args += ["--dev", "/dev", "--tmpfs", "/dev/pts", "--remount-ro", "/dev/pts"]
    return [*args, "--bind", STAGED_SHM, "/dev/shm", "--remount-ro", "/dev"]


# What the first process of a start-up's own namespaces runs first (see
# in_own_namespaces). unshare sets its parent-death signal after the fork: if
# unshare, the chain's first process and so its process group's leader, is no
# longer the parent, it died before that, and the signal never comes. getppid()
# says 0 across the PID namespace's border; the host's /proc, which the
# namespace keeps, names the parent.
UNSHARE_STILL_PARENT = (
    'read -r pid name state parent group rest < /proc/self/stat && [ "$parent" = "$group" ] '
    "|| exit 125"
)
# ... and then, for itself and so for every process of the sandbox: the first
# to go when the machine runs out of memory. An ordinary user's bot has no memory
# cgroup, and what it holds in memfd files, System V segments and socket buffers
# counts in no process's size, by which the kernel's OOM killer chooses: it would
# take the largest process of the machine (the runner, its server), not the bot.
# A process may raise its own score; only CAP_SYS_RESOURCE lowers it.
OOM_KILLED_FIRST = "echo 1000 > /proc/self/oom_score_adj || exit 125"
# ... and with SIGXFSZ ignored, which every program it starts inherits, the bot
# too: its file size limit (`tmp_mb`, which is what caps a memfd file) sends
# that signal to a write past it, and its default action kills the process. A
# C, C++ or Rust bot filling its /tmp was "killed by SIGXFSZ" mid-game (Python
# and Node ignore it of themselves); ignored, the write fails with EFBIG, as
# documented.
FILE_SIZE_SIGNAL_IGNORED = "trap '' XFSZ"


def in_own_namespaces(
    tools: Tools, argv: Sequence[str], as_root: bool, tmp_bytes: int, memory_bytes: int
) -> list[str]:
    """`argv` (bwrap's command) started as the first process of PID and mount
    namespaces of its own, which the kernel empties when that process ends. bwrap's
    sandbox, its child, arms its own parent-death signal only once it is set up:
    before, it outlived a bwrap killed with the runner, and ran the bot. unshare
    kills that first process when unshare itself is killed, as it is with the
    runner (dying_with_runner). An ordinary user needs a user namespace for a
    PID namespace: it maps only that user, as bwrap's own does. (The signal
    lasts through the exec of bwrap even where bwrap is setuid: root gains
    nothing by it, and the kernel ignores the bit in a namespace without root.)

    In its mount namespace it mounts the tmpfs of the sandbox's /tmp and of its
    /dev/shm, each of `tmp_bytes` and tmpfs_inodes, under STAGING (see
    runtime_args), and the stand-ins of PROC_STAND_INS, for a bot of
    `memory_bytes` (proc_stand_ins). As root it also binds the host's DEVICE_NODES
    bound read-only over themselves: bwrap binds them into the sandbox from
    there, read-only (a read-only mount of a device still reads and writes the
    device; bwrap's own --remount-ro would also forbid opening it). The host's
    mounts are unchanged, and the namespaces end with the sandbox."""
    tmpfs = f"size={tmp_bytes},nr_inodes={tmpfs_inodes(tmp_bytes)},mode=755"
    setup = (
        f'"$0" -t tmpfs -o size=1m,nr_inodes=16,mode=700 sheepfold {STAGING} && '
        f'"$0" -t tmpfs -o X-mount.mkdir,{tmpfs} sheepfold {STAGED_TMP} && '
        f'"$0" -t tmpfs -o X-mount.mkdir,{tmpfs} sheepfold {STAGED_SHM} || exit 125; '
    )
    for path, text in proc_stand_ins(memory_bytes).items():
        setup += f"printf %s {shlex.quote(text)} > {staged_stand_in(path)} || exit 125; "
    if as_root:
        nodes = " ".join(node for node in DEVICE_NODES if os.path.exists(node))
        setup += (
            f"for node in {nodes}; do "
            f'"$0" --bind "$node" "$node" && "$0" -o remount,bind,ro "$node" || exit 125; '
            "done; "
        )
        namespaces = ["--mount", "--propagation", "private"]
    else:
        # mount(8) mounts only for uid 0: the namespace's root is the runner's
        # user, and bwrap maps the bot back to the runner's own ids (runtime_args).
        namespaces = ["--user", "--map-root-user", "--mount", "--propagation", "private"]
    script = (
        f'{UNSHARE_STILL_PARENT}; {OOM_KILLED_FIRST}; {FILE_SIZE_SIGNAL_IGNORED}; {setup}exec "$@"'
    )
    return [
        tools.unshare,
        *namespaces,
        "--pid",
        "--kill-child",
        "--",
        tools.shell,
        "-c",
        script,
        tools.mount,
        *argv,
    ]


# What setpriv runs once it has set the parent-death signal: if the runner (pid
# $0) is no longer the parent, it died before that, and the signal never comes.
RUNNER_STILL_PARENT = '[ "$PPID" = "$0" ] || exit 125; exec "$@"'


def dying_with_runner(setpriv: str, shell: str, runner: int, argv: Sequence[str]) -> list[str]:
    """`argv` started so that it is SIGKILLed when `runner`, the process starting
    it, dies, whenever that is: from the first instruction of the first program on.

    The signal lasts through the execs that follow (the cgroup's shell, unshare,
    or a trusted bot's program), though not through a setuid program's; it is
    not inherited by a fork (see in_own_namespaces). The kernel sends it when
    the *thread* that forked the chain ends, not only the process (see
    BotProcess.run).
    """
    return [
        setpriv,
        "--pdeathsig",
        "KILL",
        "--",
        shell,
        "-c",
        RUNNER_STILL_PARENT,
        str(runner),
        *argv,
    ]


def bwrap_argv(
    tools: Tools,
    policy: SandboxPolicy,
    argv: Sequence[str],
    folder: str,
    socket: str,
    env: Mapping[str, str],
) -> tuple[list[str], list[str]]:
    """bwrap's options (namespaces, binds, environment), and the command it runs:
    prlimit, then the bot."""
    if os.path.realpath(folder) == "/":
        raise ValueError("a sandboxed bot's folder cannot be / (it would see the whole host)")
    for path in (folder, *policy.read_only):
        host = host_state(path)
        if host is not None:
            raise ValueError(f"a sandboxed bot cannot see the host's {host} ({path})")
    args = runtime_args(tools, policy.limits.tmp_mb * MIB)
    for path in policy.read_only:
        args += ["--ro-bind", path, path]
    args += ["--ro-bind", folder, folder, "--chdir", folder]
    args += ["--ro-bind", socket, SOCKET_IN_SANDBOX]
    # bwrap builds the root on an unlimited tmpfs: read-only, so /tmp is the only place to write.
    args += ["--remount-ro", "/", "--clearenv"]
    # glibc reserves 64 MB of address space per malloc arena, up to 8 per core:
    # a gRPC bot with a few threads reaches 700 MB before it allocates anything,
    # so the address-space limit would hit well-behaved bots on big machines.
    base = {
        "PATH": SANDBOX_PATH,
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "MALLOC_ARENA_MAX": "2",
    }
    for name, value in {**base, **env, "SHEEPFOLD_SERVER": SERVER_IN_SANDBOX}.items():
        args += ["--setenv", name, value]
    program = resolve_program(argv[0], folder)
    return args, [tools.prlimit, *policy.limits.prlimit_args(), "--", program, *argv[1:]]


def resolve_program(program: str, folder: str) -> str:
    """A bare program name found on the host's PATH (the runtime is bound at the same paths)."""
    if "/" in program:
        return program
    return shutil.which(program) or program


def probe(tools: Tools) -> None:
    """Start one empty sandbox, with the bots' seccomp filter; raise
    `SandboxUnavailable` explaining why it failed."""
    argv = [tools.bwrap, *runtime_args(tools, MIB), "--", tools.prlimit, "--nproc=64:64", "true"]
    seccomp = refused_calls()
    pass_fds: tuple[int, ...] = ()
    as_root = os.geteuid() == 0
    if as_root and not (tools.unshare and tools.mount):
        raise SandboxUnavailable(
            "running sandboxed bots as root needs unshare and mount (the package "
            "`util-linux`), to show them the host's device nodes read-only"
        )
    try:
        if seccomp is not None:
            pass_fds = (file_in_memory(seccomp),)
            argv[1:1] = ["--seccomp", str(pass_fds[0])]
        argv = in_own_namespaces(tools, argv, as_root, MIB, DEFAULT_LIMITS.memory_mb * MIB)
        argv = dying_with_runner(tools.setpriv, tools.shell, os.getpid(), argv)
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            pass_fds=pass_fds,
            start_new_session=True,  # as bots are: in_own_namespaces needs it
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SandboxUnavailable(
            f"bubblewrap ({tools.bwrap}) could not be started: {error}"
        ) from None
    finally:
        for fd in pass_fds:
            os.close(fd)
    if done.returncode != 0:
        raise _why_not(tools, done, as_root)


USERNS_HINT = (
    "It needs unprivileged user namespaces: check that `sysctl user.max_user_namespaces` "
    "is above 0 (and on Ubuntu 24.04+ that AppArmor lets bwrap and unshare use them: "
    "kernel.apparmor_restrict_unprivileged_userns=0, or a profile for each); inside a "
    "container, start it with --security-opt seccomp=unconfined --security-opt "
    "apparmor=unconfined --security-opt systempaths=unconfined (see "
    "docs/operations.md, Running untrusted bots)."
)


def _why_not(
    tools: Tools, done: subprocess.CompletedProcess[str], as_root: bool
) -> SandboxUnavailable:
    """What the probe's failure (`done`) means, and what to do."""
    said = done.stderr.strip().splitlines()
    first = said[0] if said else ""
    if first.startswith(("setpriv:", "unshare:")) and "option" in first:
        return SandboxUnavailable(
            f"this util-linux is too old for the sandbox ({first}): it needs 2.35 or later"
        )
    if as_root and first.startswith(("unshare:", "mount:")):
        # in_own_namespaces failed, before bwrap started: not a matter of user
        # namespaces (bwrap needs no capability; unshare --mount does).
        return SandboxUnavailable(
            f"running sandboxed bots as root needs the capability CAP_SYS_ADMIN, to "
            f"start each in mount and PID namespaces of its own, which show it the host's "
            f"device nodes read-only ({first}): run Sheepfold as an ordinary user (its "
            "bots then need no capability), or as root with CAP_SYS_ADMIN"
        )
    if first.startswith("mount:"):
        return SandboxUnavailable(
            "each sandbox's /tmp and /dev/shm are mounted in a user namespace of its own, "
            f"made by unshare, before bubblewrap starts ({first}). {USERNS_HINT}"
        )
    if first.startswith("unshare:"):
        return SandboxUnavailable(
            "each sandbox starts in a user and a PID namespace of its own, made by unshare, "
            f"so that it ends with the runner whenever that dies ({first}). {USERNS_HINT}"
        )
    if "system call filtering" in done.stderr or "seccomp" in done.stderr.lower():
        return SandboxUnavailable(
            f"bubblewrap cannot load the sandbox's seccomp filter here "
            f"({said[-1] if said else done.returncode}): the kernel needs "
            "CONFIG_SECCOMP_FILTER, and a container must let its processes load "
            "seccomp filters (see docs/operations.md, Running untrusted bots)."
        )
    return SandboxUnavailable(
        f"bubblewrap cannot create a sandbox here ({said[-1] if said else done.returncode}). "
        + USERNS_HINT
    )


def file_in_memory(data: bytes) -> int:
    """A descriptor reading `data` from its start: an anonymous file, not a pipe,
    which would hold only 64 KB before the write waited for a reader that is not
    started yet (a long `env` in a config hung the runner's event loop)."""
    fd = os.memfd_create("sheepfold-bwrap-options")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
