"""`serve --host` given an IPv6 address (`::1`, or `::` for every address of
both families): it once stopped with "cannot listen on ::1:50051: gRPC could
not bind it", because the address handed to gRPC was "::1:50051", which names
no port; `--host [::1]` stopped on "Name or service not known". Only
`--listen [::1]:PORT` served."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.sdk import play
from server import launch
from tests.integrity.helpers import SlowBot

pytestmark = pytest.mark.e2e

WEB = (sys.executable, "-m", "cli", "web")


def _started(server: launch.ServerProcess) -> dict[str, object]:
    line = next(line for line in server.log_lines if "server started" in line)
    return dict(json.loads(line))


@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_serve_on_an_ipv6_host_plays_answers_health_and_metrics(host: str) -> None:
    server = launch.start(
        launch.serve_command(
            "--host", host, "--db", ":memory:", "--health-port", "0", "--metrics-port", "0"
        )
    )
    try:
        started = _started(server)
        assert started["listen"] == [f"[::1]:{server.port}"], started
        address = f"[::1]:{server.port}"
        with grpc.insecure_channel(address) as channel:
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=1), timeout=10
            )

        async def seats() -> list[arena_pb2.MatchResult]:
            return await asyncio.gather(
                *(
                    play(SlowBot(seat), address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )

        results = asyncio.run(seats())
        assert len(results) == 2 and list(results[0].scores) == list(results[1].scores)
        with grpc.insecure_channel(f"[::1]:{started['health_port']}") as channel:
            status = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=10
            )
        assert status.status == health_pb2.HealthCheckResponse.SERVING
        with urllib.request.urlopen(f"http://[::1]:{started['metrics_port']}/metrics") as page:
            metrics = page.read().decode()
        assert 'sheepfold_matches_finished_total{game="sheep-n-sheep",outcome="completed"} 1.0' in (
            metrics
        )
    finally:
        assert launch.stop(server) == 0


@pytest.mark.parametrize("host", ["::1", "[::1]"])
@pytest.mark.parametrize("command", ["serve", "web"])
def test_the_web_viewer_url_on_an_ipv6_host_opens(command: str, host: str) -> None:
    """Once "http://::1:PORT/", which no browser opens; `[::1]`, which `--host`
    takes, once stopped the viewer on "Name or service not known"."""
    game_server = launch.start(launch.serve_command("--db", ":memory:"))
    args = (
        launch.serve_command("--db", ":memory:", "--web-port", "0", "--web-host", host)
        if command == "serve"
        else [*WEB, "--port", "0", "--host", host, "--server", game_server.address]
    )
    process = subprocess.Popen(
        args,
        cwd=launch.ROOT,
        # serve prints the address on stdout, web on stderr beside its log
        stdout=subprocess.PIPE if command == "serve" else subprocess.DEVNULL,
        stderr=subprocess.PIPE if command == "web" else subprocess.DEVNULL,
        text=True,
    )
    try:
        stream = process.stdout if command == "serve" else process.stderr
        assert stream is not None
        line = stream.readline().strip()
        prefix = f"sheepfold {command}: " + ("web viewer on " if command == "serve" else "")
        assert line.startswith(f"{prefix}http://[::1]:"), line
        url = line.removeprefix(prefix).split()[0]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
    finally:
        process.terminate()
        stopped = process.wait(timeout=30)
        # Stopped whatever the viewer did: a failed assert here left it running.
        assert launch.stop(game_server) == 0
        assert stopped == 0
