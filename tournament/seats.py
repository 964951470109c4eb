"""Playing one seat of a match: an in-process SDK bot, or a command the runner starts.

Either way the bot talks to the server only through gRPC. An in-process bot's
`decide` runs on its own daemon thread, so a bot that hangs or burns CPU in
`decide` cannot stall the runner's event loop (the server's deadline handles
it); a command bot is a child process in its own session, killed with its
children when the game is over or the runner stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import queue
import signal
import sys
import threading
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from clients.bots import load_bot
from clients.sdk import Bot, DecisionView, play
from tournament.config import BotSpec

__all__ = ["CommandSeat", "InProcessSeat", "SeatFailure", "bot_seed"]


class SeatFailure(Exception):
    """The bot of a seat stopped before its match was over (crash, exit, load error)."""


def bot_seed(game_seed: int, seat: int, bot: str) -> int:
    """A bot's own seed for one game: stable, different per seat and bot."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{bot}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & (2**63 - 1)


class _ThreadedBot:
    """Runs a bot's `decide` on one daemon worker thread; the SDK awaits the answer."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._jobs: queue.SimpleQueue[tuple[Any, asyncio.Future[int]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="tournament-bot", daemon=True)
        self._thread.start()

    def decide(self, decision: DecisionView) -> asyncio.Future[int]:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._jobs.put((decision, future))
        return future

    def on_event(self, event: Any) -> None:
        handler = getattr(self._bot, "on_event", None)
        if handler is not None:
            handler(event)

    def close(self) -> None:
        self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            decision, future = job
            loop = future.get_loop()
            try:
                choice = self._bot.decide(decision)
                if asyncio.iscoroutine(choice):
                    choice = asyncio.run(choice)
            except BaseException as error:
                outcome: tuple[str, Any] = ("error", error)
            else:
                outcome = ("ok", choice)
            with contextlib.suppress(RuntimeError):  # the runner's loop has closed
                loop.call_soon_threadsafe(_settle, future, outcome)


def _settle(future: asyncio.Future[int], outcome: tuple[str, Any]) -> None:
    if future.done():
        return
    kind, value = outcome
    if kind == "ok":
        future.set_result(value)
    else:
        future.set_exception(value)


class InProcessSeat:
    """A built-in or `module:Class` bot, played through the SDK in this process."""

    def __init__(self, spec: str, seed: int, address: str, match_id: str, token: str) -> None:
        self.spec = spec
        self.seed = seed
        self.address = address
        self.match_id = match_id
        self.token = token
        self._bot: _ThreadedBot | None = None

    async def run(self) -> None:
        try:
            bot = load_bot(self.spec, self.seed)
        except Exception as error:
            raise SeatFailure(f"cannot load bot {self.spec!r}: {error}") from error
        self._bot = _ThreadedBot(bot)
        try:
            await play(self._bot, self.address, self.match_id, self.token)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            raise SeatFailure(f"{type(error).__name__}: {error}") from error
        finally:
            self._bot.close()

    async def kill(self) -> None:
        if self._bot is not None:
            self._bot.close()


class CommandSeat:
    """A bot started as a command, told where to play by environment variables."""

    def __init__(
        self,
        bot: BotSpec,
        base_dir: str,
        environment: Mapping[str, str],
    ) -> None:
        assert bot.command is not None
        self.bot = bot
        self.argv = [
            arg.replace("{python}", sys.executable).replace("{config_dir}", base_dir)
            for arg in bot.command
        ]
        cwd = Path(bot.cwd) if bot.cwd else Path(base_dir)
        self.cwd = str(cwd if cwd.is_absolute() else Path(base_dir) / cwd)
        self.env = {**os.environ, **dict(bot.env), **environment}
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: deque[str] = deque(maxlen=5)

    async def run(self) -> None:
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise SeatFailure(f"cannot start {self.argv[0]!r}: {error}") from error
        try:
            assert self._process.stderr is not None
            async for line in self._process.stderr:
                self._stderr.append(line.decode(errors="replace").rstrip())
            code = await self._process.wait()
        finally:
            await self.kill()
        if code != 0:
            tail = " | ".join(self._stderr)
            raise SeatFailure(f"exit code {code}" + (f": {tail}" if tail else ""))

    async def kill(self) -> None:
        process = self._process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait(), 5.0)
