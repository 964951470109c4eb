"""What a Play stream's end looks like on the wire, which docs/writing-a-bot.md
describes for bots on HTTP/2 stacks other than gRPC's own: the result, then the
OK trailers, then, while the client's side of the stream is still open, an
RST_STREAM with NO_ERROR. HTTP/2 allows it after a complete response and bids
clients keep what came before it, but some (Python's grpclib) drop a result not
yet read when it arrives. A client that has closed its side gets none."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.inprocess import InProcessServer
from tests.stream_flood import PLAY_HEADERS, PREFACE, frame

pytestmark = pytest.mark.e2e

DATA, HEADERS, RST_STREAM, SETTINGS, PING, WINDOW_UPDATE = 0, 1, 3, 4, 6, 8
END_STREAM, ACK, END_HEADERS = 1, 1, 4
INITIAL_WINDOW_SIZE = 4
WINDOW = 1 << 24  # far more than a one-seat match sends
STREAM = 1
OUR_PING = b"sheepfld"


@dataclass
class StreamEnd:
    """What the server sent on the Play stream, in order."""

    messages: list[str] = field(default_factory=list)  # PlayResponse kinds
    frames: list[tuple[int, int]] = field(default_factory=list)  # (type, flags or error code)


def _grpc_message(message: arena_pb2.PlayRequest) -> bytes:
    body = message.SerializeToString()
    return b"\x00" + len(body).to_bytes(4, "big") + body


def _play_unanswered(address: str, match_id: str, token: str, close_our_side: bool) -> StreamEnd:
    """Join over raw HTTP/2, answer nothing, and read the stream to its end:
    up to an RST_STREAM, or to the acknowledgement of a PING sent once the
    trailers came (frames on a connection come in order, so an RST_STREAM
    the server wrote with its trailers is read before that)."""
    host, port = address.rsplit(":", 1)
    join = arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token))
    settings = INITIAL_WINDOW_SIZE.to_bytes(2, "big") + WINDOW.to_bytes(4, "big")
    opening = (
        PREFACE
        + frame(SETTINGS, 0, 0, settings)
        + frame(WINDOW_UPDATE, 0, 0, WINDOW.to_bytes(4, "big"))
        + frame(HEADERS, END_HEADERS, STREAM, PLAY_HEADERS)
        + frame(DATA, END_STREAM if close_our_side else 0, STREAM, _grpc_message(join))
    )
    end = StreamEnd()
    body = b""
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(opening)
        received = b""
        while True:
            chunk = connection.recv(65536)
            assert chunk, f"the server closed the connection; frames so far: {end.frames}"
            received += chunk
            while len(received) >= 9 and len(received) >= 9 + int.from_bytes(received[:3], "big"):
                length = int.from_bytes(received[:3], "big")
                kind, flags = received[3], received[4]
                stream = int.from_bytes(received[5:9], "big") & 0x7FFFFFFF
                payload, received = received[9 : 9 + length], received[9 + length :]
                if kind == SETTINGS and not flags & ACK:
                    connection.sendall(frame(SETTINGS, ACK, 0, b""))
                elif kind == PING and flags & ACK and payload == OUR_PING:
                    return end
                elif kind == PING and not flags & ACK:
                    connection.sendall(frame(PING, ACK, 0, payload))
                elif stream == STREAM and kind == DATA:
                    end.frames.append((DATA, flags))
                    body += payload
                    while len(body) >= 5 and len(body) >= 5 + int.from_bytes(body[1:5], "big"):
                        size = int.from_bytes(body[1:5], "big")
                        response = arena_pb2.PlayResponse.FromString(body[5 : 5 + size])
                        end.messages.append(str(response.WhichOneof("kind")))
                        body = body[5 + size :]
                elif stream == STREAM and kind == HEADERS:
                    end.frames.append((HEADERS, flags))
                    if flags & END_STREAM:  # the trailers
                        connection.sendall(frame(PING, 0, 0, OUR_PING))
                elif stream == STREAM and kind == RST_STREAM:
                    end.frames.append((RST_STREAM, int.from_bytes(payload, "big")))
                    return end


def _one_seat_match(stub: arena_pb2_grpc.ArenaStub) -> arena_pb2.CreateMatchResponse:
    """A match the server plays out alone once its seat, which answers
    nothing, is disqualified at its first missed deadline."""
    clock = arena_pb2.ClockSettings(decision_seconds=0.001, max_strikes=1)
    return stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-and-garden", players=1, seed=5, clock=clock)
    )


def test_a_play_stream_open_on_the_client_side_ends_result_trailers_then_rst_stream_no_error(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = _one_seat_match(stub)
    end = _play_unanswered(
        inprocess_server.address, created.match_id, created.seat_tokens[0], close_our_side=False
    )
    assert end.messages[0] == "joined" and end.messages[-1] == "result", end.messages
    # The response headers, the messages, then the trailers and the reset.
    assert end.frames[-2:] == [(HEADERS, END_HEADERS | END_STREAM), (RST_STREAM, 0)], end.frames


def test_a_play_stream_closed_on_the_client_side_ends_result_then_trailers_without_a_reset(
    inprocess_server: InProcessServer, stub: arena_pb2_grpc.ArenaStub
) -> None:
    created = _one_seat_match(stub)
    end = _play_unanswered(
        inprocess_server.address, created.match_id, created.seat_tokens[0], close_our_side=True
    )
    assert end.messages[0] == "joined" and end.messages[-1] == "result", end.messages
    assert end.frames[-1] == (HEADERS, END_HEADERS | END_STREAM), end.frames
    assert (RST_STREAM, 0) not in end.frames, end.frames
