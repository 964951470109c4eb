"""What a game not played because its Ray worker died says (Ray is imported,
not started). Ray's own line pointed at "python-core-worker-*.log files": a
run's own Ray instance has removed them when anyone reads it, and on a
cluster they are on the node that played the game, not here."""

from __future__ import annotations

import pytest
from ray.exceptions import NodeDiedError, WorkerCrashedError

from tournament.executors.ray import _first_line
from tournament.executors.ray_messages import worker_died

NODE_LINE = (
    "Task failed because the node it was running on is dead or unavailable. "
    "To see node death information, use `ray list nodes --filter node_id=1a2b`."
)


def _said(error: BaseException, own_instance: bool) -> str:
    return worker_died(error, 4, own_instance, _first_line(error))


@pytest.mark.parametrize("own_instance", [True, False])
def test_a_dead_worker_points_at_no_log_file_the_run_removed(own_instance: bool) -> None:
    said = _said(WorkerCrashedError(), own_instance)
    assert said.startswith(
        "its Ray worker died 4 times (its process ended mid-game: killed, out of memory, "
        "or a crash in native code; "
    )
    assert "Check python-core-worker" not in said
    if own_instance:
        assert said.endswith(
            "Ray's logs of this run went with the run's own Ray instance (to keep them, start "
            "Ray with `ray start --head` and run with `--ray auto`))"
        )
    else:
        assert "logs folder on the node that played it (/tmp/ray/session_latest/logs" in said


def test_a_dead_node_keeps_rays_pointers_only_on_a_cluster() -> None:
    error = NodeDiedError(NODE_LINE)
    assert _said(error, False) == f"its Ray worker died 4 times: NodeDiedError: {NODE_LINE}"
    own = _said(error, True)
    assert "ray list nodes" not in own
    assert own.startswith("its Ray worker died 4 times (its Ray node died or could not be reached;")
