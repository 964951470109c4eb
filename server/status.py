"""Ending a call with an error status whose message fits gRPC's trailers.

A message that echoes what the caller sent (a match id, a game name, an option)
could be longer than the metadata a client accepts. Past 8 KiB (gRPC's soft
limit) a client drops such trailers now and then, past 16 KiB always, and it
then sees RESOURCE_EXHAUSTED "received metadata size exceeds ... limit"
instead of the status meant for it. So a message is cut to MAX_DETAILS
characters and to MAX_ENCODED bytes once percent-encoded, as gRPC sends it:
every byte outside printable ASCII, and `%`, takes three.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import NoReturn

import grpc
from grpc._cython import cygrpc

from games.options import brief as brief_name

MAX_DETAILS = 1000
# Half the soft limit: room for the status, the other trailers and their names.
MAX_ENCODED = 4096
ELLIPSIS = "..."


def encoded_size(text: str) -> int:
    """Bytes of `text` percent-encoded in a grpc-message trailer."""
    return sum(1 if 0x20 <= byte <= 0x7E and byte != 0x25 else 3 for byte in text.encode())


def brief(details: str) -> str:
    """`details`, cut to MAX_DETAILS characters and MAX_ENCODED encoded bytes."""
    if len(details) <= MAX_DETAILS and len(details.encode()) * 3 <= MAX_ENCODED:
        return details  # short enough whatever it holds (nearly every message)
    budget = MAX_ENCODED - len(ELLIPSIS)
    kept: list[str] = []
    for char in details[: MAX_DETAILS - len(ELLIPSIS)]:
        budget -= encoded_size(char)
        if budget < 0:
            break
        kept.append(char)
    else:
        if len(details) <= MAX_DETAILS:
            return details
    return "".join(kept) + ELLIPSIS


# What sending a status on a call that has ended raises: a private class of
# gRPC's, so looked up with a fallback (then such a failure is logged instead).
_BATCH_FAILED: type[Exception] | tuple[()] = getattr(cygrpc, "ExecuteBatchError", ())


class CallEnded(Exception):
    """The status could not be sent: the call had already ended (its client left)."""


async def abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, details: str) -> NoReturn:
    """End the call with `code` and `details` (cut short)."""
    try:
        await context.abort(code, brief(details))
    except _BATCH_FAILED as error:
        raise CallEnded(f"{code.name} not sent: the call had ended") from error
    raise AssertionError("context.abort returned")  # it raises; this tells the type checker


async def abort_no_match(context: grpc.aio.ServicerContext, match_id: str) -> NoReturn:
    """NOT_FOUND for a match id the server does not know, quoted cut to 40
    characters as an unknown game or option name is: a pasted one was quoted
    up to the 1,000-character cut of every message."""
    await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {brief_name(match_id)}")


@contextlib.contextmanager
def quiet_if_gone() -> Iterator[None]:
    """A call whose status could not be sent (its client had left, gave up or
    reached its deadline meanwhile) ends as cancelled: gRPC logs any other
    exception a handler raises as an error with its traceback ("Unexpected
    [CallEnded] raised by servicer method"), and a client with deadlines of a
    few milliseconds could make one such line in every few dozen calls."""
    try:
        yield
    except CallEnded:
        raise asyncio.CancelledError from None
