"""Launching a tournament's command bots: which are sandboxed, what they would
see (checked before any game), and the launcher that starts them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from clients.launch import Launcher, SandboxUnavailable
from clients.launch.sandbox import seen_by_every_bot
from tournament.config import TournamentConfig
from tournament.executors.settings import GameExecutor
from tournament.run_error import RunError
from tournament.sandbox_config import check_folders
from tournament.seats import bot_folder


def sandboxed_bots(config: TournamentConfig) -> list[str]:
    return [bot.name for bot in config.bots if bot.command is not None and bot.sandbox]


def caps_cores(config: TournamentConfig) -> float | None:
    """The largest `cpus` limit of the sandboxed bots (which the launcher must be
    able to enforce), or None."""
    caps = [
        bot.sandbox.limits.cpus
        for bot in config.bots
        if bot.command is not None and bot.sandbox and bot.sandbox.limits.cpus is not None
    ]
    return max(caps, default=None)


def socket_of(address: str) -> str | None:
    return address.removeprefix("unix:") if address.startswith("unix:") else None


def _only_through_a_socket(sandboxed: Sequence[str]) -> RunError:
    return RunError(
        f"sandboxed bots ({', '.join(sandboxed)}) reach the server only through its Unix "
        "socket: start it with `sheepfold serve --listen unix:PATH` and pass "
        "--server unix:PATH (or run without --server)"
    )


def sandboxed_server_refusal(config: TournamentConfig, server: str, *, on_ray: bool) -> str | None:
    """Why `config`'s sandboxed bots cannot play on `server`, or None: they
    reach a server only through a Unix socket, and on Ray only through the one
    each game hosts. The command line's mistake, said before anything starts."""
    sandboxed = sandboxed_bots(config)
    if not sandboxed:
        return None
    if on_ray:
        return (
            f"sandboxed bots ({', '.join(sandboxed)}) reach a server only through its Unix "
            "socket, so on Ray each game hosts its own server: run --ray without --server, "
            "or set sandbox = false for bots you trust"
        )
    if socket_of(server) is None:
        return str(_only_through_a_socket(sandboxed))
    return None


def refuse_sandboxed_on_tcp(config: TournamentConfig, server: str) -> None:
    """RunError when `config` has sandboxed bots and `server` is not a Unix
    socket: a mistake in the command line, found before the server is asked
    (which would name an address the bots could never use anyway)."""
    if refused := sandboxed_server_refusal(config, server, on_ray=False):
        raise RunError(refused)


def check_what_bots_see(config: TournamentConfig, database: str) -> None:
    """RunError when a sandboxed bot would see the database or another bot's
    files (see sandbox_config.check_folders); checked before any game, on the
    driver for a Ray run too."""
    sandboxed = sandboxed_bots(config)
    if not sandboxed:
        return
    folders = {
        bot.name: bot_folder(bot, config.base_dir) for bot in config.bots if bot.command is not None
    }
    read_only = {bot.name: bot.sandbox.read_only for bot in config.bots if bot.sandbox is not None}
    problem = check_folders(
        folders, sandboxed, database, read_only, seen_by_every_bot(), config.base_dir
    )
    if problem:
        raise RunError(problem)


async def launcher_for(
    config: TournamentConfig,
    database: str,
    socket: str | Sequence[str] | None,
    executor: GameExecutor | None,
    tried: Launcher | None = None,
    *,
    seen_checked: bool = False,
) -> Launcher:
    """The launcher for the command bots, checked before any game. An executor's
    workers launch the bots beside their own servers: here only what the
    sandboxed bots would see is checked. `tried`: check_sandbox's launcher, whose
    sandbox is not tried again; `seen_checked`: what the bots would see was
    checked already (run_checks.check_before_start), and is not again."""
    if executor is None:
        return await prepare_launcher(config, database, socket, tried, seen_checked=seen_checked)
    if not seen_checked:
        check_what_bots_see(config, database)
    return Launcher(None)


async def prepare_launcher(
    config: TournamentConfig,
    database: str,
    server_socket: str | Sequence[str] | None,
    tried: Launcher | None = None,
    *,
    seen_checked: bool = False,
) -> Launcher:
    """The launcher for the command bots, with the sandbox checked before any
    game (tried once a process: `tried`, check_sandbox's, is not tried again;
    what the bots would see is checked unless `seen_checked`)."""
    launcher = Launcher(server_socket) if tried is None else tried.serving(server_socket)
    sandboxed = sandboxed_bots(config)
    if not sandboxed:
        return launcher
    if not seen_checked:
        check_what_bots_see(config, database)
    if not server_socket:
        raise _only_through_a_socket(sandboxed)
    await asyncio.to_thread(_check_sandbox, launcher, config, sandboxed)
    return launcher


def check_sandbox(config: TournamentConfig) -> Launcher | None:
    """RunError when the sandbox the config's sandboxed bots need cannot be
    made here (bubblewrap missing, a `cpus` limit without a cpu cgroup, ...):
    tried before a run starts its server. The launcher that tried it (None
    without sandboxed bots), for launcher_for: the launcher the games use is
    made from it once the server's sockets are known, without a second try."""
    sandboxed = sandboxed_bots(config)
    if not sandboxed:
        return None
    launcher = Launcher(None)
    _check_sandbox(launcher, config, sandboxed)
    return launcher


def _check_sandbox(launcher: Launcher, config: TournamentConfig, sandboxed: Sequence[str]) -> None:
    try:
        launcher.check(caps_cores(config))
    except SandboxUnavailable as error:
        raise RunError(f"cannot sandbox {', '.join(sandboxed)}: {error}") from None
