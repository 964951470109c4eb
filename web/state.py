"""What the viewer holds while it runs: its settings, the game server's
gateway, the live-match hub, and the caches its pages share."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import grpc
import structlog
from aiohttp import web
from sheepfold.v1 import arena_pb2

from clients.connect import KEEPALIVE_SECONDS, KEEPALIVE_TIMEOUT
from tournament.stored_schedule import DealSeeds
from web.frames import ignore_interrupts
from web.gateway import Gateway, GatewayError
from web.hub import WatchHub
from web.limits import (
    HEARTBEAT_SECONDS,
    IDLE_SECONDS,
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_PER_ADDRESS,
)
from web.listing import MatchList
from web.older_pages import OlderPages
from web.reports import ReportCache
from web.tournament_answers import TournamentAnswers

MATCH_INFO_SECONDS = 0.5  # a running match's GetMatch answer reused for page loads
SETTLED_KEPT = 2000  # finished matches' GetMatch answers kept
# Seeds of finished matches read from their records (a game server with private
# replays gives none in GetMatch), kept to tell a tournament's deals by.
SEEDS_KEPT = 4096
# Whether the game server hosts a tournament's game in play, kept (the newest
# HOSTED_KEPT answers) and asked again after this long, however many pages
# ask: a match it knows it may forget (restarted without a database), one it
# does not know (another server's) it may come to know.
HOSTED_KEPT = 2000
ELSEWHERE_SECONDS = 10.0
# Where a tournament's game in play is: on the viewer's game server; not known
# to it (another server's); or known to it once and no longer (the server
# restarted without a database since, or it forgot the match otherwise).
Hosting = Literal["here", "elsewhere", "gone"]
SETTLED = (arena_pb2.MATCH_STATUS_FINISHED, arena_pb2.MATCH_STATUS_ABORTED)
log = structlog.get_logger("sheepfold.web")
T = TypeVar("T")


@dataclass
class WebConfig:
    server: str  # the game server's gRPC address
    tournament_dbs: tuple[Path, ...] = ()
    cache_size: int = 16  # finished matches' frames (or refusals) kept, per view
    max_connections: int = MAX_CONNECTIONS
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    idle_seconds: float = IDLE_SECONDS
    heartbeat_seconds: float = HEARTBEAT_SECONDS  # a quiet event stream's comment
    # For a server with private replays (serve --private-replays): whoever can open
    # the viewer then sees every match the server lists.
    admin_token: str = ""
    # Host names the viewer answers to besides IP addresses and localhost (web.hosts);
    # "*": any.
    allowed_hosts: tuple[str, ...] = ()
    # TLS to the game server (sheepfold web --tls-ca / --tls); None: plaintext.
    credentials: grpc.ChannelCredentials | None = None
    # Pings to the game server: one that does not answer within the timeout is gone.
    keepalive_seconds: float = KEEPALIVE_SECONDS
    keepalive_timeout: float = KEEPALIVE_TIMEOUT


@dataclass
class Frames:
    """JSON of one view of a finished match, plain and gzipped."""

    plain: bytes
    gzipped: bytes


@dataclass(frozen=True, slots=True)
class Refusal:
    """The answer for a record that cannot be shown, for a reason in the record
    itself (its moves do not replay, say): kept as its frames would be."""

    status: int
    message: str


# Where the record comes from ("server", or "db<N>/<tournament>" for a tournament's game),
# the match and the view.
FramesKey = tuple[str, str, str]


@dataclass
class State:
    config: WebConfig
    gateway: Gateway
    hub: WatchHub
    cache: OrderedDict[FramesKey, Frames | Refusal] = field(default_factory=OrderedDict)
    rendering: dict[FramesKey, asyncio.Future[Frames | Refusal]] = field(default_factory=dict)
    # Of those, how many each client address started (web.replays: its share).
    renders_started: Counter[str] = field(default_factory=Counter)
    # Replaying is CPU work: in a process of its own, so that it takes nothing
    # from the event loop (which may also run the game server), not even its
    # interpreter lock; one replay at a time. Started on the first replay.
    renderer: ProcessPoolExecutor | None = None
    # The matches list: every open list page shares one ListMatches a second.
    matches: MatchList = field(init=False)
    # Pages of the list (`/api/matches/page`): shared, and fetched a few a second.
    pages: OlderPages = field(init=False)
    # Tournament reports, built in the replay process once per change.
    reports: ReportCache = field(init=False)
    # The tournament pages, their fragments and the list: shared a second.
    tournament_answers: TournamentAnswers = field(default_factory=TournamentAnswers)

    # GetMatch answers for page loads: a match that is over never changes; a
    # running one's is reused for MATCH_INFO_SECONDS (the live stream brings
    # the moves), so a crowd opening one match costs the server one call.
    infos: OrderedDict[str, tuple[float, arena_pb2.MatchInfo]] = field(default_factory=OrderedDict)

    info_seconds: float = MATCH_INFO_SECONDS
    # Match id -> seed, of matches that are over (web.match_routes: deals held back).
    seeds: OrderedDict[str, int] = field(default_factory=OrderedDict)
    # Tournament deal secret -> its deals' match seeds hashed so far (web.tournaments).
    deal_seeds: dict[bytes, DealSeeds] = field(default_factory=dict)
    # Match id -> (where it is, loop time the game server said so).
    hosting: OrderedDict[str, tuple[Hosting, float]] = field(default_factory=OrderedDict)
    elsewhere_seconds: float = ELSEWHERE_SECONDS
    # The event streams open now (their handlers' tasks): ended when the viewer
    # stops, or it would wait for pages that never close them.
    streams: set[asyncio.Task[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.matches = MatchList(self.gateway.matches)
        self.pages = OlderPages(
            lambda game, token: self.gateway.matches_page(
                game, self.matches.limit, page_token=token
            )
        )
        self.reports = ReportCache(self.in_pool)

    async def end_shared_loads(self) -> None:
        """Ends the page loads shared between clients that are under way."""
        answers = self.tournament_answers
        shared = (self.pages.shared, answers.lists, answers.pages, answers.fragments)
        await asyncio.gather(*(one.close() for one in shared))

    async def match_info(self, match_id: str, max_age: float | None = None) -> arena_pb2.MatchInfo:
        now = asyncio.get_running_loop().time()
        cached = self.infos.get(match_id)
        age = self.info_seconds if max_age is None else max_age
        if cached is not None and (cached[1].status in SETTLED or now - cached[0] < age):
            return cached[1]
        try:
            info = await self.gateway.match(match_id)
        except GatewayError as error:
            if error.status == 404:
                self._not_found(match_id, now)
            raise
        self.infos[match_id] = (now, info)
        self.infos.move_to_end(match_id)
        if len(self.infos) > SETTLED_KEPT:
            self.infos.popitem(last=False)
        return info

    async def hosting_of(self, match_id: str) -> Hosting:
        """Where `match_id` (a tournament's game in play) is, asked of the game
        server every `elsewhere_seconds` at most, however many pages ask; a
        server that does not answer is asked again next time."""
        now = asyncio.get_running_loop().time()
        seen = self.hosting.get(match_id)
        if seen is not None and now - seen[1] < self.elsewhere_seconds:
            return seen[0]
        try:
            await self.match_info(match_id)
        except GatewayError as error:
            if error.status != 404:
                return "elsewhere" if seen is None else seen[0]  # nothing learnt
            where: Hosting = "gone" if seen is not None and seen[0] != "elsewhere" else "elsewhere"
        else:
            where = "here"
        self._learnt(match_id, where, now)
        return where

    def _not_found(self, match_id: str, now: float) -> None:
        """The game server said NOT_FOUND of `match_id`: a match it hosted is
        gone (a server without a database forgets its matches when it
        restarts). Learnt from any ask, a spectator's page's too, so that "Now
        playing" drops a forgotten match at its next ask rather than linking
        it until its next check."""
        seen = self.hosting.get(match_id)
        if seen is not None and seen[0] == "here":
            self._learnt(match_id, "gone", now)

    def _learnt(self, match_id: str, where: Hosting, now: float) -> None:
        self.hosting[match_id] = (where, now)
        self.hosting.move_to_end(match_id)
        if len(self.hosting) > HOSTED_KEPT:
            self.hosting.popitem(last=False)

    def render(self) -> ProcessPoolExecutor:
        if self.renderer is None:
            # spawn, not fork: a forked copy of a process running gRPC is unsafe.
            self.renderer = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=ignore_interrupts
            )
        return self.renderer

    async def in_pool(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in the replay process (started on first use; a
        killed one is replaced at the next call)."""
        renderer = self.render()
        try:
            return await asyncio.get_running_loop().run_in_executor(renderer, function, *args)
        except BrokenProcessPool:
            # Killed (out of memory, say): the next call starts a new process.
            if self.renderer is renderer:
                self.renderer = None
            renderer.shutdown(wait=False, cancel_futures=True)
            log.warning("the replay process ended unexpectedly; starting another")
            raise GatewayError(500, "the replay process ended unexpectedly: try again") from None


STATE = web.AppKey("state", State)
