"""The check of a `--ray ADDRESS` before ray.init lets a real Ray cluster through.

It asks the address the first thing Ray's GCS client asks (GetClusterId); if a
Ray release renamed that call, every real cluster would be refused as "not a
Ray cluster", so the call itself must succeed here. (The addresses it refuses
are tested without Ray, in tests/tournament/test_ray_address.py.)
"""

from __future__ import annotations

from typing import Any

from tournament.executors import ray_address


def test_a_real_gcs_answers_the_probe_call(cluster: Any) -> None:
    channel, _token_auth = ray_address.probe_channel(cluster.address)
    try:
        probe = ray_address.GCS_PROBE
        reply = channel.unary_unary(probe.method)(probe.request, timeout=10)
    finally:
        channel.close()
    from ray.core.generated import gcs_service_pb2

    assert gcs_service_pb2.GetClusterIdReply.FromString(reply).cluster_id


def test_the_address_check_lets_a_real_cluster_through(cluster: Any) -> None:
    assert ray_address.not_ray(cluster.address, ray_address.GCS_PROBE) is None
    ray_address.check_address(cluster.address)  # raises RayAddressError when refused
