"""`--ray ADDRESS` where no Ray cluster answers fails within seconds, in one line.

ray.init itself waits about 45 s at a port that is not Ray's (a closed port, an
HTTP server, another gRPC server), printing lines of Ray's own log; the runner
checks the address first. No test here starts Ray: each address is refused
before ray.init is called (the real cluster's side is in tests/ray). Every
server here listens on 127.0.0.1 only.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import http.server
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from server.inprocess import InProcessServer
from tests.sockets import closed_loopback_address
from tournament.config import load_config
from tournament.executors import ray_address
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, run_tournament

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "examples" / "round-robin.toml"
# ray.init gave up after 45 s; the check answers in about one. Generous, not a benchmark.
FAST = 20.0
USAGE_ERROR = 2  # as the command's bad config and bad options


@pytest.fixture
def http_server() -> Iterator[str]:
    """A plain HTTP/1 server on 127.0.0.1 (as `python -m http.server`)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections on 127.0.0.1 and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield f"127.0.0.1:{listener.getsockname()[1]}"


def _tournament_run(
    address: str, tmp_path: Path, env: dict[str, str] | None = None
) -> tuple[int, list[str], float]:
    """`sheepfold tournament run CONFIG --ray ADDRESS` as a user runs it: exit
    status, stderr lines (Ray's C++ log goes to the process's stderr too) and seconds."""
    command = ["tournament", "run", str(CONFIG), "--db", str(tmp_path / "never.sqlite")]
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "cli", *command, "--ray", address],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    seconds = time.monotonic() - started
    assert not (tmp_path / "never.sqlite").exists(), "no game may start"
    return result.returncode, result.stderr.strip().splitlines(), seconds


def test_a_closed_port_is_one_line_within_seconds(tmp_path: Path) -> None:
    address = closed_loopback_address()
    code, err, seconds = _tournament_run(address, tmp_path)
    assert err == [
        f"sheepfold tournament: cannot join a Ray cluster: nothing listens at {address} "
        "(connection refused)"
    ]
    assert code == USAGE_ERROR and seconds < FAST


def test_an_http_server_is_not_a_ray_cluster(tmp_path: Path, http_server: str) -> None:
    code, err, seconds = _tournament_run(http_server, tmp_path)
    assert err == [
        f"sheepfold tournament: cannot join a Ray cluster: {http_server} answers but is not a "
        "Ray cluster (no gRPC there; a Ray head's GCS port is 6379 by default)"
    ], "one line, no traceback, no Ray log"
    assert code == USAGE_ERROR and seconds < FAST


def test_a_sheepfold_server_is_not_a_ray_cluster(
    tmp_path: Path, inprocess_server: InProcessServer
) -> None:
    address = inprocess_server.address
    code, err, seconds = _tournament_run(address, tmp_path)
    assert err == [
        f"sheepfold tournament: cannot join a Ray cluster: {address} answers but is not a "
        "Ray cluster (a gRPC server without Ray's GCS service; a Ray head's GCS port is "
        "6379 by default)"
    ]
    assert code == USAGE_ERROR and seconds < FAST


def _no_local_cluster(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a machine where `ray start` never ran: no RAY_ADDRESS,
    and a Ray temp folder without the address file `ray start --head` leaves."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    (tmp_path / "ray-tmp").mkdir()
    return {**env, "RAY_TMPDIR": str(tmp_path / "ray-tmp"), **extra}


def test_auto_without_a_cluster_here_says_what_to_give_instead(tmp_path: Path) -> None:
    """`--ray auto` on a machine without a Ray cluster ended, exit 1, on Ray's own
    words: "Please specify the one to connect to by setting `--address` flag",
    a flag sheepfold does not have."""
    code, err, seconds = _tournament_run("auto", tmp_path, _no_local_cluster(tmp_path))
    assert err == [
        "sheepfold tournament: cannot join a Ray cluster: --ray auto found none started on "
        "this machine (ray start --head) and RAY_ADDRESS is not set; give the head's "
        "address (--ray HEAD:6379), or --ray alone to start Ray here"
    ]
    assert code == USAGE_ERROR and seconds < FAST


def test_auto_checks_the_address_ray_address_names(tmp_path: Path) -> None:
    """`--ray auto` with RAY_ADDRESS where nothing listens waited 45 s, printing
    Ray's log, and ended "cannot connect to the Ray cluster at auto" (exit 1)."""
    address = closed_loopback_address()
    env = _no_local_cluster(tmp_path, RAY_ADDRESS=address)
    code, err, seconds = _tournament_run("auto", tmp_path, env)
    assert err == [
        f"sheepfold tournament: cannot join a Ray cluster: nothing listens at {address} "
        "(connection refused); --ray auto took it from RAY_ADDRESS"
    ]
    assert code == USAGE_ERROR and seconds < FAST


def test_auto_tells_a_port_out_of_range_in_ray_address_as_the_flag_is_told(
    tmp_path: Path,
) -> None:
    """`--ray 127.0.0.1:99999` is told its port's range before the config is read,
    but the same address found by `--ray auto` in RAY_ADDRESS reached Ray's own
    check, which said "is not HOST:PORT" of it."""
    env = _no_local_cluster(tmp_path, RAY_ADDRESS="127.0.0.1:99999")
    code, err, _ = _tournament_run("auto", tmp_path, env)
    assert err == [
        "sheepfold tournament: Ray address '127.0.0.1:99999': 99999 is not a port: "
        "use 1 to 65535; --ray auto took it from RAY_ADDRESS"
    ]
    assert code == USAGE_ERROR


@pytest.mark.parametrize(
    ("address", "port"),
    [
        ("127.0.0.1:99999", "99999"),
        ("127.0.0.1:70000", "70000"),
        ("127.0.0.1:0", "0"),
        ("ray://127.0.0.1:65536", "65536"),
        ("[::1]:000099999", "99999"),
    ],
)
def test_a_port_out_of_range_is_told_as_every_address_is(address: str, port: str) -> None:
    """check_address said "is not HOST:PORT" of a port past 1 to 65535, where
    every other address (and --ray on the command line) is told the range."""
    with pytest.raises(ray_address.RayAddressError) as raised:
        ray_address.check_address(address)
    assert str(raised.value) == f"Ray address {address!r}: {port} is not a port: use 1 to 65535"


def _run_on(address: str, tmp_path: Path) -> RunError:
    with pytest.raises(RunError) as raised:
        run_tournament(
            load_config(CONFIG),
            database=str(tmp_path / "never.sqlite"),
            executor=ExecutorSettings(kind="ray", address=address),
        )
    assert isinstance(raised.value, ray_address.RayAddressError)
    return raised.value


def test_a_port_that_never_answers_is_refused_after_the_probe(
    tmp_path: Path, silent_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ray_address, "PROBE_SECONDS", 0.5)
    started = time.monotonic()
    error = _run_on(silent_server, tmp_path)
    assert str(error) == (
        f"cannot join a Ray cluster: {silent_server} accepts connections but gave no Ray "
        "answer within 0.5 s (is it a Ray cluster? a Ray head's GCS port is 6379 by default)"
    )
    assert time.monotonic() - started < FAST


@contextlib.contextmanager
def _grpc_server(*handlers: grpc.GenericRpcHandler) -> Iterator[int]:
    """A gRPC server on 127.0.0.1 answering with `handlers` only; its port."""
    server = grpc.server(concurrent.futures.ThreadPoolExecutor(1), handlers=handlers)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield port
    finally:
        server.stop(None)


def test_a_ray_client_address_is_probed_as_ray_client(tmp_path: Path) -> None:
    """`ray://HOST:PORT` is Ray Client's server, whose default port differs."""
    with _grpc_server() as port:  # no service at all
        error = _run_on(f"ray://127.0.0.1:{port}", tmp_path)
    assert "a gRPC server without Ray Client's service" in str(error)
    assert "Ray Client port is 10001" in str(error)


@pytest.mark.parametrize(
    "address",
    # Other scripts' digits (fullwidth 6379): int() reads them, and the check went
    # on to port 6379 while Ray was handed the text as given.
    ["127.0.0.1", "127.0.0.1:x", ":6379", "127.0.0.1:\uff16\uff13\uff17\uff19"],
)
def test_an_address_that_is_not_host_port_is_a_usage_error(tmp_path: Path, address: str) -> None:
    assert "is not HOST:PORT" in str(_run_on(address, tmp_path))


def test_a_host_name_with_a_label_over_63_characters_is_one_line(tmp_path: Path) -> None:
    """The lookup's UnicodeError ("label too long") was a traceback, exit 1."""
    host = "a" * 64
    error = str(_run_on(f"{host}:6379", tmp_path))
    said = f"cannot join a Ray cluster: {host!r} in {host}:6379 is not a host name"
    assert error.startswith(said), error
    assert "label too long" in error and "\n" not in error


def test_a_dashboard_url_is_told_apart_from_the_head_s_address(tmp_path: Path) -> None:
    """`ray job submit` takes the dashboard's http://HEAD:8265; --ray took it for a
    host named 'http://HEAD' that "does not resolve"."""
    error = str(_run_on("http://127.0.0.1:8265", tmp_path))
    assert error.startswith("Ray address 'http://127.0.0.1:8265' is not HOST:PORT")
    assert "an http:// address is the dashboard's" in error
    assert "unknown host" not in error


def test_several_addresses_are_told_to_go_to_server(tmp_path: Path) -> None:
    """As --server takes A,B, --ray A,B was taken for a host named 'A,HOST_B'."""
    error = str(_run_on("127.0.0.1:6379,127.0.0.1:6380", tmp_path))
    assert error.startswith("Ray address '127.0.0.1:6379,127.0.0.1:6380' is not HOST:PORT")
    assert "--ray takes one address" in error
    assert "unknown host" not in error


class _AskingForAToken(grpc.GenericRpcHandler):
    """Answers every call as a Ray cluster with token authentication does without one."""

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        def refuse(request: bytes, context: grpc.ServicerContext) -> bytes:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "InvalidAuthToken")

        return grpc.unary_unary_rpc_method_handler(refuse)


def test_a_cluster_that_wants_a_token_says_how_to_give_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ray start --head` turns token authentication on; ray.init without the token
    retried for 20 s, printing a Ray log line a second."""
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    # Ray caches its authentication mode per process: a local ray.init earlier in
    # the same test run turns it to "token". This machine sends none here.
    monkeypatch.setattr(
        ray_address, "probe_channel", lambda target: (grpc.insecure_channel(target), False)
    )
    with _grpc_server(_AskingForAToken()) as port:
        error = _run_on(f"127.0.0.1:{port}", tmp_path)
    assert str(error).startswith(
        f"cannot join a Ray cluster: 127.0.0.1:{port} is a Ray cluster that wants its "
        "authentication token"
    )
    assert "RAY_AUTH_MODE=token" in str(error)


def _auto_error() -> str:
    from ray._private import services

    from tournament.executors.ray_connect import _auto_address

    # Ray also looks for a GCS among this machine's processes: a cluster another
    # program runs here meanwhile is not the one these tests mean.
    with (
        pytest.MonkeyPatch.context() as patch,
        pytest.raises(ray_address.RayAddressError) as raised,
    ):
        patch.setattr(services, "find_gcs_addresses", list)
        _auto_address()
    return str(raised.value)


def test_auto_with_ray_address_auto_and_no_cluster_does_not_say_it_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RAY_ADDRESS=auto is Ray's own way of saying what --ray auto says: with no
    cluster here the message said "RAY_ADDRESS is not set", which it was."""
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    message = _auto_error()
    assert "RAY_ADDRESS is not set" not in message, message
    assert "--ray auto found none started on this machine" in message
    assert "RAY_ADDRESS=auto" in message


def test_auto_with_ray_address_auto_names_the_address_file_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RAY_ADDRESS=auto and an address left by `ray start --head` where nothing
    listens now: the message blamed RAY_ADDRESS, which named no address."""
    pytest.importorskip("ray")
    (tmp_path / "ray").mkdir()
    address = closed_loopback_address()
    (tmp_path / "ray" / "ray_current_cluster").write_text(address)
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    message = _auto_error()
    assert message == (
        f"cannot join a Ray cluster: nothing listens at {address} (connection refused); "
        "--ray auto took it from the last `ray start --head` on this machine"
    )


def test_auto_names_a_running_ray_process_when_no_address_file_named_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no address file, Ray's `auto` takes a cluster it finds among this
    machine's processes, which may be one this process cannot reach (another
    network namespace, a cluster dying): the message blamed `ray start --head`,
    which had left no address."""
    pytest.importorskip("ray")
    from ray._private import services

    from tournament.executors.ray_connect import _auto_address

    address = closed_loopback_address()
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))  # no ray_current_cluster here
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(services, "find_gcs_addresses", lambda: [address])
    with pytest.raises(ray_address.RayAddressError) as raised:
        _auto_address()
    assert str(raised.value) == (
        f"cannot join a Ray cluster: nothing listens at {address} (connection refused); "
        "--ray auto took it from a Ray process running on this machine "
        "(ray start, or a Ray started by another program)"
    )
