"""The Python SDK against a real in-process server."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest
import structlog.testing
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients.bots import BotSpecError, load_bot
from clients.bots.random_bot import RandomBot
from clients.matchplay import create_match, play_match
from clients.sdk import DecisionView, SeatError, Unreachable, _Rejoins, play, should_rejoin
from server.app import ServerConfig
from server.inprocess import InProcessServer, serving_here
from tests.sockets import closed_loopback_address

pytestmark = pytest.mark.e2e


def test_a_seat_that_joins_after_the_end_gets_the_result() -> None:
    async def scenario() -> tuple:
        async with serving_here(ServerConfig()) as address:
            outcome = await play_match(
                address, "sheep-n-sheep", [RandomBot(1), RandomBot(2)], seed=4
            )
            created = await create_match(address, "sheep-n-sheep", 2, seed=4)
            late = await asyncio.gather(
                *(
                    play(RandomBot(s + 1), address, created.match_id, t)
                    for s, t in enumerate(created.seat_tokens)
                )
            )
            again = await play(RandomBot(9), address, created.match_id, created.seat_tokens[0])
            return outcome, late, again

    outcome, late, again = asyncio.run(scenario())
    assert again == late[0]
    assert list(late[0].scores) == list(outcome.result.scores), "same seed, same bots"


def test_a_wrong_token_raises_seat_error() -> None:
    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=4)
            await play(RandomBot(0), address, created.match_id, "wrong")

    with pytest.raises(SeatError, match="UNAUTHENTICATED"):
        asyncio.run(scenario())


@pytest.mark.parametrize("field", ["match_id", "token"])
def test_a_join_too_large_for_the_server_is_not_sent_again(field: str) -> None:
    """A join past the server's `--max-request-bytes` (a pasted file for a match
    id or token) is refused RESOURCE_EXHAUSTED before the server reads it: it
    was taken for a burst of joins and sent again and again for rejoin_seconds
    (90 s by default), then said "raise it to wait longer"."""

    async def scenario() -> float:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=4)
            join = {"match_id": created.match_id, "token": created.seat_tokens[0]}
            join[field] = "x" * 20_000
            started = time.monotonic()
            with pytest.raises(SeatError) as refused:
                await play(RandomBot(0), address, **join, rejoin_seconds=30)
            assert refused.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "larger than" in str(refused.value), refused.value
            assert "gave up" not in str(refused.value), refused.value
            return time.monotonic() - started

    assert asyncio.run(scenario()) < 10


class _OutOfRange:
    """Answers its first decision with `wrong`, then the first action."""

    def __init__(self, wrong: int) -> None:
        self.wrong: int | None = wrong
        self.asked: list[int] = []

    def decide(self, decision: DecisionView) -> int:
        self.asked.append(decision.decision_id)
        wrong, self.wrong = self.wrong, None
        return wrong if wrong is not None else 0


@pytest.mark.parametrize("wrong", [-1, 10_000])
def test_an_index_out_of_range_goes_to_the_server_which_asks_again(wrong: int) -> None:
    """The SDK sends any int32 its bot returns; the server refuses one out of
    range with INVALID_ARGUMENT, asks the same decision again, and the match
    goes on (the SDK once refused a negative index itself, ending the seat)."""

    async def scenario() -> tuple:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-and-garden", 1, seed=4)
            bot = _OutOfRange(wrong)
            result = await play(bot, address, created.match_id, created.seat_tokens[0])
            return bot, result

    with structlog.testing.capture_logs() as logs:
        bot, result = asyncio.run(scenario())
    assert bot.asked[0] == bot.asked[1], "the same decision, asked again"
    assert len(result.scores) == 1
    refused = [line for line in logs if line["event"] == "server refused an answer"]
    assert [line["code"] for line in refused] == ["INVALID_ARGUMENT"]


class _AlwaysOutOfRange:
    def decide(self, decision: DecisionView) -> int:
        return 999


def test_a_bot_out_of_range_every_time_is_told_why_its_seat_ended() -> None:
    """The server asks again after each refusal, the bot answers out of range
    again at once, and after 100 refusals the stream ends RESOURCE_EXHAUSTED
    "more than 100 rejected messages": that alone was the seat's end, the
    answer that was wrong only in log lines (or not at all with logs off)."""

    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-and-garden", 1, seed=4)
            await play(_AlwaysOutOfRange(), address, created.match_id, created.seat_tokens[0])

    with structlog.testing.capture_logs(), pytest.raises(SeatError) as raised:
        asyncio.run(scenario())
    assert raised.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    said = str(raised.value)
    assert "more than 100 rejected messages" in said, said
    assert "action index 999 is out of range" in said, said


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown bot"),
        ("no_such_module:Bot", "cannot import"),
        ("clients.bots.random_bot:Missing", "has no 'Missing'"),
        ("clients.sdk:DecisionView", "cannot construct"),
        ("clients.sdk:DecisionView.labels", "has no"),
        ("clients.matchplay:MatchOutcome", "cannot construct"),
        ("collections:OrderedDict", "no decide"),
    ],
)
def test_bad_bot_specs_are_explained(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        load_bot(spec)


def test_builtin_and_class_specs_load() -> None:
    assert load_bot("random", 3).decide.__self__.seed == RandomBot(3).seed == 3
    assert type(load_bot("clients.bots.random_bot:RandomBot", 1)).__name__ == "RandomBot"
    for name in ("greedy", "mcts"):
        assert callable(load_bot(name, 0).decide)


def test_a_join_cancelled_before_the_server_acknowledged_it_is_retried() -> None:
    # A server or proxy under a burst of streams may cancel or refuse a stream
    # before it starts: worth another join. Once joined, CANCELLED is final.
    for code in (
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.DEADLINE_EXCEEDED,  # the join did not reach the server in time
    ):
        assert should_rejoin(code, joined=False)
    assert not should_rejoin(grpc.StatusCode.RESOURCE_EXHAUSTED, joined=True)
    assert not should_rejoin(grpc.StatusCode.CANCELLED, joined=True)
    assert should_rejoin(grpc.StatusCode.UNAVAILABLE, joined=True)
    for final in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
        assert not should_rejoin(final, joined=False)


def test_streams_held_open_without_joining_cannot_shut_out_a_seat() -> None:
    """A server bounds the Play streams one address may hold open before joining.
    At the bound, the stream that has waited longest is pushed out for the
    newcomer: a bot holding streams open on purpose once kept every other bot on
    a tournament's Unix socket (one address) from joining, and they crashed."""

    async def scenario() -> tuple[grpc.StatusCode, list[float]]:
        config = ServerConfig(max_pending_joins_per_address=2)
        async with serving_here(config) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=5)
            async with grpc.aio.insecure_channel(address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                idle = [stub.Play() for _ in range(2)]  # opened, never join: the bound
                await asyncio.sleep(0.3)
                seats = [
                    asyncio.create_task(
                        play(RandomBot(s), address, created.match_id, t, max_reconnects=0)
                    )
                    for s, t in enumerate(created.seat_tokens)
                ]
                results = await asyncio.wait_for(asyncio.gather(*seats), 60)
                # The first seat to arrive pushed out the idle stream the server saw
                # first; the second seat pushed out the other only if the first had
                # not joined yet.
                ends = [asyncio.ensure_future(stream.code()) for stream in idle]
                done, _ = await asyncio.wait(ends, timeout=5, return_when="FIRST_COMPLETED")
                for stream in idle:
                    stream.cancel()
            return done.pop().result(), list(results[0].scores)

    oldest, scores = asyncio.run(scenario())
    assert oldest == grpc.StatusCode.RESOURCE_EXHAUSTED, "the oldest idle stream was pushed out"
    assert len(scores) == 2, "both seats joined at once (no retries allowed) and played"


async def _seat_of_a_server_gone_for_good(
    max_reconnects: int | None = None, rejoin_seconds: float = 90.0
) -> tuple[SeatError, float]:
    """The SeatError of a seat whose server stopped for good once it had
    joined, and the seconds it took to give up after the stop."""
    server = InProcessServer(ServerConfig())
    server.start()
    try:
        created = await create_match(server.address, "sheep-n-sheep", 2)
        seat = asyncio.create_task(
            play(
                RandomBot(1),
                server.address,
                created.match_id,
                created.seat_tokens[0],
                max_reconnects=max_reconnects,
                rejoin_seconds=rejoin_seconds,
            )
        )
        request = arena_pb2.GetMatchRequest(match_id=created.match_id)
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            while not (await stub.GetMatch(request, timeout=10)).seats[0].connected:
                await asyncio.sleep(0.02)
    finally:
        await asyncio.to_thread(server.stop)  # for good: nothing listens there now
    started = time.monotonic()
    with pytest.raises(SeatError) as gave_up:
        # A hang here is the fault; two rejoins take some 7 s.
        await asyncio.wait_for(seat, 60)
    return gave_up.value, time.monotonic() - started


def test_a_seat_gives_up_on_a_server_that_does_not_come_back() -> None:
    """Its rejoins used to wait for the server for ever (a Play call waits for
    its channel): `sheepfold match --server` and `bot` then hung, silently,
    after the server stopped for good."""
    error, _ = asyncio.run(_seat_of_a_server_gone_for_good(max_reconnects=2))
    assert error.code == grpc.StatusCode.UNAVAILABLE
    assert "gave up after 2 attempts to join again" in error.details
    assert "cannot reach the server" in error.details


def test_a_seat_gives_up_after_its_rejoin_seconds_and_says_how_to_wait_longer() -> None:
    """Time, not attempts, bounds the rejoins by default, and the line names
    the setting: a server that restarts slowly (an orchestrator moving it)
    needs a bot that waits longer than 90 s, and nothing said how."""
    error, waited = asyncio.run(_seat_of_a_server_gone_for_good(rejoin_seconds=1))
    assert error.code == grpc.StatusCode.UNAVAILABLE
    assert "cannot reach the server" in error.details
    assert error.details.endswith(
        "over 1 s (rejoin_seconds, `sheepfold bot --rejoin-seconds`): raise it to wait "
        "longer for a server that restarts"
    ), error.details
    assert waited < 15, waited  # an attempt waits 3 s for the server: one or two of them


def test_the_give_up_line_counts_one_attempt_as_one() -> None:
    """A rejoin_seconds shorter than the SDK's 3 s wait for the server gives up
    after a single attempt, which the line once called '1 attempts'."""
    rejoins = _Rejoins(None, 3.0)
    rejoins.attempts = 1
    assert "gave up after 1 attempt to join again over 3 s" in rejoins.gave_up("gone")
    rejoins.attempts = 2
    assert "gave up after 2 attempts to join again over 3 s" in rejoins.gave_up("gone")


def test_rejoin_delays_double_and_spread_around_their_step() -> None:
    """Each delay lies within a quarter of its step (0.2, 0.4, 0.8, 1.6, then 2 s),
    and the delays of many bots differ: a fixed delay had every bot of a
    restarted server rejoin at the same instants."""
    for attempts, step in [(1, 0.2), (2, 0.4), (3, 0.8), (4, 1.6), (5, 2.0), (9, 2.0)]:
        rejoins = _Rejoins(None, 60.0)
        rejoins.attempts = attempts
        delays = [rejoins.delay() for _ in range(200)]
        assert all(0.75 * step <= delay <= 1.25 * step for delay in delays), (step, delays)
        assert len(set(delays)) > 100, delays


class _FirstAction:
    def decide(self, decision: DecisionView) -> int:
        return 0


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        (_FirstAction, r"play\(\) takes a bot, not its class: play\(_FirstAction\(\), ...\)"),
        (object(), r"an object with a decide\(decision\) .*; 'object' objects have none"),
        (RandomBot.decide, r"'function' objects have none"),
    ],
)
def test_what_cannot_play_is_refused_before_joining(bot: object, message: str) -> None:
    """A bot's class passed for a bot joined its seat and failed only at the
    first decision, `decide() missing 1 required positional argument`; here
    the address has no server, so anything that tried to connect says so."""
    with pytest.raises(TypeError, match=message):
        asyncio.run(play(bot, "127.0.0.1:1", "m", "t"))  # type: ignore[arg-type]


def test_a_first_connection_refused_is_said_at_once_not_rejoined() -> None:
    """Nothing listens at the address when the seat starts (a mistyped port):
    `play` raises Unreachable at once, as it promises; only a seat that was
    connected waits for its server and rejoins, for rejoin_seconds (90 s)."""
    address = closed_loopback_address()

    async def scenario() -> None:
        await asyncio.wait_for(play(RandomBot(1), address, "m", "t"), 5)

    with pytest.raises(Unreachable, match="connection refused"):
        asyncio.run(scenario())


def test_a_seat_named_apart_from_its_token_is_refused_not_played() -> None:
    """`seat` goes in the join: a bot told seat 1 with seat 0's token is refused
    PERMISSION_DENIED, rather than the server playing it as the token's seat."""

    async def scenario() -> None:
        async with serving_here(ServerConfig()) as address:
            created = await create_match(address, "sheep-and-garden", 1, seed=4)
            await play(RandomBot(1), address, created.match_id, created.seat_tokens[0], 1)

    with pytest.raises(SeatError) as refused:
        asyncio.run(scenario())
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert refused.value.details == "this token does not belong to seat 1"


def test_a_seat_that_joins_an_aborted_match_is_told_so_not_given_a_result() -> None:
    """After FAILED_PRECONDITION the SDK returns the result of a finished match;
    an aborted one has none to give, and its seat ends in the server's words."""

    async def scenario() -> None:
        async with serving_here(ServerConfig(start_timeout=0.2)) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=4)
            async with grpc.aio.insecure_channel(address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                request = arena_pb2.GetMatchRequest(match_id=created.match_id)
                for _ in range(100):
                    info = await stub.GetMatch(request, timeout=5)
                    if info.status == arena_pb2.MATCH_STATUS_ABORTED:
                        break
                    await asyncio.sleep(0.05)
            await play(RandomBot(1), address, created.match_id, created.seat_tokens[0])

    with pytest.raises(SeatError) as refused:
        asyncio.run(scenario())
    assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert "aborted" in refused.value.details, refused.value.details
