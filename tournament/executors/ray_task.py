"""What a Ray worker runs: one tournament game, or the check before the first game.

The remote functions live here and Ray ships them by reference, so a worker
imports this module: a node without sheepfold installed fails the check with
an ImportError instead of every game failing. A worker's current folder is the
config's folder (Ray's `working_dir`); `python_path` folders outside it arrive
as Ray `py_modules` and are found again by name (`SHIPPED`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import grpc
from sheepfold.v1 import arena_pb2

from clients.connect import ServerTls, Unreachable
from clients.launch import Launcher, SandboxUnavailable
from clients.launch.host_view import python_program
from tournament.batch_play import FATAL_CODES
from tournament.bot_launch import caps_cores, sandboxed_bots
from tournament.botcheck import in_process_problem
from tournament.config import BotSpec, TournamentConfig, add_python_path
from tournament.executors.ray_in_play import MatchCreated, tell_driver
from tournament.executors.ray_output import Printed, bots_printing
from tournament.game_play import play_game
from tournament.room import ServerFull
from tournament.runner import local_server
from tournament.schedule import ScheduledGame
from tournament.server_check import WAIT_SECONDS, still_gone
from tournament.store import GameRecord

__all__ = [
    "SHIPPED",
    "GameJob",
    "GameOutcome",
    "NodeCheck",
    "check_node",
    "node_name",
    "play_on_worker",
    "sheepfold_version",
    "worker_config",
]

# A python_path entry the driver shipped as a Ray py_module: SHIPPED + folder name.
SHIPPED = "ray-py-module:"


@dataclass(frozen=True, slots=True)
class GameJob:
    config: TournamentConfig  # as the workers see it (see worker_config)
    scheduled: ScheduledGame
    server: str | None  # None: the task hosts its own in-process server
    admin_token: str
    tls: ServerTls | None = None  # how to reach `server` if it serves TLS
    ticket: int = 0  # the driver's number for this task, told back with its match
    in_play: Any = None  # the driver's InPlayInbox (an actor handle); None: nobody is told


@dataclass(frozen=True, slots=True)
class GameOutcome:
    key: str
    node: str
    record: GameRecord | None = None
    replay: bytes | None = None  # a serialized sheepfold.v1.Replay, when there is one
    crashes: dict[str, str] | None = None  # why each crashed bot crashed
    error: str | None = None
    fatal: bool = False  # the server refused the game: no other game can succeed
    full: bool = False  # the server hosts its limit of matches: try again later
    server_gone: bool = False  # the server died or cannot be reached: play elsewhere
    server_back: bool = False  # it failed the game but answers again: play it again
    printed: tuple[Printed, ...] = ()  # what its class bots printed (see ray_output)


@dataclass(frozen=True, slots=True)
class NodeCheck:
    node: str
    version: str
    problems: tuple[str, ...]


def sheepfold_version() -> str:
    try:
        return metadata.version("sheepfold")
    except metadata.PackageNotFoundError:
        return "unknown"


def node_name() -> str:
    """This worker's host and Ray node, e.g. `gpu-3 (node 1a2b3c4d)`."""
    try:
        import ray

        # Outside Ray, asking for the runtime context starts a local Ray instance,
        # listening on the machine's interface (a test playing a worker's game did).
        if not ray.is_initialized():
            return socket.gethostname()
        node_id = ray.get_runtime_context().get_node_id()
    except Exception:  # not inside a Ray worker
        return socket.gethostname()
    return f"{socket.gethostname()} (node {node_id[:8]})"


def worker_config(config: TournamentConfig) -> TournamentConfig:
    """The config with its folder and python_path where Ray unpacked them here."""
    base = working_folder()
    folders: list[str] = []
    for entry in config.python_path:
        if entry.startswith(SHIPPED):
            folders.append(_shipped_folder(entry.removeprefix(SHIPPED)))
        else:
            folders.append(str(Path(base) / entry))
    bots = tuple(_bot_here(bot, base) for bot in config.bots)
    return dataclasses.replace(config, base_dir=base, python_path=tuple(folders), bots=bots)


def _bot_here(bot: BotSpec, base: str) -> BotSpec:
    """`bot` with its sandbox's read_only paths in the config's folder (made
    relative to it by the driver) where Ray unpacked that folder here."""
    if bot.sandbox is None:
        return bot
    # An absolute path (outside the config's folder) stays: it must be on every node.
    read_only = tuple(os.path.normpath(os.path.join(base, path)) for path in bot.sandbox.read_only)
    return dataclasses.replace(bot, sandbox=dataclasses.replace(bot.sandbox, read_only=read_only))


def working_folder() -> str:
    """This worker's folder, where Ray unpacked the config's. Several nodes on
    one machine share Ray's unpacked files, and one node may remove and unpack
    a folder again while a worker of another is in it: that worker's folder is
    then a removed one (getcwd fails) with a new one at the same place, which
    it moves into."""
    try:
        return os.getcwd()
    except FileNotFoundError:
        place = os.readlink("/proc/self/cwd").removesuffix(" (deleted)")
        if not os.path.isdir(place):
            raise FileNotFoundError(
                f"this Ray worker's folder {place} was removed (is the cluster's "
                "runtime_resources folder being cleaned?)"
            ) from None
        os.chdir(place)
        return place


def _shipped_folder(name: str) -> str:
    for entry in sys.path:
        candidate = Path(entry) / name
        if "_ray_pkg_" in entry and candidate.is_dir():
            return str(candidate)
    raise FileNotFoundError(f"python_path folder {name!r} did not arrive on this node")


def play_on_worker(job: GameJob) -> GameOutcome:
    """Play one game on this worker; errors a resume can retry come back as data,
    and what its class bots printed comes back with it. The driver's inbox
    (`job.in_play`) is told of each match the game creates."""
    node = node_name()
    config = worker_config(job.config)
    add_python_path(config)
    with bots_printing() as output:
        outcome = _played(job, config, node)
    return dataclasses.replace(outcome, printed=output.printed())


def _played(job: GameJob, config: TournamentConfig, node: str) -> GameOutcome:
    try:
        record, replay, crashes = asyncio.run(_play(job, config))
    except grpc.aio.AioRpcError as error:
        if error.code() in FATAL_CODES:
            # With several --server addresses, the one to fix.
            where = f" at {job.server}" if job.server is not None else ""
            return GameOutcome(
                job.scheduled.key,
                node,
                error=f"the server{where} refused game {job.scheduled.key}: "
                f"{error.code().name}: {error.details()}",
                fatal=True,
            )
        return GameOutcome(job.scheduled.key, node, error=f"{error.code().name}: {error.details()}")
    except ServerFull as full:
        return GameOutcome(job.scheduled.key, node, error=full.details, full=True)
    except Unreachable as gone:
        # The task's own server (no --server) failing is this game's error alone.
        # Reached the wrong way (TLS on one side only, say), every server fails alike;
        # one that is no Sheepfold server (a web server's port) is dropped as a dead one.
        if gone.misconfigured and not (job.server is not None and gone.wrong_server):
            return GameOutcome(job.scheduled.key, node, error=f"{gone} (from {node})", fatal=True)
        if job.server is None:
            return GameOutcome(job.scheduled.key, node, error=f"{gone} (from {node})")
        # One failure may be a hiccup (a reset, a restart): asked for its health a
        # few times, a server that answers again stays in use. No game can be played
        # on one that does not: the driver drops it now (not one RPC timeout per game
        # later). The game is played again either way.
        if gone.wrong_server:  # no later health check can differ
            return GameOutcome(
                job.scheduled.key, node, error=f"{gone} (from {node})", server_gone=True
            )
        if asyncio.run(still_gone(job.server, job.tls)) is None:
            return GameOutcome(
                job.scheduled.key, node, error=f"{gone} (from {node})", server_back=True
            )
        where = f"{gone} (from {node}; not back after {WAIT_SECONDS:g} s of health checks)"
        return GameOutcome(job.scheduled.key, node, error=where, server_gone=True)
    except TimeoutError as error:
        return GameOutcome(job.scheduled.key, node, error=str(error))
    return GameOutcome(
        job.scheduled.key,
        node,
        dataclasses.replace(record, node=node),
        None if replay is None else replay.SerializeToString(),
        crashes,
    )


def _telling(job: GameJob) -> Callable[[ScheduledGame, str], Awaitable[None]] | None:
    """What tells the driver of each match `job`'s game creates (see ray_in_play)."""
    inbox = job.in_play
    if inbox is None:
        return None
    node = node_name()

    async def tell(scheduled: ScheduledGame, match_id: str) -> None:
        tell_driver(inbox, MatchCreated(job.ticket, scheduled.key, match_id, node))

    return tell


async def _play(
    job: GameJob, config: TournamentConfig
) -> tuple[GameRecord, arena_pb2.Replay | None, dict[str, str]]:
    on_match = _telling(job)
    if job.server is not None:
        # Only unsandboxed command bots are allowed with --server (run_on_ray checks).
        return await play_game(
            config,
            job.server,
            job.admin_token,
            job.scheduled,
            Launcher(None),
            job.tls,
            on_match=on_match,
        )
    # The task's own server, with a private Unix socket for sandboxed bots; the
    # runner fetches the game's full record before this server closes.
    async with local_server(config, seats_at_once=config.players) as local:
        return await play_game(
            config,
            local.address,
            local.admin_token,
            job.scheduled,
            Launcher(local.sockets),
            on_match=on_match,
        )


def check_node(config: TournamentConfig, files: tuple[tuple[str, str], ...]) -> NodeCheck:
    """Can this node play every bot? `files` are (bot, path) a command bot names
    that exist on the driver; each must exist here too."""
    problems: list[str] = []
    try:
        config = worker_config(config)
    except FileNotFoundError as error:
        return NodeCheck(node_name(), sheepfold_version(), (str(error),))
    add_python_path(config)
    for bot in config.bots:
        if bot.command is None:
            # As the local check judges it (a constructor is not always run).
            problem = in_process_problem(bot)
            if problem is not None:
                problems.append(f"bot {bot.name!r}: {problem}")
            continue
        cwd = Path(bot.cwd) if bot.cwd else Path(config.base_dir)
        cwd = cwd if cwd.is_absolute() else Path(config.base_dir) / cwd
        program = bot.command[0].replace("{python}", python_program())
        program = program.replace("{config_dir}", config.base_dir)
        path = {**os.environ, **dict(bot.env)}.get("PATH")
        found = (cwd / program).exists() if "/" in program else shutil.which(program, path=path)
        if not found:
            problems.append(f"bot {bot.name!r}: program {program!r} not found")
    for bot in config.bots:
        for path in bot.sandbox.read_only if bot.sandbox is not None else ():
            if not os.path.exists(path):
                problems.append(f"bot {bot.name!r}: read_only path {path!r} is missing")
    sandboxed = sandboxed_bots(config)
    if sandboxed:
        try:
            Launcher().check(caps_cores(config))
        except SandboxUnavailable as error:
            problems.append(f"cannot sandbox {', '.join(sandboxed)} here: {error}")
    for bot_name, name in files:
        bot = config.bot(bot_name)
        cwd = Path(bot.cwd) if bot.cwd else Path(config.base_dir)
        cwd = cwd if cwd.is_absolute() else Path(config.base_dir) / cwd
        name = name.replace("{config_dir}", config.base_dir)
        if not (cwd / name).exists():
            problems.append(f"bot {bot_name!r}: file {name!r} is missing")
    return NodeCheck(node_name(), sheepfold_version(), tuple(problems))
