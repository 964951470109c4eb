"""Values a client can send that look like numbers or messages but are not:
NaN and infinite clocks, non-ASCII digits in options, bytes that are not
protobuf. Each gets INVALID_ARGUMENT with a readable message from a real server
process (with its SQLite store), never UNKNOWN, and nothing is stored."""

from __future__ import annotations

import math
import queue
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from server.app import DEFAULT_MAX_REQUEST_BYTES, ServerConfig
from server.inprocess import InProcessServer
from tests.conftest import ServerProcess
from tests.integrity.helpers import log_entries

pytestmark = pytest.mark.e2e

ARENA = "/sheepfold.v1.Arena"
# A length-delimited field that claims 16 bytes and has 3: not a valid message.
GARBAGE = b"\x0a\x10abc"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    from tests.conftest import start_server_process, stop_server_process

    running = start_server_process()
    try:
        yield running
    finally:
        assert stop_server_process(running) == 0


@pytest.fixture
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


@pytest.mark.parametrize("field", ["decision_seconds", "time_bank_seconds"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_nan_and_infinite_clocks_are_invalid_argument(
    channel: grpc.Channel, server: ServerProcess, field: str, value: float
) -> None:
    stub = arena_pb2_grpc.ArenaStub(channel)
    request = arena_pb2.CreateMatchRequest(
        game="sheep-n-sheep", players=2, clock=arena_pb2.ClockSettings(**{field: value})
    )
    listing = arena_pb2.ListMatchesRequest(limit=1000)
    before = len(stub.ListMatches(listing, timeout=10).matches)
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == f"{field} must be a finite number of seconds, not {value!r}"
    assert len(stub.ListMatches(listing, timeout=10).matches) == before, "nothing was stored"


@pytest.mark.parametrize("value", [1e-300, 5e-324, 0.0009])
def test_a_deadline_below_a_millisecond_is_invalid_argument(
    channel: grpc.Channel, value: float
) -> None:
    """No bot can answer that fast: every move of such a match was forced."""
    stub = arena_pb2_grpc.ArenaStub(channel)
    request = arena_pb2.CreateMatchRequest(
        game="sheep-n-sheep", players=2, clock=arena_pb2.ClockSettings(decision_seconds=value)
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == (
        f"decision_seconds must be 0 (the server's default) or 0.001 to 3,600, not {value!r}"
    )
    shortest = arena_pb2.ClockSettings(decision_seconds=0.001)
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, clock=shortest), timeout=10
    )
    assert created.match_id


def test_listing_an_unknown_game_is_invalid_argument(channel: grpc.Channel) -> None:
    """As CreateMatch says of it, not an empty list that looks like no matches,
    and with the wire names as CreateMatch lists them: a game given by its
    oneof member's name (underscores) was told only "unknown game"."""
    stub = arena_pb2_grpc.ArenaStub(channel)
    with pytest.raises(grpc.RpcError) as caught:
        stub.ListMatches(arena_pb2.ListMatchesRequest(game="sheep_showdown"), timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == (
        "unknown game 'sheep_showdown' "
        "(games: sheep-showdown, sheep-n-sheep, sheep-and-garden, stubborn-sheep)"
    )
    known = stub.ListMatches(arena_pb2.ListMatchesRequest(game="sheep-n-sheep"), timeout=10)
    assert all(match.game == "sheep-n-sheep" for match in known.matches)


def test_ascii_option_values_with_spaces_and_signs_still_work(channel: grpc.Channel) -> None:
    stub = arena_pb2_grpc.ArenaStub(channel)
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2, options={"rounds": " +2"}),
        timeout=10,
    )
    info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
    assert info.options["rounds"] == "2"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        *(
            (value, f"must be a whole number, not {value!r}")
            for value in ("\u0661", "\uff11", "1_0", "\u00b2", "1.0", "0x1")
        ),
        # int() refuses strings of over 4,300 digits: these were once UNKNOWN
        # "Unexpected <class 'ValueError'>", with nothing in the log.
        ("1" * 4301, "must be at most 3"),
        ("-" + "9" * 5000, "must be at least 1"),
        ("0" * 30 + "2" * 19, "must be at most 3"),
        # int() counts leading zeros too: these were INTERNAL, with a traceback logged
        ("0" * 4300 + "5", "must be at most 3"),
        ("-" + "0" * 4300 + "1", "must be at least 1"),
    ],
    ids=[
        "arabic-indic",
        "fullwidth",
        "underscore",
        "superscript",
        "decimal",
        "hex",
        "4301-digits",
        "5001-digit-negative",
        "19-digits-after-zeros",
        "4300-zeros-then-5",
        "negative-4300-zeros-then-1",
    ],
)
def test_an_option_number_takes_ascii_digits_and_a_sane_length(
    channel: grpc.Channel, value: str, message: str
) -> None:
    stub = arena_pb2_grpc.ArenaStub(channel)
    request = arena_pb2.CreateMatchRequest(
        game="sheep-showdown", players=2, options={"rounds": value}
    )
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(request, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == f"option 'rounds' {message}"


LONG = "x" * 15_000  # within the request bound (16 KiB); SNOWMEN encode past 16 KiB
SNOWMEN = "\u2603" * 2_000  # nine bytes each once percent-encoded in the status


@pytest.mark.parametrize(
    ("call", "code"),
    [
        ("get-match", grpc.StatusCode.NOT_FOUND),
        ("get-replay", grpc.StatusCode.NOT_FOUND),
        ("watch", grpc.StatusCode.NOT_FOUND),
        ("play", grpc.StatusCode.NOT_FOUND),
        ("game", grpc.StatusCode.INVALID_ARGUMENT),
        ("game-snowmen", grpc.StatusCode.INVALID_ARGUMENT),
        ("option-key", grpc.StatusCode.INVALID_ARGUMENT),
        ("option-value", grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_a_long_value_echoed_in_an_error_keeps_the_status(
    channel: grpc.Channel, call: str, code: grpc.StatusCode
) -> None:
    """Messages that quote the request were once longer than the 16 KiB of
    metadata a client takes: it saw RESOURCE_EXHAUSTED "received metadata size
    exceeds hard limit" instead of the status meant for it."""
    stub = arena_pb2_grpc.ArenaStub(channel)
    calls = {
        "get-match": lambda: stub.GetMatch(arena_pb2.GetMatchRequest(match_id=LONG), timeout=10),
        "get-replay": lambda: stub.GetReplay(arena_pb2.GetReplayRequest(match_id=LONG), timeout=10),
        "watch": lambda: list(stub.Watch(arena_pb2.WatchRequest(match_id=LONG), timeout=10)),
        "play": lambda: list(
            stub.Play(
                iter([arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=LONG, token="t"))]),
                timeout=10,
            )
        ),
        "game": lambda: stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game=LONG, players=2), timeout=10
        ),
        "game-snowmen": lambda: stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game=SNOWMEN, players=2), timeout=10
        ),
        "option-key": lambda: stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2, options={LONG: "1"}),
            timeout=10,
        ),
        "option-value": lambda: stub.CreateMatch(
            arena_pb2.CreateMatchRequest(
                game="sheep-showdown", players=2, options={"rounds": LONG}
            ),
            timeout=10,
        ),
    }
    with pytest.raises(grpc.RpcError) as caught:
        calls[call]()
    assert caught.value.code() == code, caught.value.details()
    assert len(caught.value.details()) <= 1000


@pytest.mark.parametrize(
    ("method", "streaming", "type_name"),
    [
        (f"{ARENA}/CreateMatch", False, "sheepfold.v1.CreateMatchRequest"),
        (f"{ARENA}/GetMatch", False, "sheepfold.v1.GetMatchRequest"),
        (f"{ARENA}/ListMatches", False, "sheepfold.v1.ListMatchesRequest"),
        (f"{ARENA}/GetReplay", False, "sheepfold.v1.GetReplayRequest"),
        (f"{ARENA}/Watch", True, "sheepfold.v1.WatchRequest"),
        ("/grpc.health.v1.Health/Check", False, "grpc.health.v1.HealthCheckRequest"),
    ],
)
def test_undecodable_requests_are_invalid_argument(
    channel: grpc.Channel, server: ServerProcess, method: str, streaming: bool, type_name: str
) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        if streaming:
            list(channel.unary_stream(method)(GARBAGE, timeout=10))
        else:
            channel.unary_unary(method)(GARBAGE, timeout=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith(f"the request is not a valid {type_name}: ")
    if method.endswith("/CreateMatch"):
        assert caught.value.details() == (
            "the request is not a valid sheepfold.v1.CreateMatchRequest: Wire format was corrupt"
        )
    health = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
        response_deserializer=health_pb2.HealthCheckResponse.FromString,
    )(health_pb2.HealthCheckRequest(), timeout=10)
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    assert not [e for e in log_entries(server.log_lines) if e.get("level") == "error"]


def _raw_play(channel: grpc.Channel, first: bytes) -> tuple[queue.Queue, Iterator[bytes]]:
    outgoing: queue.Queue[bytes | None] = queue.Queue()
    outgoing.put(first)

    def requests() -> Iterator[bytes]:
        while (item := outgoing.get()) is not None:
            yield item

    return outgoing, channel.stream_stream(f"{ARENA}/Play")(requests(), timeout=30)


def test_an_undecodable_first_play_message_is_invalid_argument(channel: grpc.Channel) -> None:
    outgoing, responses = _raw_play(channel, GARBAGE)
    try:
        with pytest.raises(grpc.RpcError) as caught:
            list(responses)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "not a valid sheepfold.v1.PlayRequest" in caught.value.details()
    finally:
        outgoing.put(None)


def test_an_undecodable_answer_is_a_play_error_and_the_stream_goes_on(
    channel: grpc.Channel,
) -> None:
    stub = arena_pb2_grpc.ArenaStub(channel)
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=3), timeout=10
    )
    join = arena_pb2.PlayRequest(
        join=arena_pb2.Join(match_id=created.match_id, token=created.seat_tokens[0])
    )
    outgoing, responses = _raw_play(channel, join.SerializeToString())
    try:
        first = arena_pb2.PlayResponse.FromString(next(responses))
        assert first.WhichOneof("kind") == "joined"
        outgoing.put(GARBAGE)
        for raw in responses:
            response = arena_pb2.PlayResponse.FromString(raw)
            if response.WhichOneof("kind") == "error":
                break
        assert response.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert "not a valid sheepfold.v1.PlayRequest" in response.error.message
        info = stub.GetMatch(arena_pb2.GetMatchRequest(match_id=created.match_id), timeout=10)
        assert info.seats[0].connected, "the stream is still open"
    finally:
        outgoing.put(None)


@pytest.mark.parametrize("call", ["create", "get-match", "watch", "play"])
def test_a_request_past_the_bound_is_refused_before_it_is_read(
    channel: grpc.Channel, call: str
) -> None:
    """Joins carrying a 4 MB match id, refused one after another, once took the
    server from 67 MB to 2.8 GB: each held until Python's cycle collector ran."""
    huge = "x" * (DEFAULT_MAX_REQUEST_BYTES + 1)
    stub = arena_pb2_grpc.ArenaStub(channel)
    calls = {
        "create": lambda: stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2, admin_token=huge),
            timeout=10,
        ),
        "get-match": lambda: stub.GetMatch(arena_pb2.GetMatchRequest(match_id=huge), timeout=10),
        "watch": lambda: list(stub.Watch(arena_pb2.WatchRequest(match_id=huge), timeout=10)),
        "play": lambda: list(
            stub.Play(
                iter([arena_pb2.PlayRequest(join=arena_pb2.Join(match_id="m", token=huge))]),
                timeout=10,
            )
        ),
    }
    with pytest.raises(grpc.RpcError) as caught:
        calls[call]()
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    created = stub.CreateMatch(
        arena_pb2.CreateMatchRequest(game="sheep-showdown", players=2), timeout=10
    )
    assert created.match_id, "the server goes on"


@pytest.mark.parametrize("method", ["Check", "Watch"])
def test_undecodable_requests_on_the_health_port_are_invalid_argument(method: str) -> None:
    """The plaintext health port, often open to a whole network for probes, once
    answered garbage with gRPC's own UNKNOWN "Unexpected <class
    'google.protobuf.message.DecodeError'>: ...", as the main port no longer does."""
    path = f"/grpc.health.v1.Health/{method}"
    with InProcessServer(ServerConfig(health_port=0)) as running:
        address = f"127.0.0.1:{running.server.health_port}"
        with grpc.insecure_channel(address) as channel, pytest.raises(grpc.RpcError) as caught:
            if method == "Watch":
                list(channel.unary_stream(path)(GARBAGE, timeout=10))
            else:
                channel.unary_unary(path)(GARBAGE, timeout=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.details().startswith(
            "the request is not a valid grpc.health.v1.HealthCheckRequest: "
        )
        with grpc.insecure_channel(address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            status = health.Check(health_pb2.HealthCheckRequest(), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING
