"""Prometheus metrics, scraped over HTTP from a real server during real matches.

Every count is checked against what the test made happen (matches of all four
games, a missed deadline, a rejected answer, a reconnect, a watcher), and the
exposition is parsed with the official client's own text parser.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.sdk import play
from server import launch
from server.app import ServerConfig
from server.inprocess import InProcessServer
from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process
from tests.integrity.helpers import (
    SlowBot,
    create_request,
    game_cases,
    get_match,
    log_entries,
    wait_until,
)
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(port: int) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = response.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def metrics_server() -> Iterator[InProcessServer]:
    with InProcessServer(ServerConfig(metrics_port=0)) as server:
        yield server


def play_seats_to_end(
    stub: arena_pb2_grpc.ArenaStub, match_id: str, tokens: list[str]
) -> arena_pb2.MatchResult:
    """Every seat answers action 0 on its own raw stream until the result."""
    seats = [RawSeat(stub) for _ in tokens]
    results: list[arena_pb2.MatchResult] = []
    threads = []
    for seat, token in zip(seats, tokens, strict=True):
        seat.join(match_id, token)
        thread = threading.Thread(target=lambda s=seat: results.append(s.play_to_end()))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(60)
    for seat in seats:
        seat.close()
    assert len(results) == len(tokens), "every seat got the result"
    return results[0]


def answered(replay: arena_pb2.Replay) -> int:
    return sum(1 for action in replay.actions if not action.forced)


def test_counters_follow_matches_of_every_game(metrics_server: InProcessServer) -> None:
    port = metrics_server.server.metrics_port
    assert port
    before = scrape(port)
    with grpc.insecure_channel(metrics_server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for number, case in enumerate(game_cases()):
            game_before = scrape(port)
            created = stub.CreateMatch(create_request(case, 100 + number))
            play_seats_to_end(stub, created.match_id, list(created.seat_tokens))
            replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=created.match_id))
            after = scrape(port)
            game = case.game
            assert delta(before, after, "sheepfold_matches_created_total", game=game) == 1
            assert (
                delta(
                    before,
                    after,
                    "sheepfold_matches_finished_total",
                    game=game,
                    outcome="completed",
                )
                == 1
            )
            decisions = answered(replay)
            assert decisions == len(replay.actions) > 0
            assert delta(before, after, "sheepfold_decisions_answered_total", game=game) == (
                decisions
            )
            for histogram in ("decision_round_trip", "bot_think"):
                name = f"sheepfold_{histogram}_seconds_count"
                assert delta(before, after, name, game=game) == decisions
            assert value(after, "sheepfold_matches_live", game=game) == 0
            # Every write is timed: the match, each seat's first join, each move
            # and the result; nothing else per decision.
            writes = delta(game_before, after, "sheepfold_db_write_seconds_count")
            assert writes == 1 + case.players + len(replay.actions) + 1
            assert value(after, "sheepfold_db_queue_depth") == 0
            for name in (
                "sheepfold_deadlines_missed_total",
                "sheepfold_answers_rejected_total",
                "sheepfold_reconnects_total",
            ):
                assert delta(before, after, name, game=game) == 0, name
    assert {g for g in games.names()} == {c.game for c in game_cases()}


def test_a_timeout_a_rejected_answer_a_reconnect_and_a_watcher(
    metrics_server: InProcessServer,
) -> None:
    port = metrics_server.server.metrics_port
    assert port
    case = next(c for c in game_cases() if c.game == "sheep-showdown")
    game = case.game
    before = scrape(port)
    with grpc.insecure_channel(metrics_server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        # Seat 0's refused answer and rejoin, and every answer of seat 1, must
        # beat the deadline (one miss disqualifies): 0.3 s left a loaded
        # machine little room for them.
        created = stub.CreateMatch(create_request(case, 7, decision_seconds=2.0, max_strikes=1))
        match_id, tokens = created.match_id, list(created.seat_tokens)
        watch = stub.Watch(arena_pb2.WatchRequest(match_id=match_id), timeout=60)
        wait_until(
            lambda: value(scrape(port), "sheepfold_watchers", game=game) == 1, what="the watcher"
        )
        assert value(scrape(port), "sheepfold_matches_live", game=game) == 1

        first = RawSeat(stub)
        first.join(match_id, tokens[0])
        second = RawSeat(stub)
        second.join(match_id, tokens[1])
        decision = first.next("decision", skip=("event", "joined")).decision
        # An out-of-range answer is refused and the same decision is sent again.
        first.answer(decision.decision_id, 10_000)
        assert (
            first.next("error", skip=("event",)).error.code
            == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        )
        resent = first.next("decision", skip=("event",)).decision
        assert resent.decision_id == decision.decision_id
        # Seat 0 rejoins on a new stream (the old one is replaced) and then lets
        # the deadline pass: one strike, which with max_strikes=1 disqualifies it.
        first.close()
        again = RawSeat(stub)
        again.join(match_id, tokens[0])
        assert again.next("decision", skip=("event", "joined")).decision.decision_id == (
            decision.decision_id
        )
        result = second.play_to_end()
        again.close()
        second.close()
        for _ in watch:
            pass
        replay = stub.GetReplay(arena_pb2.GetReplayRequest(match_id=match_id))
    assert result.seats[0].disqualified and result.seats[0].strikes == 1
    after = scrape(port)
    forced = sum(1 for a in replay.actions if a.forced)
    assert delta(before, after, "sheepfold_deadlines_missed_total", game=game) == 1
    assert delta(before, after, "sheepfold_strikes_total", game=game) == 1
    assert delta(before, after, "sheepfold_disqualifications_total", game=game) == 1
    assert delta(before, after, "sheepfold_answers_rejected_total", game=game) == 1
    assert delta(before, after, "sheepfold_reconnects_total", game=game) == 1
    # Three joins and a reconnect write one join a seat: each seat's first.
    writes = delta(before, after, "sheepfold_db_write_seconds_count")
    assert writes == 1 + 2 + len(replay.actions) + 1
    assert delta(before, after, "sheepfold_forced_moves_total", game=game, reason="timeout") == 1
    assert (
        delta(before, after, "sheepfold_forced_moves_total", game=game, reason="disqualified")
        == forced - 1
    )
    assert delta(before, after, "sheepfold_decisions_answered_total", game=game) == answered(replay)
    assert (
        delta(
            before,
            after,
            "sheepfold_matches_finished_total",
            game=game,
            outcome="disqualification",
        )
        == 1
    )
    assert value(after, "sheepfold_watchers", game=game) == 0
    assert value(after, "sheepfold_matches_live", game=game) == 0


def test_the_event_loop_is_watched_idle_and_busy(metrics_server: InProcessServer) -> None:
    """The loop thread's CPU barely moves while the server idles and grows while
    it plays; the lag timer keeps sampling (four times a second)."""
    port = metrics_server.server.metrics_port
    assert port
    first = scrape(port)
    time.sleep(1.0)
    idle = scrape(port)
    idle_cpu = delta(first, idle, "sheepfold_event_loop_cpu_seconds_total")
    assert 0 <= idle_cpu < 0.2, idle_cpu
    assert delta(first, idle, "sheepfold_event_loop_lag_seconds_count") >= 2
    with grpc.insecure_channel(metrics_server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for number, case in enumerate(game_cases()):
            created = stub.CreateMatch(create_request(case, 200 + number))
            play_seats_to_end(stub, created.match_id, list(created.seat_tokens))
    busy = scrape(port)
    assert delta(idle, busy, "sheepfold_event_loop_cpu_seconds_total") > idle_cpu
    assert value(busy, "sheepfold_event_loop_lag_seconds_count") == value(
        busy, "sheepfold_event_loop_lag_seconds_bucket", le="+Inf"
    )


def test_metrics_off_by_default_and_no_label_is_unbounded(
    metrics_server: InProcessServer,
) -> None:
    with InProcessServer(ServerConfig()) as plain:
        assert plain.server.metrics_port is None
    port = metrics_server.server.metrics_port
    assert port
    with grpc.insecure_channel(metrics_server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        case = game_cases()[0]
        created = stub.CreateMatch(create_request(case, 3))
        play_seats_to_end(stub, created.match_id, list(created.seat_tokens))
    allowed = {"game", "outcome", "reason", "le"}
    for (_, labels), _ in scrape(port).items():
        names = {name for name, _ in labels}
        assert names <= allowed, names
        assert created.match_id not in {v for _, v in labels}


def test_only_the_documented_series_are_served(metrics_server: InProcessServer) -> None:
    """prometheus_client adds a `_created` gauge beside every counter and
    histogram (`sheepfold_matches_created_created`), which doubled the series,
    are in no table of docs/operations.md and read as a typo."""
    port = metrics_server.server.metrics_port
    assert port
    names = {name for name, _ in scrape(port)}
    assert "sheepfold_matches_created_total" in names
    assert not {name for name in names if name.endswith("_created")}, sorted(names)


def _started_entry(lines: list[str]) -> dict[str, object]:
    return next(e for e in log_entries(lines) if e.get("event") == "server started")


def test_serve_metrics_port_counts_matches_restored_after_a_kill(tmp_path: Path) -> None:
    """`sheepfold serve --metrics-port 0`: the start line names the port, and a match
    left unfinished by SIGKILL is counted as restored by the next server."""
    db = tmp_path / "server.db"
    first = start_server_process("--db", str(db), "--metrics-port", "0")
    try:
        metrics_port = int(_started_entry(first.log_lines)["metrics_port"])  # type: ignore[arg-type]
        assert value(scrape(metrics_port), "sheepfold_matches_restored_total") == 0
        with grpc.insecure_channel(first.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            stub.CreateMatch(create_request(game_cases()[0], 5), timeout=10)
    finally:
        stop_server_process_hard(first)
    second = start_server_process("--db", str(db), "--metrics-port", "0")
    try:
        metrics_port = int(_started_entry(second.log_lines)["metrics_port"])  # type: ignore[arg-type]
        samples = scrape(metrics_port)
        assert value(samples, "sheepfold_matches_restored_total") == 1
        # The loop of `sheepfold serve` (uvloop) is watched too.
        assert value(samples, "sheepfold_event_loop_cpu_seconds_total") > 0
        assert value(samples, "sheepfold_matches_live", game=game_cases()[0].game) == 1
        # The process's resident memory, as the kernel tells it (read a moment later).
        with open(f"/proc/{second.pid}/statm", encoding="ascii") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        reported = value(samples, "sheepfold_resident_memory_bytes")
        assert 0.8 * resident < reported < 1.25 * resident, (reported, resident)
    finally:
        stop_server_process(second)


def test_seats_rejoining_a_match_restored_after_a_kill_count_as_reconnects(
    tmp_path: Path,
) -> None:
    """The SDK's `play()` rejoins a match the server restored after SIGKILL: each
    of its seats had answered decisions before, so each rejoin is a reconnect
    (they were once counted as first joins, and the metric stayed at 0)."""
    asyncio.run(_rejoin_after_a_kill(tmp_path / "server.db"))


async def _rejoin_after_a_kill(db: Path) -> None:
    case = game_cases()[0]
    first = await asyncio.to_thread(start_server_process, "--db", str(db))
    try:
        async with grpc.aio.insecure_channel(first.address) as channel:
            created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                create_request(case, seed=5, decision_seconds=10), timeout=10
            )
        bots = [
            asyncio.create_task(
                play(SlowBot(seat, delay=0.05), first.address, created.match_id, token, seat)
            )
            for seat, token in enumerate(created.seat_tokens)
        ]
        await wait_for_moves(first.address, created.match_id, at_least=2 * case.players)
    finally:
        await asyncio.to_thread(stop_server_process_hard, first)
    second = await asyncio.to_thread(
        start_server_process, "--db", str(db), "--port", str(first.port), "--metrics-port", "0"
    )
    try:
        results = await asyncio.wait_for(asyncio.gather(*bots), timeout=90)
        assert len({result.SerializeToString() for result in results}) == 1
        metrics_port = int(_started_entry(second.log_lines)["metrics_port"])  # type: ignore[arg-type]
        samples = scrape(metrics_port)
        assert value(samples, "sheepfold_matches_restored_total") == 1
        assert value(samples, "sheepfold_reconnects_total", game=case.game) == case.players
    finally:
        await asyncio.to_thread(stop_server_process, second)


async def wait_for_moves(address: str, match_id: str, at_least: int) -> None:
    for _ in range(500):
        info = await get_match(address, match_id)
        if info.moves >= at_least:
            assert info.status == arena_pb2.MATCH_STATUS_RUNNING, "slow the bots down"
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the match did not get going")


def stop_server_process_hard(server: ServerProcess) -> None:
    launch.stop(server, graceful=False)


@pytest.mark.parametrize(
    "where", [("--host", "0.0.0.0"), ("--listen", "unix:{tmp}/s.sock", "--listen", "0.0.0.0:0")]
)
def test_serve_says_loudly_when_exposed_without_token_or_tls(
    tmp_path: Path, where: tuple[str, ...]
) -> None:
    """Binding beyond loopback with no admin token and no TLS starts, with a warning
    line for each; on loopback there is none."""
    flags = [flag.format(tmp=tmp_path) for flag in where]
    # An empty variable counts as unset (an empty --admin-token is refused).
    exposed = start_server_process(*flags, env={"SHEEPFOLD_ADMIN_TOKEN": ""})
    try:
        warnings = [
            str(e["event"]) for e in log_entries(exposed.log_lines) if e.get("level") == "warning"
        ]
    finally:
        stop_server_process(exposed)
    assert any("NO ADMIN TOKEN" in w for w in warnings), warnings
    assert any("NO TLS" in w for w in warnings), warnings
    quiet = start_server_process()
    try:
        assert not [e for e in log_entries(quiet.log_lines) if e.get("level") == "warning"]
    finally:
        stop_server_process(quiet)


def test_taken_metrics_port_is_one_clear_line(metrics_server: InProcessServer) -> None:
    taken = metrics_server.server.metrics_port
    done = subprocess.run(
        [*launch.serve_command("--db", ":memory:", "--metrics-port", str(taken))],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=launch.ROOT,
    )
    assert done.returncode == 1
    assert f"cannot serve metrics on 127.0.0.1:{taken}" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_times_decisions_finer_than_its_loops_millisecond_clock() -> None:
    """`sheepfold serve` runs on uvloop, whose clock counts whole milliseconds
    (and stands still within one turn of the loop). The decision round trip and
    think time were read from it: an answer on loopback (a few tenths of a
    millisecond) was observed as 0 or 1 ms, so the histograms' buckets under a
    millisecond, and every sum, counted in whole milliseconds."""
    server = start_server_process("--metrics-port", "0")
    try:
        entry = _started_entry(server.log_lines)
        assert entry["loop"] == "uvloop"
        metrics_port = int(entry["metrics_port"])  # type: ignore[arg-type]
        case = next(c for c in game_cases() if c.game == "sheep-n-sheep")
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = stub.CreateMatch(create_request(case, 5), timeout=10)
            play_seats_to_end(stub, created.match_id, list(created.seat_tokens))
        samples = scrape(metrics_port)
    finally:
        stop_server_process(server)
    for histogram in ("sheepfold_decision_round_trip_seconds", "sheepfold_bot_think_seconds"):
        count = value(samples, f"{histogram}_count", game=case.game)
        assert count > 20, histogram
        milliseconds = value(samples, f"{histogram}_sum", game=case.game) * 1000
        assert abs(milliseconds - round(milliseconds)) > 1e-6, (histogram, milliseconds)


def test_every_games_counters_are_there_at_zero_before_its_first_match(
    metrics_server: InProcessServer,
) -> None:
    """A counter series that first appears at 1 hides that first increment from
    `rate()` and `increase()`: a fresh server's first match of each game (its
    creation, a first disqualification of a game just restored) went uncounted
    on the dashboards. Every game's series are exported at 0 from the start."""
    port = metrics_server.server.metrics_port
    assert port
    samples = scrape(port)
    for name in games.names():
        for counter in (
            "sheepfold_matches_created_total",
            "sheepfold_decisions_answered_total",
            "sheepfold_disqualifications_total",
            "sheepfold_reconnects_total",
            "sheepfold_decision_round_trip_seconds_count",
        ):
            assert samples.get((counter, (("game", name),))) == 0, (counter, name)
        for outcome in ("completed", "disqualification", "aborted"):
            key = (("game", name), ("outcome", outcome))
            assert samples.get(("sheepfold_matches_finished_total", key)) == 0, key
