"""Starting one bot program for one seat, sandboxed or not, and telling how it ended.

This is the only place Sheepfold starts bot processes: `sheepfold bot`,
`sheepfold match` and the tournament runner all come through `Launcher`.
The bot's stdout and stderr are read (and counted against its output limit);
the last lines of stderr explain a crash. A failure is a `BotFailure` whose
`reason` names the limit the bot hit ("memory limit", "CPU limit", ...) when
one did.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.bot_limits import CORE_BYTES, MIB
from clients.escaped_text import shown_safely
from clients.launch.cgroup import (
    BotCgroup,
    Hierarchies,
    find_cpu_hierarchy,
    find_hierarchies,
    remove_stale,
    try_cpu_limit,
)
from clients.launch.cpu_watch import CpuWatch
from clients.launch.sandbox import (
    SANDBOX_PATH,
    SHELL,
    SandboxPolicy,
    SandboxUnavailable,
    Tools,
    bwrap_argv,
    dying_with_runner,
    file_in_memory,
    find_tools,
    in_own_namespaces,
    probe,
    runtime_problem,
)
from clients.launch.seccomp import refused_calls
from clients.launch.socket_dir import SocketLeases

__all__ = ["BotCommand", "BotFailure", "BotProcess", "Launcher"]

TAIL_LINES = 5
ARGS_FD = "{args-fd}"  # replaced by the descriptor carrying bwrap's options
SECCOMP_FD = "{seccomp-fd}"  # ... and by the one carrying its seccomp filter
CHUNK = 65536
# Once the program has exited, how long its output is still read when a process
# it left behind holds the pipes open, and how often its exit is looked for.
DRAIN_SECONDS = 1.0
EXIT_POLL_SECONDS = 0.25
# As root, unshare stays in a bot's pids cgroup as the parent of its PID namespace
# (in_own_namespaces): a place added for it, not taken from the bot's limit.
UNSHARE_PROCESSES = 1
CPUS_HINT = "or remove the `cpus` limit to run the bots without a cap on their cores"
# What runtimes print when an allocation fails (Python, C, C++, Node, Go, shells).
MEMORY_SIGNS = (
    "memoryerror",
    "out of memory",
    "cannot allocate memory",
    "bad_alloc",
    "allocation failed",
    "failed to reserve",
)
# What they print when a new process or thread is refused.
PROCESS_SIGNS = (
    "resource temporarily unavailable",
    "cannot fork",
    "can't start new thread",
    "blockingioerror",
    "fork: retry",
    "pthread_create failed",
)


class BotFailure(Exception):
    """The bot's program ended badly; `reason` is the short cause ("memory limit", ...)."""

    def __init__(self, reason: str, tail: str = "") -> None:
        super().__init__(reason + (f": {tail}" if tail else ""))
        self.reason = reason
        self.tail = tail


@dataclass(frozen=True, slots=True)
class BotCommand:
    """One bot program for one seat of one match.

    `folder` is its working folder and, sandboxed, the only one of its own
    files it sees. `env` holds what the runner passes (SHEEPFOLD_MATCH,
    SHEEPFOLD_TOKEN, ... and the config's `env`); `server` is the address an
    unsandboxed bot is given (a sandboxed one always gets the Unix socket).
    """

    argv: tuple[str, ...]
    folder: str
    server: str
    env: Mapping[str, str] = field(default_factory=dict)
    sandbox: SandboxPolicy | None = None


class Launcher:
    """Starts bot processes. `server_socket` is the host path of the server's Unix
    socket, or several: each sandboxed bot is then given one that as few other
    running bots hold as possible."""

    def __init__(self, server_socket: str | Sequence[str] | None = None) -> None:
        if isinstance(server_socket, str):
            server_socket = (server_socket,)
        # Absolute now, in the caller's current folder, where `unix:arena.sock`
        # reached the server: bwrap starts in the bot's folder, and bound a
        # relative path from there, where a stranger's link of that name showed
        # its bot any file of the host in place of the socket.
        self.server_sockets = tuple(os.path.abspath(path) for path in server_socket or ())
        self._leases = SocketLeases(self.server_sockets) if self.server_sockets else None
        self._tools: Tools | None = None
        self._cgroups: Hierarchies | None = None
        self._cpus_tried = 0.0  # the largest `cpus` limit set once (_check_cpus)

    def serving(self, server_socket: str | Sequence[str] | None) -> Launcher:
        """A launcher for bots that reach the server through `server_socket`,
        with this one's sandbox as found and tried (its `check` is not made
        again): a run tries the sandbox before it starts the server whose
        sockets its bots are given."""
        launcher = Launcher(server_socket)
        launcher._tools, launcher._cgroups = self._tools, self._cgroups
        launcher._cpus_tried = self._cpus_tried
        return launcher

    @functools.cached_property
    def _setpriv(self) -> str | None:
        """What ties a trusted bot's life to the runner's; None: it runs without,
        where util-linux's setpriv is missing or too old (the sandbox alone
        requires it). Looked for at the first trusted bot."""
        return _setpriv_with_pdeathsig()

    def check(self, cpus: float | None = None) -> Tools:
        """Find and try the sandbox once; raise `SandboxUnavailable` saying what is
        missing. `cpus`: the largest `cpus` limit of the bots, which must be enforced."""
        tools = self._check()
        if cpus is not None and cpus > self._cpus_tried:
            self._check_cpus(cpus)
            self._cpus_tried = cpus
        return tools

    def _check_cpus(self, cpus: float) -> None:
        """Find the cpu hierarchy the `cpus` limit needs and set that limit once
        in it, or refuse: never run a bot without a limit its config asked for."""
        if self._cgroups is None:
            raise SandboxUnavailable(
                "the `cpus` limit needs a cpu cgroup, which Sheepfold makes for its bots "
                f"only when run as root: run it as root with a writable /sys/fs/cgroup, {CPUS_HINT}"
            )
        if self._cgroups.cpu is None:
            self._cgroups.cpu = find_cpu_hierarchy()
        if self._cgroups.cpu is None:
            raise SandboxUnavailable(
                "the `cpus` limit needs the cgroup `cpu` controller, and no writable "
                "hierarchy here has it (cgroup v2 with `cpu` in cgroup.controllers, or a "
                f"v1 `cpu` mount): give Sheepfold a writable /sys/fs/cgroup with it, {CPUS_HINT}"
            )
        try:
            try_cpu_limit(self._cgroups.cpu, cpus)
        except OSError as error:
            # cgroup v1 refuses more than the quota of the cgroup Sheepfold runs in.
            raise SandboxUnavailable(
                f"cannot set the `cpus` limit of {cpus:g} under {self._cgroups.cpu}: "
                f"{error.strerror or error} (on cgroup v1 the cgroup Sheepfold runs in "
                "allows fewer cores): ask for fewer cores, or give Sheepfold more"
            ) from None

    def _check(self) -> Tools:
        if self._tools is not None:
            return self._tools
        tools = find_tools()
        problem = runtime_problem()
        if problem is not None:
            raise SandboxUnavailable(
                "every sandbox shows its bot the Python running Sheepfold, with "
                f"Sheepfold's packages, and {problem}: run Sheepfold from a Python "
                "or venv installed in a folder of its own"
            )
        probe(tools)
        if os.geteuid() == 0:
            self._cgroups = find_hierarchies()
            if self._cgroups is None:
                raise SandboxUnavailable(
                    "running sandboxed bots as root needs a writable pids cgroup (the kernel "
                    "does not enforce process limits on root): run Sheepfold as an ordinary "
                    "user, or give it a writable /sys/fs/cgroup"
                )
            remove_stale(self._cgroups)
            # Bots' cpu cgroups left behind, in a v1 hierarchy of their own.
            stale_cpu = find_cpu_hierarchy(enable=False)
            if stale_cpu is not None and stale_cpu not in self._cgroups.roots:
                remove_stale(Hierarchies(stale_cpu, None))
        self._tools = tools
        return tools

    @property
    def cgroups(self) -> Hierarchies | None:
        """Where bots' cgroups are made (as root, after `check`), else None."""
        return self._cgroups

    def process(self, command: BotCommand) -> BotProcess:
        if command.sandbox is None:
            # A trusted bot keeps the environment, but not the token that creates
            # matches and reads the server's private records.
            inherited = {k: v for k, v in os.environ.items() if k != "SHEEPFOLD_ADMIN_TOKEN"}
            env = {**inherited, **command.env, "SHEEPFOLD_SERVER": command.server}
            argv = list(command.argv)
            if self._setpriv is not None:
                argv = dying_with_runner(self._setpriv, SHELL, os.getpid(), argv)
            return BotProcess(command, argv, env)
        tools = self.check(cpus=command.sandbox.limits.cpus)
        if self._leases is None:
            raise SandboxUnavailable(
                "sandboxed bots reach the server only through its Unix socket: serve on one "
                "(sheepfold serve --listen unix:PATH) and pass --server unix:PATH"
            )
        socket = self._leases.lease()
        try:
            return self._sandboxed(tools, command, socket)
        except BaseException:
            self._leases.release(socket)
            raise

    def _sandboxed(self, tools: Tools, command: BotCommand, socket: str) -> BotProcess:
        assert command.sandbox is not None and self._leases is not None
        options, inner = bwrap_argv(
            tools, command.sandbox, command.argv, command.folder, socket, command.env
        )
        # The options go through a descriptor (bwrap --args), so that the sandbox's own
        # /proc/1/cmdline shows no host paths, nor anything else of the setup.
        argv = [tools.bwrap, "--args", ARGS_FD, "--", *inner]
        in_memory = {ARGS_FD: b"".join(option.encode() + b"\0" for option in options)}
        seccomp = refused_calls()
        if seccomp is not None:  # None: a machine the filter has no call numbers for
            argv[1:1] = ["--seccomp", SECCOMP_FD]
            in_memory[SECCOMP_FD] = seccomp
        # The core dump limit, which the seccomp filter keeps the bot from setting
        # (CORE_BYTES): set here, before bwrap loads the filter, as the other limits
        # cannot be (prlimit_args).
        core = core_bytes()
        argv = [tools.prlimit, f"--core={core}:{core}", "--", *argv]
        cgroup = None
        argv = in_own_namespaces(
            tools,
            argv,
            as_root=self._cgroups is not None,
            tmp_bytes=command.sandbox.limits.tmp_mb * MIB,
            memory_bytes=command.sandbox.limits.memory_mb * MIB,
        )
        if self._cgroups is not None:  # as root
            limits = command.sandbox.limits
            pids = limits.processes + UNSHARE_PROCESSES
            try:
                cgroup = BotCgroup.create(self._cgroups, pids, limits.charged_bytes, limits.cpus)
            except OSError as error:
                raise SandboxUnavailable(
                    f"cannot make the bot's cgroup under {self._cgroups.pids}: "
                    f"{error.strerror or error}"
                ) from None
            argv = cgroup.join_command(argv, tools.shell)
        # Outermost, so that no step of the start-up outlives a runner killed during it.
        argv = dying_with_runner(tools.setpriv, tools.shell, os.getpid(), argv)
        # Every program of the chain is named by its full path. bwrap, the sandbox's
        # first process, keeps the environment it was started with, which the bot
        # reads in /proc/1/environ: the runner's PATH showed it the organiser's
        # user name and home folders.
        env = {"PATH": SANDBOX_PATH}
        leases = self._leases
        return BotProcess(
            command, argv, env, cgroup, in_memory, on_end=lambda: leases.release(socket)
        )


def core_bytes(hard: int | None = None) -> int:
    """The core dump limit of a sandboxed bot: CORE_BYTES, or 0 where the
    runner's own hard limit (`hard`, read when None) is 0, as a container's or
    a service's may be, and no process without CAP_SYS_RESOURCE may raise it:
    an ordinary user's prlimit asking for more fails, and so would every bot.
    The host's core program then runs for its crashes, where
    kernel.core_pattern is a pipe (docs/operations.md)."""
    if hard is None:
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
    if hard == resource.RLIM_INFINITY or hard >= CORE_BYTES:
        return CORE_BYTES
    return hard


def _setpriv_with_pdeathsig() -> str | None:
    """util-linux's setpriv where it sets a parent-death signal (2.33 or later):
    an older one rejects --pdeathsig, and would fail every trusted bot."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    try:
        done = subprocess.run(
            [setpriv, "--pdeathsig", "KILL", "--", SHELL, "-c", ":"],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return setpriv if done.returncode == 0 else None


class BotProcess:
    """A started (or about to start) bot program; `run()` returns when it has ended."""

    def __init__(
        self,
        command: BotCommand,
        argv: list[str],
        env: dict[str, str],
        cgroup: BotCgroup | None = None,
        in_memory: Mapping[str, bytes] | None = None,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self.command = command
        self._on_end = on_end  # called once, when the program has ended
        # Placeholders in argv, each replaced by a descriptor reading its bytes.
        self.in_memory = dict(in_memory or {})
        self.argv = argv
        self.env = env
        self.cgroup = cgroup
        self.output_bytes = 0
        self._process: asyncio.subprocess.Process | None = None
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._signs: set[str] = set()
        self._over_output = False
        self._refused_forks = 0
        self._oom_kills = 0
        self._counted = False  # a cgroup counted the refused forks and OOM kills
        self._cpu_watch: CpuWatch | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def stderr_tail(self) -> str:
        """The last lines its stderr held (a failure's explanation), made safe to show."""
        return " | ".join(self._tail)

    async def run(self) -> None:
        """Run to the end; raise `BotFailure` unless the program exited with status 0."""
        if not os.path.isdir(self.command.folder):
            await self._cleanup()
            raise BotFailure(f"the bot's folder {self.command.folder} does not exist")
        fds: dict[str, int] = {}
        try:
            for placeholder, data in self.in_memory.items():
                fds[placeholder] = file_in_memory(data)
        except OSError as error:
            for fd in fds.values():
                os.close(fd)
            await self._cleanup()
            raise BotFailure(f"cannot start {self.command.argv[0]!r}: {error}") from None
        argv = list(self.argv)
        for placeholder, fd in fds.items():
            # The first is bwrap's own option; the bot's arguments, later, stay as given.
            argv[argv.index(placeholder)] = str(fd)
        pass_fds = tuple(fds.values())
        # No preexec_fn: it would make Python fork() instead of vfork(), and gRPC's
        # fork handlers then crash the child now and then before it can exec.
        # asyncio forks in this loop's thread, whose end (not only the process's)
        # fires the parent-death signal of dying_with_runner: the thread cannot end
        # while this coroutine runs, and the bot is killed before it returns.
        try:
            self._process = await asyncio.create_subprocess_exec(
                *argv,
                cwd=self.command.folder,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,  # in_own_namespaces needs it too
                pass_fds=pass_fds,
            )
        except OSError as error:
            await self._cleanup()
            raise BotFailure(f"cannot start {self.command.argv[0]!r}: {error}") from None
        finally:
            for fd in pass_fds:
                os.close(fd)
        watching: asyncio.Task[None] | None = None
        if self.command.sandbox is not None:
            self._cpu_watch = CpuWatch(self._process.pid, self.command.sandbox.limits.cpu_seconds)
            watching = asyncio.create_task(self._cpu_watch.run())
        try:
            assert self._process.stdout is not None and self._process.stderr is not None
            pumps = asyncio.gather(
                self._pump(self._process.stdout, keep=False),
                self._pump(self._process.stderr, keep=True),
            )
            await self._until_ended(pumps)
            code = await self._process.wait()
        finally:
            if watching is not None:
                watching.cancel()
            await self.kill()
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            # Cancelled while it was killing the program, and the cancel lost on
            # the way (Python 3.11's wait_for drops one that races its result):
            # it raised BotFailure instead, which asyncio.run's shutdown printed
            # with a traceback after a Ctrl-C of `sheepfold match`.
            raise asyncio.CancelledError
        reason = self._reason(code)
        if reason is not None:
            raise BotFailure(reason, self.stderr_tail)

    async def _until_ended(self, pumps: asyncio.Future[Any]) -> None:
        """Read the program's output until it has ended: until both pipes are
        closed, or, once it has exited, DRAIN_SECONDS more. A program it started
        in a session of its own (which only an unsandboxed bot can leave behind)
        may hold its stdout open for ever: its exit was once seen only when that
        process ended, a bot that crashed mid-match was not replaced, and the
        pipes left open printed "Event loop is closed" and a traceback as
        `sheepfold match` exited. Its pipes are then closed here."""
        assert self._process is not None
        exited_at: float | None = None
        loop = asyncio.get_running_loop()
        try:
            while not pumps.done():
                await asyncio.wait((pumps,), timeout=EXIT_POLL_SECONDS)
                if pumps.done() or self._process.returncode is None:
                    continue
                if exited_at is None:
                    exited_at = loop.time()
                elif loop.time() - exited_at >= DRAIN_SECONDS:
                    self._close_pipes()
                    await pumps
        except BaseException:
            # Cancelled (Ctrl-C): asyncio.wait leaves the readers running, unlike
            # awaiting them; they end here, and how is read, or the loop's end
            # prints "_GatheringFuture exception was never retrieved".
            pumps.cancel()
            pumps.add_done_callback(_retrieved)
            raise
        pumps.result()

    def _close_pipes(self) -> None:
        """Stop reading the program's stdout and stderr (their readers then see
        their end), once the program has exited: asyncio's transport, closed
        before, would reap it behind the child watcher's back."""
        process = self._process
        transport = getattr(process, "_transport", None)
        if process is not None and process.returncode is not None and transport is not None:
            transport.close()

    async def kill(self) -> None:
        """Kill the program with its whole process tree (the sandbox's PID
        namespace), and stop reading its output: a process an unsandboxed bot
        left behind in a session of its own may hold its pipes open."""
        process = self._process
        if process is not None and process.returncode is None:
            # The group is the bot (started in a session of its own). Killing it
            # through asyncio as well reaped it behind the child watcher's back,
            # which then warned of an "unknown child process".
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            except PermissionError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._exited(), 5.0)
        self._close_pipes()  # else wait() waits for them too
        if process is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), 5.0)
        await self._cleanup()

    async def _exited(self) -> None:
        """Until the child watcher has seen the program exit (wait() waits for
        its pipes to close as well)."""
        assert self._process is not None
        while self._process.returncode is None:
            await asyncio.sleep(0.01)

    async def _cleanup(self) -> None:
        on_end, self._on_end = self._on_end, None
        if on_end is not None:
            on_end()
        if self.cgroup is not None:
            cgroup, self.cgroup = self.cgroup, None
            self._refused_forks = cgroup.refused_forks()
            self._oom_kills = cgroup.oom_kills()
            self._counted = True
            await asyncio.to_thread(cgroup.remove)

    async def _pump(self, stream: asyncio.StreamReader, keep: bool) -> None:
        limits = self.command.sandbox.limits if self.command.sandbox else None
        pending = b""
        while chunk := await stream.read(CHUNK):
            self.output_bytes += len(chunk)
            if limits is not None and self.output_bytes > limits.output_bytes:
                if not self._over_output:
                    self._over_output = True
                    await self.kill()
                continue
            if not keep:
                continue
            pending += chunk
            *lines, pending = pending.split(b"\n")
            pending = pending[-4096:]
            if lines:
                self._note(lines)
        if keep and pending:
            self._note([pending])

    def _note(self, lines: list[bytes]) -> None:
        """Look at the lines of a chunk of stderr together: for the signs of a
        limit, in one search of the whole chunk, and for the tail, at its last
        few lines only. Line by line, a bot printing its output limit in
        two-byte lines (5 million in 10 MB) took about 6 s of the event loop a
        game, which the run's own server shares, in stalls of up to 80 ms."""
        lowered = b"\n".join(lines).decode(errors="replace").lower()
        if any(sign in lowered for sign in MEMORY_SIGNS):
            self._signs.add("memory")
        if any(sign in lowered for sign in PROCESS_SIGNS):
            self._signs.add("process")
        last: list[str] = []
        for raw in reversed(lines):
            if not raw or raw.isspace():
                continue
            line = raw.decode(errors="replace").rstrip()
            if line:
                last.append(line)
                if len(last) == TAIL_LINES:
                    break
        for line in reversed(last):
            self._tail.append(shown_safely(line[:500]))

    def limit_hit(self) -> str | None:
        """The sandbox limit the program ran into, once it has ended or been
        killed: "process limit (64)" for a fork bomb whose forks were refused,
        "memory limit (1024 MB)"; None when none was seen. A program that
        hit one and lived on (a fork bomb retrying, a bot that never joined
        its seat) was only "disqualified" for the deadlines it then missed."""
        limits = self.command.sandbox.limits if self.command.sandbox else None
        if limits is None:
            return None
        if self._over_output:
            return f"output limit ({limits.output_mb:g} MB)"
        if "memory" in self._signs or self._oom_kills:
            return f"memory limit ({limits.memory_mb} MB)"
        if self._refused_forks or ("process" in self._signs and not self._counted):
            return f"process limit ({limits.processes})"
        if "process" in self._signs:
            # A thread refused while the pids cgroup refused no fork: its stack
            # did not fit the address-space limit (both fail with EAGAIN).
            return f"memory limit ({limits.memory_mb} MB)"
        return None

    def _reason(self, code: int) -> str | None:
        limits = self.command.sandbox.limits if self.command.sandbox else None
        if code < 0:  # killed by a signal (unsandboxed); bwrap reports 128 + signal
            code = 128 - code
        if self._over_output and limits is not None:
            return f"output limit ({limits.output_mb:g} MB)"
        if code == 0:
            return None
        if limits is not None:
            if code == 128 + signal.SIGXCPU or (
                code == 128 + signal.SIGKILL and self._cpu_watch and self._cpu_watch.passed_limit
            ):
                return f"CPU limit ({limits.cpu_seconds} s)"
            hit = self.limit_hit()
            if hit is not None:
                return hit
        if code > 128:
            try:
                return f"killed by {signal.Signals(code - 128).name}"
            except ValueError:
                pass
        return f"exit code {code}"


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Reads how `future` ended, so that asyncio never reports it unread."""
    if not future.cancelled():
        future.exception()
