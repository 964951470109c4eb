"""Playing a tournament's scheduled games through a server, batch after batch,
up to `concurrency` games at once (or each game a task of an executor, see
tournament.executors).

For each game a match is created, one bot started per seat (in-process SDK
bot or command), and the match waited for until the server finishes it. A
bot that crashes is replaced for the rest of that game by a random stand-in
(so the match ends quickly) and loses; a bot that misses deadlines is handled
by the server's clock (random move, strike, disqualification) and loses too.
Each finished game is stored at once, rated and shown; a game the server
failed but that it answers again after is played again (tournament.server_check).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import grpc
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.connect import (
    RPC_SECONDS,
    ServerTls,
    Unreachable,
    ensure_answering,
    ensure_reachable,
    open_channel,
    refusal,
    tls_credentials,
)
from clients.launch import Launcher, SandboxUnavailable
from games.words import count
from tournament.bot_launch import launcher_for, socket_of
from tournament.config import TournamentConfig, add_python_path
from tournament.deals import dealt, kept_field_deals
from tournament.executors.settings import GameExecutor
from tournament.game_play import ANSWER_SECONDS, GamePlayer, PlayedGame
from tournament.live import LiveFigures, live_figures
from tournament.progress import Ending, Progress, note_on
from tournament.room import ServerFull, room_wait, waiting_line
from tournament.run_error import RunError
from tournament.schedule import ScheduledGame
from tournament.server_check import CUT_SHORT, MAX_HICCUPS, WAIT_SECONDS, still_gone
from tournament.store import GameRecord, InPlay, Store, StoreError
from tournament.store_apart import written_apart
from tournament.store_lock import LockWait
from tournament.turns import DealTurns

__all__ = ["ANSWER_SECONDS", "FATAL_CODES", "play_batches", "warn_if_replays_open"]

# Codes after which no further game can succeed: stop the whole run.
FATAL_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNIMPLEMENTED,
}
# How long a game in play's row waits for another process's lock on the
# database: it is for spectators, and the game goes on without it.
IN_PLAY_WAIT_SECONDS = 2.0


async def play_batches(
    config: TournamentConfig,
    address: str,
    store: Store,
    tournament_id: int,
    next_batch: Callable[[], list[ScheduledGame] | None],
    progress: Progress,
    admin_token: str | None = None,
    executor: GameExecutor | None = None,
    crashes: dict[str, str] | None = None,
    launcher: Launcher | None = None,
    server_socket: str | Sequence[str] | None = None,
    tls: ServerTls | None = None,
) -> tuple[int, int]:
    """Play batch after batch until `next_batch()` returns None; (played, errors).

    A round robin is one batch; an SPRT asks for the next blocks after looking
    at the statistics. Calls `progress.finish` at the end. `crashes`, when
    given, receives each crashed bot's first error. `executor`, when given,
    plays each batch instead of this process (`executor.run(runner, batch)`,
    handing each game to `runner.accept` or `runner.reject`). Sandboxed command
    bots reach the server through `server_socket` (or `address` when that is
    `unix:PATH`); without `launcher`, the sandbox is checked here first.
    `tls`: how to reach a server that serves TLS.
    """
    if launcher is None:
        socket = server_socket or socket_of(address)
        launcher = await launcher_for(config, store.path, socket, executor)
    if admin_token is None:
        admin_token = os.environ.get("SHEEPFOLD_ADMIN_TOKEN", "")
    add_python_path(config)
    log = structlog.get_logger("sheepfold.tournament").bind(tournament=config.name)
    for server in executor.servers if executor is not None else (address,):
        await warn_if_replays_open(config, server, log, tls)
    figures = live_figures(config.bot_names, config.players, config.anchor)
    for stored in store.games(tournament_id):
        figures.add(stored)
    figures.refit()
    player = GamePlayer(config, address, admin_token, launcher, log, tls)
    runner = _Runner(player, store, tournament_id, figures, progress)
    runner.player = replace(player, on_match=runner.in_play)
    if crashes is not None:
        runner.crash_reasons = crashes
    secret = store.deal_secret(tournament_id)
    record = store.find(config.name)
    field_deals = record is not None and kept_field_deals(record.config)
    ending: Ending = "finished"
    try:
        while (scheduled := next_batch()) is not None:
            batch = dealt(scheduled, secret, field_deals)
            before = runner.played
            await (runner.run(batch) if executor is None else executor.run(runner, batch))
            if batch and runner.played == before:
                ending = "stopped"
                break  # a batch in which every game failed: stop rather than spin
    except asyncio.CancelledError:
        ending = "interrupted"
        raise
    except BaseException:
        ending = "stopped"
        raise
    finally:
        progress.finish(runner.played, ending)
    return runner.played, runner.errors


async def warn_if_replays_open(
    config: TournamentConfig, address: str, log: Any, tls: ServerTls | None = None
) -> None:
    """A server that lists its matches to anyone lets a command bot read the
    seeds of finished games: the deals the other groups still play. Says so."""
    if not any(bot.command for bot in config.bots):
        return
    async with open_channel(address, tls_credentials(tls)) as channel:
        try:
            await arena_pb2_grpc.ArenaStub(channel).ListMatches(
                arena_pb2.ListMatchesRequest(limit=1), timeout=RPC_SECONDS
            )
        except grpc.aio.AioRpcError:
            return  # private (or not answering, which the games will show)
    log.warning(
        "this server lets anyone list and replay its finished matches, so the command "
        "bots can read the deals of games already played; start it with "
        "--private-replays --admin-token and give the runner that token",
        server=address,
    )


class _Runner:
    """Plays the games of a batch on `concurrency` workers, storing and rating
    each one as it finishes (an executor hands its games to `accept`)."""

    def __init__(
        self,
        player: GamePlayer,
        store: Store,
        tournament_id: int,
        figures: LiveFigures,
        progress: Progress,
    ) -> None:
        self.player = player
        self.config = player.config
        self.address = player.address
        self.store = store
        self.tournament_id = tournament_id
        self.figures = figures  # what the report ranks by: Elo, or solo mean score
        self.progress = progress
        self.log = player.log
        self.played = 0
        self.errors = 0
        self.crash_reasons: dict[str, str] = {}  # bot -> its first crash in this run
        self.channel: grpc.aio.Channel | None = None
        self.connected_once = False  # a batch of this run reached the server
        self.told_full: set[str] = set()  # servers whose games were said to wait for room
        self.shaky = False  # the server was said to fail a game and answer again
        # The server's outages: one ends when a game finds the server back, and
        # the health checks of each are said to begin once (see _tell_gone).
        self.outage = 0
        self.told_outage = -1
        self.storing = asyncio.Lock()  # one game written at a time, in the order they end
        self.playing: set[str] = set()  # keys of the games recorded in play, not yet stored

    async def run(self, pending: list[ScheduledGame]) -> None:
        if not pending:
            return
        turns = DealTurns(pending)
        ready = asyncio.Condition()
        async with open_channel(self.address, tls_credentials(self.player.tls)) as channel:
            try:
                # A mistyped address fails at once; an SPRT's next block waits
                # the few seconds for a server restarting between blocks.
                await ensure_reachable(channel, self.address, patient=self.connected_once)
            except Unreachable as error:
                raise RunError(str(error)) from None
            self.connected_once = True
            self.channel = channel
            stub = arena_pb2_grpc.ArenaStub(channel)
            workers = [
                asyncio.create_task(self._worker(stub, turns, ready), name=f"tournament-worker-{i}")
                for i in range(min(self.config.concurrency, len(pending)))
            ]
            try:
                await asyncio.gather(*workers)
            finally:
                for worker in workers:
                    worker.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.gather(*workers, return_exceptions=True)

    async def _worker(
        self, stub: arena_pb2_grpc.ArenaStub, turns: DealTurns, ready: asyncio.Condition
    ) -> None:
        while True:
            async with ready:
                while (scheduled := turns.take()) is None:
                    if not turns.left:
                        return
                    await ready.wait()
            try:
                await self._play(stub, scheduled)
            finally:
                turns.done(scheduled)
                async with ready:
                    ready.notify_all()

    async def _play_and_store(
        self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame
    ) -> None:
        """Play one game and store it, or count it as not played. A game whose
        server failed it but answers again is played again (MAX_HICCUPS times)."""
        self.progress.game_started(scheduled.key)
        hiccups = 0
        while True:
            try:
                played = await self._play_when_room(stub, scheduled)
            except SandboxUnavailable as error:
                raise RunError(f"cannot sandbox a bot of game {scheduled.key}: {error}") from None
            except grpc.aio.AioRpcError as error:
                if error.code() in FATAL_CODES:
                    raise RunError(
                        f"the server refused game {scheduled.key}: {refusal(error)}"
                    ) from None
                if await self._server_back(error):
                    hiccups += 1
                    if hiccups < MAX_HICCUPS:
                        continue
                self.reject(scheduled.key, f"{error.code().name}: {error.details()}")
                return
            except TimeoutError as error:
                self.reject(scheduled.key, str(error))
                return
            if played is not None:
                await self.accept(*played)
            return

    async def _play(self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame) -> None:
        """Play one game and store it, or count it as not played; a game not
        stored is no longer in play (an error that ends the run leaves its
        rows to the run's end, which clears them)."""
        await self._play_and_store(stub, scheduled)
        await self.not_in_play(scheduled.key)

    async def not_in_play(self, key: str) -> None:
        """A game not stored (given up, or to be played again) is no longer in
        play; nothing is written for a game not recorded in play (or stored)."""
        if key in self.playing:
            self.playing.discard(key)
            tid = self.tournament_id
            await self._in_play_write(key, lambda store: store.game_not_in_play(tid, key))

    async def in_play(self, scheduled: ScheduledGame, match_id: str, node: str = "") -> None:
        """A game's match is created: recorded in play for the viewer's "Now
        playing", until the game is stored (record_game removes it) or given up.
        `node`: the Ray node playing it ('' for this process)."""
        game = InPlay(scheduled.key, match_id, tuple(scheduled.seats), node, time.time())
        tid = self.tournament_id
        self.playing.add(scheduled.key)
        await self._in_play_write(scheduled.key, lambda store: store.game_in_play(tid, game))

    async def _in_play_write(self, key: str, write: Callable[[Store], None]) -> None:
        """A write for spectators alone: one the database refuses (its lock
        held a while, a full disk) is logged and skipped, never the game's
        failure; the runner's end clears what it left. A run stopped (Ctrl-C)
        while the write waits for the lock waits for it (IN_PLAY_WAIT_SECONDS
        at most): its thread wrote on regardless, after the run's end had
        cleared the rows, and its row stayed under "Now playing" until the
        next run. A write still waiting for a thread then is not made: more
        games than threads took that wait again for every few games."""
        stopped = threading.Event()

        def unless_stopped(store: Store) -> None:
            if not stopped.is_set():
                write(store)

        written = asyncio.ensure_future(
            written_apart(self.store, unless_stopped, LockWait(IN_PLAY_WAIT_SECONDS))
        )
        try:
            await asyncio.shield(written)
        except asyncio.CancelledError:
            stopped.set()
            await asyncio.wait([written])
            if (error := written.exception()) is not None:
                self.log.info("games in play not written", key=key, error=str(error))
            raise
        except (StoreError, sqlite3.Error) as error:
            self.log.info("games in play not written", key=key, error=str(error))

    async def _play_when_room(
        self, stub: arena_pb2_grpc.ArenaStub, scheduled: ScheduledGame
    ) -> PlayedGame | None:
        """The game played, waiting for room while the server is full (see
        tournament.room); None, the game rejected, when it stayed full too long."""
        wait = room_wait(self.config.match_timeout_seconds)
        while True:
            try:
                return await self.player.play(stub, scheduled)
            except ServerFull as full:
                delay = wait.next_delay()
                if delay is None:
                    self.reject(scheduled.key, wait.gave_up(full.address, full.details))
                    return None
                self.waiting_for_room(full)
                await asyncio.sleep(delay)

    def waiting_for_room(self, full: ServerFull) -> None:
        """The first game to find a server full says so, once a run: a server
        kept full by its other matches would otherwise fill the output."""
        if full.address not in self.told_full:
            self.told_full.add(full.address)
            note_on(self.progress, waiting_line(full.address, full.details))

    async def accept(
        self,
        record: GameRecord,
        replay: arena_pb2.Replay | None = None,
        crashes: dict[str, str] | None = None,
    ) -> None:
        """A finished game: stored at once with its full record, then counted,
        rated and shown; `crashes` says why each crashed bot crashed. It is
        written off the loop (tournament.store_apart: another process holding
        the database's lock stood the loop still), one game at a time, so the
        games are counted and rated in the order they are stored. A run stopped
        (Ctrl-C) while a game is written waits for the write, and counts it."""
        for seat in record.seats:
            if seat.failure == "crash" and seat.bot not in self.crash_reasons:
                self.crash_reasons[seat.bot] = (crashes or {}).get(seat.bot, "crashed")
        async with self.storing:
            write = asyncio.ensure_future(
                written_apart(
                    self.store, lambda store: store.record_game(self.tournament_id, record, replay)
                )
            )
            try:
                stored = await asyncio.shield(write)
            except asyncio.CancelledError:
                self._counted(record, await write)
                raise
            if stored:  # its row in play went in the same commit
                self.playing.discard(record.key)
            self._counted(record, stored)

    def _counted(self, record: GameRecord, stored: bool) -> None:
        """A game written (False: another runner had stored it first)."""
        if stored:
            self.played += 1
            self.shaky = False  # a later hiccup is told again
            self.progress.game_done(record, self.figures.update(record))
        else:
            self.log.warning(
                "game already stored by another runner",
                match_id=record.match_id,
                game=self.config.game,
                key=record.key,
            )

    def reject(self, key: str, error: str) -> None:
        """A game that could not be played this run (a resume plays it again)."""
        self.errors += 1
        self.progress.game_error(key, error)

    def _tell_gone(self, outage: int, gone: Unreachable) -> None:
        """Said once while the games wait on the health checks of a server gone:
        the live line stood still on its last game for their 15 s, its rate and
        ETA unchanged, as if the run had hung. Once an outage, not once per
        game: each game that failed in it (`outage`, as the game found it) comes
        here, some only after another has given up or found the server back,
        and a game that once reset the note as its own wait ended let a third,
        whose first check was answered just then, say it again."""
        if outage == self.outage and self.told_outage != outage:
            self.told_outage = outage
            note_on(
                self.progress,
                f"{gone}: asking it for its health for up to {WAIT_SECONDS:g} s "
                "before the run stops (a server restarted meanwhile keeps it going)",
            )

    async def _server_back(self, error: grpc.aio.AioRpcError) -> bool:
        """After a call failed: whether the game is worth playing again. A server
        that cut the call short (UNAVAILABLE: a reset connection, a restart;
        CANCELLED: a server stopping cancels the calls in flight) or did not
        answer it in time is waited for until it reports SERVING again
        (tournament.server_check); one that does not within WAIT_SECONDS (15 s)
        ends the run at once, not one timeout per game."""
        code = error.code()
        if code not in CUT_SHORT and code != grpc.StatusCode.DEADLINE_EXCEEDED:
            return False
        assert self.channel is not None
        outage = self.outage
        gone: Unreachable | None = None
        try:
            await ensure_reachable(self.channel, self.address, patient=True)
            await ensure_answering(self.channel, self.address, ANSWER_SECONDS)
        except Unreachable as error_gone:
            gone = error_gone
            self._tell_gone(outage, gone)
        else:
            if code not in CUT_SHORT:
                return False  # it answers: only the game's call was slow
        # A server that answers but is not SERVING (stopping, or without its
        # database) is waited for as long: said once its health says so.
        why = await still_gone(
            self.address,
            self.player.tls,
            waiting=lambda why: self._tell_gone(outage, gone or Unreachable(self.address, why)),
        )
        if why is not None:
            gone = gone or Unreachable(self.address, why)
            raise RunError(f"{gone} (after {count(self.played, 'game')} this run)") from None
        if self.outage == outage:
            self.outage += 1  # back: a game that fails from now on is told again
        if gone is not None:
            # The run's channel may wait out gRPC's reconnect backoff before it
            # connects again: the game is played again once it has.
            with contextlib.suppress(Unreachable):
                await ensure_reachable(self.channel, self.address, RPC_SECONDS, patient=True)
        if not self.shaky:
            self.shaky = True
            note_on(
                self.progress,
                f"the server at {self.address} failed a game but answers again "
                f"({gone or refusal(error)}): the run goes on, and its games that failed "
                "are played again",
            )
        return True
