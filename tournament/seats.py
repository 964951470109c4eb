"""Playing one seat of a match: an in-process SDK bot, or a command the runner starts.

Either way the bot talks to the server only through gRPC. An in-process bot's
`decide` runs on its own daemon thread, so a bot that hangs or burns CPU in
`decide` cannot stall the runner's event loop (the server's deadline handles
it); a command bot is a program started through `clients.launch` (in its
sandbox unless its config says `sandbox = false`), killed with its children
when the game is over or the runner stops.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from clients.bot_thread import BotRaisedBase, BotThread
from clients.bots import load_bot
from clients.connect import ServerTls, tls_credentials
from clients.launch import BotCommand, BotFailure, Launcher
from clients.launch.host_view import python_program
from clients.sdk import Bot, DecisionView, play
from tournament.config import BotSpec

__all__ = [
    "BOT_THREAD",
    "CommandSeat",
    "InProcessSeat",
    "SeatFailure",
    "bot_folder",
    "bot_seed",
]

# The name of an in-process bot's thread, followed by the bot's name in a
# tournament (a Ray worker tells each bot's output apart by it: ray_output).
BOT_THREAD = "tournament-bot"


class SeatFailure(Exception):
    """The bot of a seat stopped before its match was over (crash, exit, load error)."""


def bot_seed(game_seed: int, seat: int, bot: str) -> int:
    """A bot's own seed for one game: stable, different per seat and bot."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{bot}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & (2**63 - 1)


class _ThreadedBot:
    """Builds a bot and then runs its `decide`, on one daemon worker thread of its
    own; the SDK awaits the answers. Not the loop's shared pool: bots that hang
    while they are built must neither fill it (their stand-ins are built too)
    nor hold the process's exit until they end."""

    def __init__(self, name: str = "") -> None:
        self._bot: Bot | None = None
        self._thread = BotThread(f"{BOT_THREAD} {name}" if name else BOT_THREAD)

    def build(self, spec: str, seed: int) -> asyncio.Future[None]:
        return self._thread.run(lambda: self._built(load_bot(spec, seed)))

    def decide(self, decision: DecisionView) -> asyncio.Future[int]:
        return self._thread.run(lambda: self._decided(decision))

    async def on_event(self, event: Any) -> None:
        """The bot's on_event, plain or `async`, on the bot's thread as `decide`
        is: on the runner's loop, one that blocked (a `time.sleep`, a wait for
        ever) stalled every game and the in-process server with it, and the run
        hung until it was killed."""
        handler = getattr(self._bot, "on_event", None)
        if handler is not None:
            await self._thread.run(lambda: self._seen(handler, event))

    def close(self) -> None:
        self._thread.close()

    def _built(self, bot: Bot) -> None:
        self._bot = bot

    def _decided(self, decision: DecisionView) -> int:
        assert self._bot is not None  # decisions come after the build
        choice = self._bot.decide(decision)
        if inspect.isawaitable(choice):
            return self._thread.awaited(choice)
        return choice

    def _seen(self, handler: Callable[[Any], Any], event: Any) -> None:
        """`handler(event)`, on the bot's thread; an `async` one awaited there,
        on the thread's own loop, as an `async` decide is."""
        seen = handler(event)
        if inspect.isawaitable(seen):
            self._thread.awaited(seen)


class InProcessSeat:
    """A built-in or `module:Class` bot, played through the SDK in this process."""

    def __init__(
        self,
        spec: str,
        seed: int,
        address: str,
        match_id: str,
        token: str,
        tls: ServerTls | None = None,
        name: str = "",
    ) -> None:
        self.spec = spec
        self.name = name  # the bot's name in the tournament ("" for a stand-in)
        self.seed = seed
        self.address = address
        self.match_id = match_id
        self.token = token
        self.tls = tls
        self._bot: _ThreadedBot | None = None

    async def run(self) -> None:
        # Built off the event loop: a bot that takes seconds to build (a model to
        # load) must not stall the runner, nor an in-process server on the same loop.
        bot = self._bot = _ThreadedBot(self.name)
        try:
            try:
                await bot.build(self.spec, self.seed)
            except Exception as error:
                raise SeatFailure(f"cannot load bot {self.spec!r}: {error}") from error
            try:
                await play(
                    bot,
                    self.address,
                    self.match_id,
                    self.token,
                    credentials=tls_credentials(self.tls),
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # BotRaisedBase names what the bot raised (GeneratorExit) itself.
                named = isinstance(error, BotRaisedBase)
                raise SeatFailure(
                    str(error) if named else f"{type(error).__name__}: {error}"
                ) from error
        finally:
            bot.close()

    async def kill(self) -> None:
        if self._bot is not None:
            self._bot.close()


class CommandSeat:
    """A bot started as a command (sandboxed unless its config says otherwise),
    told where to play by environment variables."""

    def __init__(
        self,
        bot: BotSpec,
        base_dir: str,
        environment: Mapping[str, str],
        launcher: Launcher,
        server: str,
    ) -> None:
        assert bot.command is not None
        self.bot = bot
        argv = tuple(
            arg.replace("{python}", python_program()).replace("{config_dir}", base_dir)
            for arg in bot.command
        )
        self.process = launcher.process(
            BotCommand(
                argv=argv,
                folder=bot_folder(bot, base_dir),
                server=server,
                env={**dict(bot.env), **environment},
                sandbox=bot.sandbox,
            )
        )

    async def run(self) -> None:
        try:
            await self.process.run()
        except BotFailure as error:
            raise SeatFailure(str(error)) from None

    async def kill(self) -> None:
        await self.process.kill()


def bot_folder(bot: BotSpec, base_dir: str) -> str:
    """A command bot's folder: its `cwd`, relative to the config's folder (default: that)."""
    cwd = Path(bot.cwd) if bot.cwd else Path(base_dir)
    return str(cwd if cwd.is_absolute() else Path(base_dir) / cwd)
