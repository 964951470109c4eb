"""Error messages are cut to what a client accepts in its trailers."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from grpc._cython import cygrpc

from server.status import MAX_DETAILS, MAX_ENCODED, CallEnded, abort, brief, encoded_size
from server.unexpected import PASSED_ON


@pytest.mark.parametrize(
    "details",
    [
        "x" * 100_000,
        "\u2603" * 2_000,  # nine bytes each once encoded: 1,000 of them were 9 KB
        "%" * 5_000,
        "a\u2603" * 3_000,
        "\U0001f411" * 1_500,  # a sheep: four UTF-8 bytes, twelve encoded
    ],
)
def test_long_messages_are_cut_below_the_soft_limit(details: str) -> None:
    cut = brief(details)
    assert cut.endswith("...") and details.startswith(cut[:-3])
    assert len(cut) <= MAX_DETAILS and encoded_size(cut) <= MAX_ENCODED


def test_short_messages_are_kept_whole() -> None:
    for details in ("no match 'abc'", "\u2603" * 400, "y" * MAX_DETAILS):
        assert brief(details) == details


def test_the_encoded_size_counts_three_bytes_for_each_escaped_one() -> None:
    assert encoded_size("ab c") == 4
    assert encoded_size("100%") == 6
    assert encoded_size("\u2603") == 9


class _EndedCall:
    """A servicer context whose call is over: sending a status fails, as gRPC's
    batch does when the client has left."""

    def __init__(self, failure: BaseException) -> None:
        self.failure = failure

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise self.failure


def test_a_status_the_ended_call_cannot_take_is_call_ended_not_a_fault() -> None:
    context = _EndedCall(cygrpc.ExecuteBatchError('Failed "execute_batch"'))
    with pytest.raises(CallEnded, match="NOT_FOUND not sent"):
        asyncio.run(abort(context, grpc.StatusCode.NOT_FOUND, "no match"))  # type: ignore[arg-type]
    assert CallEnded in PASSED_ON, "the safety net must not log it as an unexpected error"


def test_a_mistake_in_aborting_is_not_taken_for_an_ended_call() -> None:
    """Aborting twice (or with bad arguments) is a bug, for the safety net to log."""
    context = _EndedCall(grpc.aio.UsageError("Abort already called!"))
    with pytest.raises(grpc.aio.UsageError):
        asyncio.run(abort(context, grpc.StatusCode.NOT_FOUND, "no match"))  # type: ignore[arg-type]


def test_a_sent_status_still_ends_the_call_with_abort_error() -> None:
    context = _EndedCall(grpc.aio.AbortError())
    with pytest.raises(grpc.aio.AbortError):
        asyncio.run(abort(context, grpc.StatusCode.NOT_FOUND, "no match"))  # type: ignore[arg-type]
