"""What a match sends its seats on their Play streams: each event to the seats
that may see it (one message each, or held for the seat's next decision), and
errors; a stream that falls too far behind is dropped."""

from __future__ import annotations

from collections.abc import Sequence

import grpc
import structlog
from sheepfold.v1 import arena_pb2

from games.contract import Codec, Event
from server import encoding
from server.seats import Seat


def broadcast(
    seats: Sequence[Seat],
    codec: Codec,
    move: int,
    events: Sequence[Event],
    held_events: int,
    log: structlog.typing.FilteringBoundLogger,
) -> None:
    """Each of `events` to every seat with a stream that may see it; a seat that
    holds its events sends them on once it holds more than `held_events`. A
    seat whose last stream asked for its events in its decisions holds them
    while it has no stream too, for its next one: the latest `held_events`."""
    for event in events:
        encoded: dict[int, bytes] = {}  # EventMessage by payload: seats share them
        responses: dict[int, bytes] = {}  # and the PlayResponse around it
        for seat in seats:
            if seat.stream is None and not seat.events_in_decisions:
                continue
            payload = event.visible_to(seat.index)
            if payload is None:
                continue
            message = encoded.get(id(payload))
            if message is None:
                message = encoded[id(payload)] = encoding.event_message(codec, move, payload)
            if seat.events_in_decisions:
                seat.held.append(message)
                if len(seat.held) > held_events:
                    if seat.stream is None:
                        del seat.held[0]  # nobody to send it to: the oldest goes
                    else:
                        release_held(seat, log)
            else:
                response = responses.get(id(payload))
                if response is None:
                    response = responses[id(payload)] = encoding.event_response(message)
                send(seat, response, log)


def release_held(seat: Seat, log: structlog.typing.FilteringBoundLogger) -> None:
    """Send a seat's held events as messages of their own, oldest first."""
    held, seat.held = seat.held, []
    for message in held:
        send(seat, encoding.event_response(message), log)


def send(
    seat: Seat,
    message: arena_pb2.PlayResponse | bytes,
    log: structlog.typing.FilteringBoundLogger,
) -> None:
    stream = seat.stream
    if stream is not None and not stream.send(message):
        log.warning("seat stream too slow, dropped", seat=seat.index)
        stream.close(grpc.StatusCode.RESOURCE_EXHAUSTED, "stream fell too far behind")
        seat.stream = None


def send_error(
    seat: Seat,
    code: grpc.StatusCode,
    message: str,
    decision_id: int,
    log: structlog.typing.FilteringBoundLogger,
) -> None:
    """A PlayError, queued encoded: a client that reads nothing has up to the
    flood limit of them waiting on each of its streams, and as messages the
    99 each of 1,000 such streams grew a server by about 95 MB; encoded, by
    about 20."""
    error = arena_pb2.PlayError(code=code.value[0], message=message, decision_id=decision_id)
    send(seat, arena_pb2.PlayResponse(error=error).SerializeToString(), log)
