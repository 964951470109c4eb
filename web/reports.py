"""Tournament reports for the web pages, built once per change.

Building a report is CPU work (the bootstrap behind the Elo intervals, then
half a megabyte of HTML for a large tournament): it runs in the viewer's
replay process, never on the event loop, which with `serve --web-port` also
runs the game server. A report is kept until the tournament changes (a game
stored, the schedule updated), so pages polling a running tournament every
few seconds cost a cheap read-only query each, and pages asking at the same
moment share one build.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tournament.heartbeat import FINISHED, RUNNING, RunState, run_state
from tournament.report_html import report_fragment
from tournament.store_records import InPlay
from web import tournaments

KEPT = 8  # reports kept (one per tournament shown)
FINISHED_STATE = RunState(FINISHED)

Marker = tournaments.Marker


@dataclass(frozen=True, slots=True)
class Report:
    title: str
    fragment: str  # the report's HTML
    plain: bytes  # the same, encoded
    gzipped: bytes
    played: int  # games played of the schedule, as the report counts them
    scheduled: int
    etag: str
    # Read at each request (ReportCache.get), not kept: a runner's heartbeat
    # grows old without any change to the tournament.
    state: RunState = FINISHED_STATE
    # Read at each request too: the games in play while it runs (none else),
    # but for those the report shows stored.
    playing: tuple[InPlay, ...] = ()
    # The keys of the games the report shows stored: its build reads the
    # database after the request's poll, and a game stored in between was
    # still in play for the poll.
    stored_keys: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Built:
    """A tournament's report as `build` returns it from the replay process."""

    title: str
    fragment: str
    gzipped: bytes
    played: int
    scheduled: int
    marker: Marker  # the tournament's marker as of the games the report shows
    stored_keys: frozenset[str]


def tournament_url(index: int, name: str) -> str:
    return f"/tournaments/{index}/{quote(name, safe='')}"


def build(path: str, index: int, name: str) -> Built:
    """The report of one tournament. Runs in the replay process."""
    view = tournaments.load(Path(path), name)
    base = tournament_url(index, name)
    fragment = report_fragment(
        view.report,
        view.games,
        replay_href=lambda game: f"{base}/match/{quote(game.match_id, safe='')}",
    )
    return Built(
        view.record.name,
        fragment,
        gzip.compress(fragment.encode(), 5),
        int(view.report["games_played"]),
        int(view.report["games_scheduled"]),
        view.marker,
        frozenset(game.key for game in view.games),
    )


Run = Callable[..., Awaitable[Any]]  # runs a function with its arguments in the replay process


@dataclass
class ReportCache:
    run: Run
    kept: int = KEPT
    built: OrderedDict[tuple[int, str], tuple[Marker, Report]] = field(default_factory=OrderedDict)
    # The build of each tournament under way, and the loop time it began.
    flights: dict[tuple[int, str], tuple[float, asyncio.Future[Report]]] = field(
        default_factory=dict
    )

    async def get(self, index: int, path: Path, name: str) -> Report:
        """The current report, with the tournament's state as of now;
        NotATournamentDb, BeingRewritten or LookupError as tournaments.load."""
        polled = await asyncio.to_thread(tournaments.polled, path, name)
        asked = asyncio.get_running_loop().time()  # a build begun from now reads after the poll
        report = await self._report(index, path, name, polled.marker, asked)
        seen = polled.heartbeat, polled.newest
        state = run_state(report.scheduled, report.played, *seen)
        # Rows a killed runner left stay until a resume clears them: shown only while running.
        playing = polled.playing if state.word == RUNNING else ()
        # A game stored after the poll, before the report was read, shows as stored alone.
        playing = tuple(game for game in playing if game.key not in report.stored_keys)
        return replace(report, state=state, playing=playing)

    async def _report(
        self, index: int, path: Path, name: str, marker: Marker, asked: float
    ) -> Report:
        """The report of `marker` (what a poll that ended at loop time
        `asked` saw), or a newer one. One build of a tournament at a time: a
        build begun after the poll is shared; one begun before it may not
        show what the poll saw, and is waited for before the next begins.
        Each change seen by a poll during a build once queued a build of its
        own in the one replay process: a running tournament asked by many
        pages kept it building, and replays waited behind the builds."""
        key = (index, name)
        while True:
            cached = self.built.get(key)
            if cached is not None and cached[0] == marker:
                self.built.move_to_end(key)
                return cached[1]
            flight = self.flights.get(key)
            if flight is None or flight[1].done():
                flight = (asyncio.get_running_loop().time(), self._start(index, path, name))
                self.flights[key] = flight
            began, building = flight
            if began >= asked:
                return await asyncio.shield(building)
            with contextlib.suppress(Exception):  # its failure is its own requests'
                await asyncio.shield(building)

    def _start(self, index: int, path: Path, name: str) -> asyncio.Future[Report]:
        building = asyncio.ensure_future(self._build(index, path, name))
        building.add_done_callback(lambda done: self._landed((index, name), done))
        return building

    async def _build(self, index: int, path: Path, name: str) -> Report:
        built: Built = await self.run(build, str(path), index, name)
        # Kept, and tagged, by the marker of what it shows: a game stored
        # since the request's poll is in it, and the next poll, seeing that
        # game, finds it built.
        tag = hashlib.sha256(repr((index, name, built.marker)).encode()).hexdigest()[:24]
        report = Report(
            built.title,
            built.fragment,
            built.fragment.encode(),
            built.gzipped,
            built.played,
            built.scheduled,
            f'"{tag}"',
            stored_keys=built.stored_keys,
        )
        self.built[(index, name)] = (built.marker, report)
        self.built.move_to_end((index, name))
        while len(self.built) > self.kept:
            self.built.popitem(last=False)
        return report

    def _landed(self, key: tuple[int, str], done: asyncio.Future[Report]) -> None:
        flight = self.flights.get(key)
        if flight is not None and flight[1] is done:
            del self.flights[key]
        if not done.cancelled():
            done.exception()  # retrieved: every waiter has its answer
