"""Ending a call with an error status whose message fits gRPC's trailers.

A message that echoes what the caller sent (a match id, a game name, an option)
could be longer than the 16 KiB of metadata a client accepts, and the client
would see RESOURCE_EXHAUSTED "received metadata size exceeds hard limit"
instead of the status meant for it. A non-ASCII character takes up to nine
bytes once percent-encoded, so 1,000 characters always fit.
"""

from __future__ import annotations

from typing import NoReturn

import grpc

MAX_DETAILS = 1000


def brief(details: str) -> str:
    """`details`, cut to MAX_DETAILS characters."""
    if len(details) <= MAX_DETAILS:
        return details
    return details[: MAX_DETAILS - 3] + "..."


async def abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, details: str) -> NoReturn:
    """End the call with `code` and `details` (cut short)."""
    await context.abort(code, brief(details))
    raise AssertionError("context.abort returned")  # it raises; this tells the type checker
