"""What the viewer says when its game server refuses a call."""

from __future__ import annotations

import grpc

from web.gateway import _error


def _refused(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details)


def test_a_viewer_pointed_at_a_health_only_port_says_it_is_no_game_port() -> None:
    """`sheepfold web --server` given the image's health port (8081) answered
    every page with gRPC's bare "Method not found!"."""
    error = _error(_refused(grpc.StatusCode.UNIMPLEMENTED, "Method not found!"), "list matches")
    assert error.status == 502
    assert error.message == (
        "UNIMPLEMENTED: Method not found! (no sheepfold.v1.Arena there: the address is not "
        "a Sheepfold game port; a --health-port answers health checks alone)"
    )


def test_other_refusals_keep_their_words() -> None:
    error = _error(_refused(grpc.StatusCode.NOT_FOUND, "no match 'x'"), "get match")
    assert (error.status, error.message) == (404, "no match 'x'")
