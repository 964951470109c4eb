"""What a restart does to the metrics, as docs/operations.md ("Metrics") says:
the counters start again at 0, the unfinished match is counted as restored and
not again as created, and the live gauge counts it from the first scrape."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process

pytestmark = pytest.mark.e2e

GAME = "sheep-showdown"


def _samples(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    (started,) = [line for line in server.log_lines if '"server started"' in line]
    port = json.loads(started)["metrics_port"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _serve(database: Path) -> ServerProcess:
    return start_server_process(
        "--db", str(database), "--log-format", "json", "--metrics-port", "0",
        "--start-timeout", "600",
    )  # fmt: skip


def test_a_restart_starts_the_counters_again_and_counts_the_restored_match(
    tmp_path: Path,
) -> None:
    database = tmp_path / "server.db"
    created_key = ("sheepfold_matches_created_total", (("game", GAME),))
    live_key = ("sheepfold_matches_live", (("game", GAME),))
    restored_key = ("sheepfold_matches_restored_total", ())
    first = _serve(database)
    try:
        with grpc.insecure_channel(first.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            stub.CreateMatch(arena_pb2.CreateMatchRequest(game=GAME, players=2), timeout=10)
        before = _samples(first)
    finally:
        assert stop_server_process(first) == 0
    second = _serve(database)
    try:
        after = _samples(second)
    finally:
        assert stop_server_process(second) == 0
    assert (before[created_key], before[live_key], before[restored_key]) == (1, 1, 0)
    assert (after[created_key], after[live_key], after[restored_key]) == (0, 1, 1)
