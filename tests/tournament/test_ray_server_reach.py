"""Without Ray: how a Ray run's nodes' answers about its --server addresses
become the one line that stops a new tournament before it is stored
(tests/ray/test_cluster_runs.py asks a real cluster's nodes)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.inprocess import InProcessServer
from tests.tournament.quick_cup import quick_cup
from tournament import runner
from tournament.executors import ray as ray_executor
from tournament.executors.ray import RayExecutor
from tournament.executors.server_reach import unanswered, unreached
from tournament.executors.settings import ExecutorSettings
from tournament.run_checks import Prechecked
from tournament.run_error import RunError
from tournament.store import Store

A, B = "10.0.0.1:5000", "10.0.0.2:5000"
GONE = "cannot reach the server at 10.0.0.2:5000: connection refused"


def _closed_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def test_a_server_no_node_reaches_is_named_with_the_first_node_and_how_many_others() -> None:
    answers = [("n1", ("", GONE)), ("n2", ("", GONE)), ("n3", ("", GONE))]
    assert unreached((A, B), answers) == [f"{GONE} (from n1, and from 2 other nodes)"]
    assert unreached((A, B), answers[:1]) == [f"{GONE} (from n1)"]


def test_a_server_one_node_reaches_is_left_to_the_run() -> None:
    """The games run on every node: one that reaches it can play there (a node
    that cannot drops it mid-run, as before)."""
    assert unreached((A, B), [("n1", ("", GONE)), ("n2", ("", ""))]) == []


def test_no_node_answering_names_no_server() -> None:
    assert unreached((A, B), []) == []


def test_a_worker_asks_each_server_as_a_run_without_ray_does() -> None:
    closed = _closed_address()
    with InProcessServer() as live:
        said = unanswered((live.address, closed), None)
    assert said[0] == ""
    assert said[1].startswith(f"cannot reach the server at {closed}: "), said


class _Nodes:
    """RayExecutor._on_each answered without Ray: each node's answer given."""

    def __init__(self, answers: list[tuple[str, Any]]) -> None:
        self.answers = answers
        self.asked: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    def __call__(self, nodes: Any, function: Callable[..., Any], *args: Any) -> Any:
        self.asked.append((function, args))
        return self.answers


def _executor(servers: tuple[str, ...], nodes: _Nodes) -> RayExecutor:
    executor = object.__new__(RayExecutor)
    executor.settings = ExecutorSettings(kind="ray")
    executor.servers = servers
    executor.tls = None
    executor._on_each = nodes  # type: ignore[method-assign]
    return executor


def test_the_check_stops_on_every_server_no_node_reached_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ray_executor, "_cpu_nodes", lambda: [{"Resources": {"CPU": 1.0}}])
    other = "cannot reach the server at 10.0.0.1:5000: it does not speak gRPC"
    nodes = _Nodes([("n1", (other, GONE)), ("n2", TimeoutError("no answer"))])
    with pytest.raises(RunError) as raised:
        _executor((A, B), nodes).check_servers()
    assert str(raised.value) == f"{other} (from n1); {GONE} (from n1)"
    assert nodes.asked == [(unanswered, ((A, B), None))]


def test_the_check_passes_a_pool_every_server_of_which_a_node_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """n2 reaches both servers: no RunError, and the nodes were asked about both."""
    monkeypatch.setattr(ray_executor, "_cpu_nodes", lambda: [{"Resources": {"CPU": 1.0}}])
    nodes = _Nodes([("n1", ("", GONE)), ("n2", ("", ""))])
    _executor((A, B), nodes).check_servers()
    assert nodes.asked == [(unanswered, ((A, B), None))]


def test_a_run_asks_the_nodes_only_for_a_tournament_not_stored_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a run without Ray: a stored tournament (a finished one too) is left
    to the run."""
    config = quick_cup(tmp_path)
    db = str(tmp_path / "cup.sqlite")
    told: list[bool] = []

    def run_on_ray(*args: Any, prechecked: Prechecked, **kwargs: Any) -> None:
        told.append(prechecked.stored)

    monkeypatch.setattr(ray_executor, "run_on_ray", run_on_ray)
    settings = ExecutorSettings(kind="ray")
    runner.run_tournament(config, server=A, database=db, executor=settings)
    with Store(db) as store:
        runner.open_tournament(store, config, 4, [list(config.bot_names)])
    runner.run_tournament(config, server=A, database=db, executor=settings)
    assert told == [False, True]
