"""Each benchmark runs in a tiny configuration and produces well-formed output.

These never assert a speed: only that every figure is there, finite and
consistent with the others (a benchmark that silently measures nothing fails).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from sheepfold.v1 import arena_pb2

import games
from benchmarks import (
    baseline_server,
    cli,
    engine,
    memory,
    metrics_cost,
    procs,
    report,
    serving,
    targets,
    transcript,
)


def test_engine_measures_every_game_and_player_count() -> None:
    results = engine.run(seconds=0.0)
    seen = {(r.game, r.players) for r in results if not r.options}
    expected = {
        (name, players)
        for name in games.names()
        for players in range(games.get(name).min_players, games.get(name).max_players + 1)
    }
    assert seen == expected
    for r in results:
        assert r.games >= 3 and r.decisions >= r.games
        assert math.isclose(r.decisions_per_second, r.decisions / r.seconds)
        assert math.isclose(r.decisions_per_game, r.decisions / r.games)
    assert any(r.options for r in results), "notable options get their own rows"


def test_transcript_replays_a_whole_game() -> None:
    recorded = transcript.record("sheep-n-sheep", 2, seed=3)
    assert recorded.steps and recorded.result
    assert {step.seat for step in recorded.steps} == {0, 1}
    assert recorded.bytes_per_decision >= recorded.decision_bytes > 0


def test_the_baseline_burns_the_cpu_it_is_given_on_every_answer() -> None:
    room = baseline_server.Room(transcript.record("sheep-n-sheep", 2, seed=3), burn_seconds=0.02)
    queues: list[asyncio.Queue[bytes | None]] = [asyncio.Queue(), asyncio.Queue()]
    for seat, queue in enumerate(queues):
        room.join(seat, queue)
    sent = sum(q.qsize() for q in queues)
    started = time.thread_time()
    room.answer()
    assert time.thread_time() - started >= 0.02  # CPU of this thread, not wall time
    assert room.position == 1 and sum(q.qsize() for q in queues) > sent  # and it went on


def _kinds_sent(room: baseline_server.Room) -> Counter[str]:
    """How many messages of each kind a whole replayed game sends to its seats."""
    queues: list[asyncio.Queue[bytes | None]] = [asyncio.Queue(), asyncio.Queue()]
    for seat, queue in enumerate(queues):
        room.join(seat, queue)
    for _ in room.transcript.steps:
        room.answer()
    kinds: Counter[str] = Counter()
    for queue in queues:
        while (message := queue.get_nowait()) is not None:
            kinds[str(arena_pb2.PlayResponse.FromString(message).WhichOneof("kind"))] += 1
    return kinds


def test_the_baseline_without_events_sends_every_decision_and_the_result_only() -> None:
    recorded = transcript.record("sheep-n-sheep", 2, seed=3)
    everything = _kinds_sent(baseline_server.Room(recorded))
    assert everything["event"] > 0
    assert everything["decision"] == len(recorded.steps) and everything["result"] == 2
    del everything["event"]
    assert _kinds_sent(baseline_server.Room(recorded, events=False)) == everything


@pytest.mark.parametrize("burn", ["abc", "-1", "2000000"])
def test_the_baseline_refuses_a_bad_burn(burn: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        baseline_server.main(["--game", "sheep-n-sheep", "--players", "2", "--burn-us", burn])
    assert stopped.value.code == 2 and "--burn-us" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["server", "server-memory", "server-metrics", "baseline"])
def test_load_through_a_real_server_and_the_baseline(target: str) -> None:
    result = serving.measure(target, "sheep-n-sheep", 2, matches=2, seconds=0.5, warmup=0.1)
    assert result.target == target and result.matches == 2
    assert (result.game, result.players) == ("sheep-n-sheep", 2)
    assert result.decisions > 0 and result.decisions_per_second > 0
    assert 0 < result.p50_ms <= result.p99_ms
    assert result.server_cpu_ms_per_decision is not None
    assert result.server_rss_loaded is not None and result.server_rss_idle > 0


@pytest.mark.parametrize("target", ["server", "baseline"])
def test_load_with_events_in_decisions(target: str) -> None:
    result = serving.measure(
        target, "stubborn-sheep", 2, matches=2, seconds=0.5, warmup=0.1, events_in_decisions=True
    )
    assert result.events_in_decisions and result.decisions > 0
    assert "inside their decisions" in report.load([result])


def test_a_transcript_with_events_in_decisions_holds_every_event_until_the_seats_decision() -> None:
    recorded = transcript.record("stubborn-sheep", 2, seed=4)
    batched = transcript.with_events_in_decisions(recorded)

    def events_per_seat(t: transcript.Transcript) -> list[list[bytes]]:
        seen: list[list[bytes]] = [[], []]
        for step in t.steps:
            for seat, message in step.before:
                seen[seat].append(
                    arena_pb2.PlayResponse.FromString(message).event.SerializeToString()
                )
            decision = arena_pb2.PlayResponse.FromString(step.decision).decision
            seen[step.seat] += [e.SerializeToString() for e in decision.events]
        for seat, message in t.after:
            seen[seat].append(arena_pb2.PlayResponse.FromString(message).event.SerializeToString())
        return seen

    assert all(not step.before for step in batched.steps)
    assert any(arena_pb2.PlayResponse.FromString(s.decision).decision.events for s in batched.steps)
    assert events_per_seat(batched) == events_per_seat(recorded)
    assert len(batched.steps) == len(recorded.steps) and batched.result == recorded.result


def test_before_target_runs_the_server_of_another_checkout(tmp_path: Path) -> None:
    result = serving.measure(
        "before", "stubborn-sheep", 2, matches=1, seconds=0.3, warmup=0.1, before=procs.ROOT
    )
    assert result.target == "before" and result.decisions > 0
    with pytest.raises(SystemExit):
        cli.parse_args(["--before", str(tmp_path)])  # not a checkout: refused


def test_metrics_cost_table_compares_off_and_on() -> None:
    results = serving.run("sheep-n-sheep", 2, (2,), 0.5, 0.1, ("server", "server-metrics"))
    assert [r.target for r in results] == ["server", "server-metrics"]
    text = report.metrics_cost(results, "sheep-n-sheep", 2)
    ratio = results[1].decisions_per_second / results[0].decisions_per_second
    assert f"{ratio:.2f}" in text and "on/off" in text


def test_metrics_calls_are_timed_in_process() -> None:
    assert 0 < metrics_cost.per_decision_seconds(1000) < 0.01


def test_memory_per_match() -> None:
    result = memory.measure("sheep-n-sheep", 2, matches=20)
    assert result.matches == 20 and result.rss_before > 0
    assert result.bytes_per_match == (result.rss_after - result.rss_before) / 20


def test_targets_compare_server_with_baseline() -> None:
    def load(target: str, rate: float, p99: float, game: str = "g") -> serving.LoadResult:
        return serving.LoadResult(
            target, 10, rate, 1.0, p99, 1.0, 100, 1.0, 0.1, 1, 0.5, 0.5, 0.5, 1000, 2000, game, 2
        )

    checks = targets.server_checks([load("server", 400, 30), load("baseline", 1000, 10)])
    assert [(c.measured, c.met) for c in checks] == [
        (0.4, False),
        (1.0, True),
        (0.5, True),  # within the budget: (0.5 + 0.5 driver) / 0.8 - 0.5 driver = 0.75
        (3.0, False),
        (0.5, False),  # CPU ms per decision at 10 matches
    ]
    assert checks[2].target == "<= 0.75"
    assert all(c.name.startswith("g 2p: ") for c in checks)
    assert "MISSED" in report.checks(checks)
    # Each game is compared with its own baseline only.
    other = targets.server_checks([load("server", 900, 10, "g"), load("baseline", 1000, 10, "h")])
    assert [c.name for c in other] == ["g 2p: server CPU ms per decision at 10 matches"]


def test_the_cpu_budget_is_where_the_rate_ratio_reaches_its_goal() -> None:
    """With the bots on the same cores, (baseline + driver) / (server + driver)
    per decision is the rate ratio: a server spending the budget reaches 0.8."""
    base = serving.LoadResult(
        "baseline", 10, 2000, 1.0, 5, 1.0, 100, 1.0, 0.1, 1, 0.35, 0.7, 0.9, 1000, 2000, "g", 2
    )
    budget = targets.cpu_budget(base)
    assert budget is not None
    driver = 0.9 / 2000 * 1000
    assert (0.35 + driver) / (budget + driver) == pytest.approx(targets.RATE_RATIO_AT_LEAST)
    assert targets.cpu_budget(dataclasses.replace(base, server_cpu_ms_per_decision=None)) is None


def test_load_table_has_one_section_per_game_and_the_ramp_ratio() -> None:
    def load(target: str, game: str, ramp: float) -> serving.LoadResult:
        return serving.LoadResult(
            target, 500, 1000, 1.0, 10, 1.0, 100, 1.0, ramp, 1, 0.1, 0.5, 0.5, 1000, 2000, game, 2
        )

    results = [load("server", "a", 3.0), load("baseline", "a", 2.0), load("server", "b", 8.0)]
    text = report.load(results)
    assert "Server vs baseline (a, 2 players" in text and "Server vs baseline (b, 2" in text
    assert "1.50" in text  # a's ramp over its baseline's
    checks = targets.server_checks(results)
    assert [(c.name, c.measured, c.met) for c in checks] == [
        ("a 2p: server/baseline time to join 500 matches", 1.5, True)
    ]


def test_command_line_writes_json_and_prints_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bench.json"
    status = cli.main(
        [
            "--quick",
            "--only",
            "engine,tournament",
            "--engine-games",
            "stubborn-sheep",
            "--engine-seconds",
            "0",
            "--json",
            str(out),
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "Engine" in printed and "Tournament" in printed and "Targets" in printed
    data = json.loads(out.read_text())
    assert data["errors"] == {}
    assert {r["game"] for r in data["engine"]} == {"stubborn-sheep"}
    assert [r["concurrency"] for r in data["tournament"]] == [1, 2]
    assert all(r["games"] > 0 and r["errors"] == 0 for r in data["tournament"])
    assert data["targets"][0]["name"].startswith("engine stubborn-sheep")


def test_unknown_section_is_refused() -> None:
    with pytest.raises(SystemExit):
        cli.parse_args(["--only", "everything"])


def test_valuation_compares_the_fast_path_with_applying_each_action(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import valuation

    assert valuation.main(["--positions", "4"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert set(rows) == set(games.names())
    assert rows["sheep-and-garden"][-1].endswith("x")  # has evaluate_after: a speed-up
    assert rows["sheep-showdown"][2] == "-"  # has none: only the slow way is timed


def test_soak_samples_memory_files_and_database_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny soak through the command line: the samples add up and the database
    size per match is what the file holds once the server stopped."""
    out = tmp_path / "bench.json"
    status = cli.main(["--quick", "--only", "soak", "--soak-matches", "48", "--json", str(out)])
    assert status == 0
    printed = capsys.readouterr().out
    assert "Soak (sheep-showdown" in printed and "bytes per match" in printed
    data = json.loads(out.read_text())["soak"]
    samples = data["samples"]
    assert data["end"]["matches"] == 48, "every match finished"
    assert [s["matches"] for s in samples] == sorted(s["matches"] for s in samples)
    assert all(s["rss_bytes"] > 0 and s["open_files"] > 0 for s in samples)
    assert data["final_db_bytes"] > 0
    assert math.isclose(data["db_bytes_per_match"], data["final_db_bytes"] / 48)
    assert data["rss_growth_per_1000"] is not None and math.isfinite(data["rss_growth_per_1000"])


def test_repeated_rows_hold_the_median_of_each_figure() -> None:
    def run(rate: float, p99: float, cpu: float | None) -> serving.LoadResult:
        return serving.LoadResult(
            "server", 10, rate, 1.0, p99, 1.0, 100, 1.0, 0.5, 1, cpu, 0.9, 0.7, 1000, 2000, "g", 2
        )

    row = serving.median([run(1000, 9.0, 0.5), run(3000, 7.0, 0.7), run(2000, 8.0, 0.4)])
    assert (row.target, row.matches, row.game, row.runs) == ("server", 10, "g", 3)
    assert (row.decisions_per_second, row.p99_ms, row.server_cpu_ms_per_decision) == (
        2000,
        8.0,
        0.5,
    )
    assert serving.median([run(1, 1, None), run(2, 2, 0.3)]).server_cpu_ms_per_decision is None
    assert "medians of 3 runs" in report.load([row])


def test_repeat_measures_every_target_in_turn_and_keeps_one_row_each() -> None:
    rows = serving.run("sheep-showdown", 2, (2,), 0.3, 0.1, ("server", "baseline"), repeats=2)
    assert [(r.target, r.matches, r.runs) for r in rows] == [
        ("server", 2, 2),
        ("baseline", 2, 2),
    ]
    assert all(r.decisions > 0 and r.p50_ms <= r.p99_ms for r in rows)
    with pytest.raises(SystemExit):
        cli.parse_args(["--repeat", "0"])


def test_spectators_of_whole_matches_are_measured_beside_live_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import spectators

    tiny = ["--game", "sheep-showdown", "--players", "2", "--finished", "2", "--live", "1"]
    # Five seconds a decision: a second was once missed on two cores busy with
    # a parallel test run beside a CI run.
    status = spectators.main([*tiny, "--clients", "2", "--deadline", "5", "--held-moves", "10"])
    assert status == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    cells = {row.split(" | ")[0][2:]: row.strip("| ").split(" | ")[1:] for row in rows[1:]}
    assert list(cells) == [
        "alone",
        "2 clients watching every finished match in turn",
        "2 clients watching one finished match",
        "2 clients watching a live match of 10 moves from the start, one each",
    ]
    assert float(cells["alone"][0]) == 0.0
    for label, (watches, p50, p99, worst, missed) in cells.items():
        assert 0 < float(p50) <= float(p99) <= float(worst), label
        assert missed == "0", label  # five seconds a decision: nothing is missed
        if label != "alone":
            assert float(watches.replace(",", "")) > 0, f"{label}: the watchers watched nothing"


def _benchmark(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m benchmarks.<module> args` from the repository, its output kept."""
    return subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.parametrize(("db", "metrics"), [("file", False), (":memory:", False), ("file", True)])
def test_the_match_loop_counts_decisions_and_splits_the_bots_cpu_out(
    db: str, metrics: bool
) -> None:
    done = _benchmark(
        "match_loop",
        "--game", "stubborn-sheep", "--players", "3", "--matches", "2",
        "--seconds", "0.5", "--warmup", "0.2", "--db", db,
        *(["--metrics"] if metrics else []),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["game"], result["players"], result["db"]) == ("stubborn-sheep", 3, db)
    assert result["metrics"] is metrics
    assert result["decisions"] > 0
    assert math.isclose(result["decisions_per_second"], result["decisions"] / 0.5)
    assert 0 < result["bots_us_per_decision"] < result["thread_us_per_decision"]
    assert math.isclose(
        result["sheepfold_us_per_decision"],
        result["thread_us_per_decision"] - result["bots_us_per_decision"],
    )
    assert result["process_us_per_decision"] >= result["thread_us_per_decision"] * 0.9


def test_the_match_loop_refuses_a_player_count_the_game_has_not() -> None:
    done = _benchmark("match_loop", "--game", "sheep-n-sheep", "--players", "7")
    assert done.returncode == 2
    assert "sheep-n-sheep takes 2 to 4 players, not 7" in done.stderr
    assert "Traceback" not in done.stderr


def test_decision_steps_split_a_decision_into_its_steps() -> None:
    done = _benchmark("decision_steps", "--game", "sheep-and-garden", "--warm", "1", "--games", "2")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["game"], result["players"], result["games"]) == ("sheep-and-garden", 2, 2)
    assert result["decisions"] > 2
    steps = result["steps_us_per_decision"]
    assert set(steps) == {
        "legal_actions", "observation", "observation_bytes", "actions_bytes", "apply", "events",
    }  # fmt: skip
    assert all(value > 0 for value in steps.values())
    assert math.isclose(result["us_per_decision"], sum(steps.values()))


def test_decision_steps_refuse_a_player_count_the_game_has_not() -> None:
    done = _benchmark("decision_steps", "--game", "sheep-and-garden", "--players", "9")
    assert done.returncode == 2
    assert "sheep-and-garden takes 1 to 4 players, not 9" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("levels", ["x", "1,,10", "1.5", "0", "-1"])
def test_levels_that_are_no_counts_are_a_usage_error(
    levels: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--levels", levels])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"python -m benchmarks: error: --levels {levels}: "
        "concurrent matches are whole numbers of 1 or more, comma-separated (e.g. 1,10,100)"
    )
