"""Refused messages on a seat's stream: counted, logged sparingly, and a stream
that keeps sending them (a flood) is closed."""

from __future__ import annotations

import grpc
import structlog

from server.logs import worth_logging
from server.metrics import GameMetrics
from server.seats import MatchLimits, Seat


def count_refusal(
    seat: Seat,
    limits: MatchLimits,
    metrics: GameMetrics,
    log: structlog.typing.FilteringBoundLogger,
    code: grpc.StatusCode,
    reason: str,
) -> None:
    """Count one message the server refused from `seat` (an answer it cannot take,
    or no answer at all). A stream past `limits.max_rejected` of them is closed;
    the seat may rejoin. The log tells of a seat's first refusals and floods, then
    of one in a thousand: a client rejoining to flood again cannot fill the disk."""
    metrics.answer_rejected()
    seat.rejected += 1
    if worth_logging(seat.rejected):
        log.info("bad answer", seat=seat.index, code=code.name, reason=reason, total=seat.rejected)
    stream = seat.stream
    if stream is None:
        return
    stream.rejected += 1
    if stream.rejected > limits.max_rejected:
        seat.floods += 1
        if worth_logging(seat.floods):
            log.warning("seat stream closed for flooding", seat=seat.index, total=seat.floods)
        stream.close(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"more than {limits.max_rejected} rejected messages on this stream",
        )
        seat.stream = None
