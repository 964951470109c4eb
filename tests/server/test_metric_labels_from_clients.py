"""README's promise on the metrics' labels, tried as an attacker would: made-up
game names, options, match ids and seats sent to a real server add no series;
every `game` label is one of the four games."""

from __future__ import annotations

import json
import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from server.launch import ServerProcess
from tests.conftest import start_server_process, stop_server_process
from tests.raw_stream import RawSeat

pytestmark = pytest.mark.e2e


def _series(server: ServerProcess) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    (started,) = [line for line in server.log_lines if '"server started"' in line]
    port = json.loads(started)["metrics_port"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items())))
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_client_values_add_no_series() -> None:
    server = start_server_process("--db", ":memory:", "--log-format", "json", "--metrics-port", "0")
    try:
        before = _series(server)
        with grpc.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            for number in range(20):
                for request in (
                    arena_pb2.CreateMatchRequest(game=f"game-{number}", players=2),
                    arena_pb2.CreateMatchRequest(
                        game="sheep-showdown", players=2, options={f"option-{number}": "x"}
                    ),
                ):
                    with pytest.raises(grpc.RpcError):
                        stub.CreateMatch(request, timeout=10)
                joining = RawSeat(stub, timeout=10)
                joining.join(f"match-{number}", f"token-{number}", number)
                assert joining.status() == grpc.StatusCode.NOT_FOUND
                joining.close()
        after = _series(server)
    finally:
        assert stop_server_process(server) == 0
    assert after == before
    labelled = {dict(labels)["game"] for _, labels in after if "game" in dict(labels)}
    assert labelled == set(games.names())
