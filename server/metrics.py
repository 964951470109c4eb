"""Prometheus metrics of one server.

Every metric lives in a `CollectorRegistry` owned by the server (no process-wide
registry), so two servers in one process — as in the tests — never mix their
counts. Labels are bounded: a game name and, where it says how something ended,
a small fixed set of outcomes; never a match id, a seat or a bot name.

A match gets a `GameMetrics` once, with the labelled children already looked up,
so what the match loop pays is a few lock-protected additions. An answered
decision, the one count made at every decision, is tallied in plain numbers
instead (`_LoopTally`), which a scrape turns into its counter and histograms:
through prometheus_client's children a decision's counter and two histograms
cost about 2 us of the loop's time.
`NO_METRICS` does nothing, for servers built without metrics (benchmarks' "off").
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from server.rulings import TOO_LARGE

__all__ = ["NO_METRICS", "GameMetrics", "LiveView", "ServerMetrics"]

# Decision times span a local bot's 0.2 ms to a slow bot's 10 s deadline.
DECISION_BUCKETS = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
)
# How late a timer runs on the event loop: on time is under a millisecond.
LOOP_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DB_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0)

# How a match ended, as the `outcome` label says it.
OUTCOMES = ("completed", "disqualification", "aborted")


@dataclass(frozen=True, slots=True)
class LiveView:
    """What the server hosts right now, read at scrape time."""

    live_by_game: dict[str, int]
    watchers_by_game: dict[str, int]


class _LoopTally:
    """A histogram's buckets and sum in plain numbers, for what only the event
    loop's thread observes: no lock, and a bucket found by bisection instead of
    a walk through the bounds. A scrape reads them (`buckets`) as they stand,
    as prometheus_client's own histograms are read, bucket by bucket."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound (+Inf)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        # A value equal to a bound is counted in its bucket (`le`, less or equal).
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def buckets(self) -> list[tuple[str, float]]:
        """The cumulative buckets, `le` as Prometheus writes it, +Inf last."""
        counts = list(self.counts)
        cumulative, total = [], 0
        for bound, count in zip((*self.bounds, float("inf")), counts, strict=True):
            total += count
            cumulative.append((floatToGoString(bound), float(total)))
        return cumulative


class GameMetrics:
    """One game's labelled children; what a match calls as things happen."""

    def __init__(self, metrics: ServerMetrics, game: str) -> None:
        self._created = metrics.matches_created.labels(game)
        self._finished = {o: metrics.matches_finished.labels(game, o) for o in OUTCOMES}
        # Its answered decisions, read by the server's `_DecisionsCollector`.
        self.round_trip = _LoopTally(DECISION_BUCKETS)
        self.think = _LoopTally(DECISION_BUCKETS)
        self._missed = metrics.deadlines_missed.labels(game)
        self._strikes = metrics.strikes.labels(game)
        self._disqualified = metrics.disqualifications.labels(game)
        self._forced = {
            r: metrics.forced_moves.labels(game, r) for r in ("timeout", "disqualified", TOO_LARGE)
        }
        self._rejected = metrics.rejected.labels(game)
        self._reconnects = metrics.reconnects.labels(game)

    def match_created(self) -> None:
        self._created.inc()

    def match_ended(self, outcome: str) -> None:
        self._finished[outcome].inc()

    def decision_answered(self, think_seconds: float, round_trip_seconds: float | None) -> None:
        """A bot's answer was taken. `think_seconds` is what the seat's clock was
        charged; the round trip is from the request written to the seat's stream to
        the answer read (None when the seat was not connected when it opened).
        The answered decisions are counted by the think times (one each)."""
        self.think.observe(think_seconds)
        if round_trip_seconds is not None:
            self.round_trip.observe(round_trip_seconds)

    def deadline_missed(self, disqualified_now: bool) -> None:
        self._missed.inc()
        self._strikes.inc()
        if disqualified_now:
            self._disqualified.inc()

    def forced_move(self, reason: str) -> None:
        self._forced[reason].inc()

    def answer_rejected(self) -> None:
        self._rejected.inc()

    def reconnected(self) -> None:
        self._reconnects.inc()


class _NoGameMetrics(GameMetrics):
    def __init__(self) -> None:
        pass

    def match_created(self) -> None:
        pass

    def match_ended(self, outcome: str) -> None:
        pass

    def decision_answered(self, think_seconds: float, round_trip_seconds: float | None) -> None:
        pass

    def deadline_missed(self, disqualified_now: bool) -> None:
        pass

    def forced_move(self, reason: str) -> None:
        pass

    def answer_rejected(self) -> None:
        pass

    def reconnected(self) -> None:
        pass


class _LiveCollector(Collector):
    """Gauges computed from the server's state when Prometheus scrapes, so no
    increment and decrement can ever drift apart."""

    def __init__(self, view: Callable[[], LiveView], games: Callable[[], Iterable[str]]) -> None:
        self._view = view
        self._games = games

    def collect(self) -> Iterator[GaugeMetricFamily]:
        view = self._view()
        live = GaugeMetricFamily(
            "sheepfold_matches_live",
            "Matches waiting for seats or running, by game",
            labels=["game"],
        )
        watchers = GaugeMetricFamily(
            "sheepfold_watchers", "Open Watch streams on live matches, by game", labels=["game"]
        )
        for game in self._games():
            live.add_metric([game], view.live_by_game.get(game, 0))
            watchers.add_metric([game], view.watchers_by_game.get(game, 0))
        yield live
        yield watchers


class _DecisionsCollector(Collector):
    """The answered decisions of every game, from the tallies its matches keep
    (`GameMetrics.decision_answered`), as a counter and two histograms."""

    def __init__(self, games: dict[str, GameMetrics]) -> None:
        self._games = games

    def collect(self) -> Iterator[CounterMetricFamily | HistogramMetricFamily]:
        answered = CounterMetricFamily(
            "sheepfold_decisions_answered",
            "Decisions a bot answered in time with a valid action",
            labels=["game"],
        )
        round_trip = HistogramMetricFamily(
            "sheepfold_decision_round_trip_seconds",
            "From a decision request written to the seat's stream to its answer read",
            labels=["game"],
        )
        think = HistogramMetricFamily(
            "sheepfold_bot_think_seconds",
            "Time charged to a seat's clock for an answered decision",
            labels=["game"],
        )
        for game, metrics in list(self._games.items()):
            think_buckets = metrics.think.buckets()
            answered.add_metric([game], think_buckets[-1][1])
            round_trip.add_metric([game], metrics.round_trip.buckets(), metrics.round_trip.sum)
            think.add_metric([game], think_buckets, metrics.think.sum)
        yield answered
        yield round_trip
        yield think


class _StoreCollector(Collector):
    def __init__(self, queue_depth: Callable[[], int]) -> None:
        self._queue_depth = queue_depth

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "sheepfold_db_queue_depth",
            "Database writes waiting to be made",
            value=self._queue_depth(),
        )


class _LoopCollector(Collector):
    def __init__(self, cpu_seconds: Callable[[], float | None]) -> None:
        self._cpu_seconds = cpu_seconds

    def collect(self) -> Iterator[CounterMetricFamily]:
        seconds = self._cpu_seconds()
        if seconds is not None:
            yield CounterMetricFamily(
                "sheepfold_event_loop_cpu_seconds",
                "CPU time of the thread running the server's event loop "
                "(its rate is how busy the loop is)",
                value=seconds,
            )


class _MemoryCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        resident = resident_bytes()
        if resident is not None:
            yield GaugeMetricFamily(
                "sheepfold_resident_memory_bytes",
                "Resident memory of the server's process",
                value=resident,
            )


def resident_bytes() -> int | None:
    """This process's resident memory, from /proc (None where there is none)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


class ServerMetrics:
    """Every metric of one server, in its own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.matches_created = Counter(
            "sheepfold_matches_created", "Matches created, by game", ["game"], registry=r
        )
        self.matches_finished = Counter(
            "sheepfold_matches_finished",
            "Matches that ended, by game and outcome (completed, disqualification: "
            "completed with a seat disqualified, aborted)",
            ["game", "outcome"],
            registry=r,
        )
        self._games: dict[str, GameMetrics] = {}
        # The answered decisions' counter and histograms (`_LoopTally`).
        r.register(_DecisionsCollector(self._games))
        self.deadlines_missed = Counter(
            "sheepfold_deadlines_missed", "Decisions whose deadline passed", ["game"], registry=r
        )
        self.strikes = Counter(
            "sheepfold_strikes", "Strikes given (one per missed deadline)", ["game"], registry=r
        )
        self.disqualifications = Counter(
            "sheepfold_disqualifications",
            "Seats disqualified for reaching their match's strike limit",
            ["game"],
            registry=r,
        )
        self.forced_moves = Counter(
            "sheepfold_forced_moves",
            "Random actions the server played for a seat, by reason (timeout, disqualified, "
            "too large: a decision larger than the server sends)",
            ["game", "reason"],
            registry=r,
        )
        self.rejected = Counter(
            "sheepfold_answers_rejected",
            "Answers and messages refused with a PlayError (stale, out of range, ...)",
            ["game"],
            registry=r,
        )
        self.reconnects = Counter(
            "sheepfold_reconnects",
            "Joins of a seat that had joined before (a bot rejoining)",
            ["game"],
            registry=r,
        )
        self.restored = Counter(
            "sheepfold_matches_restored",
            "Unfinished matches restored from the database at start-up",
            registry=r,
        )
        self.db_write = Histogram(
            "sheepfold_db_write_seconds",
            "Time to make one database write (a move, a new or a finished match)",
            buckets=DB_BUCKETS,
            registry=r,
        )
        self.loop_lag = Histogram(
            "sheepfold_event_loop_lag_seconds",
            "How late a timer set every 0.25 s ran on the server's event loop: "
            "the time other work held the loop",
            buckets=LOOP_LAG_BUCKETS,
            registry=r,
        )
        r.register(_MemoryCollector())

    def for_game(self, game: str) -> GameMetrics:
        found = self._games.get(game)
        if found is None:
            found = self._games[game] = GameMetrics(self, game)
        return found

    def matches_restored(self, count: int) -> None:
        self.restored.inc(count)

    def db_written(self, seconds: float) -> None:
        self.db_write.observe(seconds)

    def loop_lagged(self, seconds: float) -> None:
        self.loop_lag.observe(seconds)

    def watch_loop(self, cpu_seconds: Callable[[], float | None]) -> None:
        self.registry.register(_LoopCollector(cpu_seconds))

    def watch_live(self, view: Callable[[], LiveView], games: Callable[[], Iterable[str]]) -> None:
        self.registry.register(_LiveCollector(view, games))
        # Every game's series from the start, at 0: one that first appears at 1
        # hides that increment from rate() and increase().
        for game in games():
            self.for_game(game)

    def watch_store(self, queue_depth: Callable[[], int]) -> None:
        self.registry.register(_StoreCollector(queue_depth))


class _NoMetrics(ServerMetrics):
    """Metrics off: every call is a no-op and nothing is registered."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._none = _NoGameMetrics()

    def for_game(self, game: str) -> GameMetrics:
        return self._none

    def matches_restored(self, count: int) -> None:
        pass

    def db_written(self, seconds: float) -> None:
        pass

    def loop_lagged(self, seconds: float) -> None:
        pass

    def watch_loop(self, cpu_seconds: Callable[[], float | None]) -> None:
        pass

    def watch_live(self, view: Callable[[], LiveView], games: Callable[[], Iterable[str]]) -> None:
        pass

    def watch_store(self, queue_depth: Callable[[], int]) -> None:
        pass


NO_METRICS: ServerMetrics = _NoMetrics()
