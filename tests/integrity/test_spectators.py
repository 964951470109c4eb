"""Spectators: `Watch` streams public events and public observations from the
start or live, to many watchers per match, never anything private, and drops
a watcher that cannot keep up instead of slowing the match.

DESIGN: "`observation(None)` is a spectator: public information only. Never
another seat's hidden cards, never any deck order." and "`Watch` (server
stream): public events and public observations, for spectators."
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import grpc
import pytest
import structlog
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

import games
from clients.sdk import play
from server import convert
from server.app import ServerConfig
from server.fairness import FairQueue
from server.inprocess import InProcessServer
from server.match import Match
from server.seats import MatchLimits
from server.spectators import Spectators, Watcher, WatchMessage, spectate
from tests.integrity.helpers import (
    Case,
    SlowBot,
    answer_first_action,
    case_ids,
    create_request,
    expected_watch_stream,
    game_cases,
    get_match,
    get_replay,
    match_without_grpc,
    play_first_actions,
    private_payload_messages,
    seat_streams,
)

pytestmark = pytest.mark.e2e


async def _collect(address: str, match_id: str, from_start: bool) -> list:
    async with grpc.aio.insecure_channel(address) as channel:
        call = arena_pb2_grpc.ArenaStub(channel).Watch(
            arena_pb2.WatchRequest(match_id=match_id, from_start=from_start)
        )
        return [message async for message in call]


def _check_against_engine(
    seen: list[arena_pb2.WatchResponse], expected: list[arena_pb2.WatchResponse], start: int = 0
) -> None:
    """`seen` is exactly `expected[start:]`, message by message."""
    assert len(seen) == len(expected) - start, (len(seen), len(expected), start)
    for offset, (got, want) in enumerate(zip(seen, expected[start:], strict=True)):
        assert got == want, f"watch message {start + offset} differs:\n{got}\n!=\n{want}"


@pytest.mark.parametrize("case", game_cases(), ids=case_ids(game_cases()))
def test_watchers_see_exactly_the_public_match(case: Case) -> None:
    """From the start, live from the middle, many at once, and after the end: each
    watcher gets what `observation(None)` and `Event.visible_to(None)` give on a
    local replay, and never the full form of a private event."""
    with InProcessServer(ServerConfig()) as server:
        address = server.address

        async def scenario() -> tuple[str, list, list, list, list]:
            async with grpc.aio.insecure_channel(address) as channel:
                created = await arena_pb2_grpc.ArenaStub(channel).CreateMatch(
                    create_request(case, 60)
                )
            match_id = created.match_id
            early = [asyncio.create_task(_collect(address, match_id, True)) for _ in range(3)]
            await asyncio.sleep(0.05)
            seats = [
                asyncio.create_task(
                    play(SlowBot(seed, delay=0.004), address, match_id, token, seed)
                )
                for seed, token in enumerate(created.seat_tokens)
            ]
            while (await get_match(address, match_id)).moves < 5:
                await asyncio.sleep(0.01)
            live = [asyncio.create_task(_collect(address, match_id, False)) for _ in range(3)]
            late_from_start = asyncio.create_task(_collect(address, match_id, True))
            await asyncio.gather(*seats)
            after_end = await _collect(address, match_id, True)
            return (
                match_id,
                await asyncio.gather(*early),
                await asyncio.gather(*live),
                [await late_from_start],
                [after_end],
            )

        match_id, early, live, late, after = server.run(scenario(), timeout=60)
        replay = server.run(get_replay(address, match_id))

    expected = expected_watch_stream(replay)
    for seen in [*early, *late, *after]:
        _check_against_engine(seen, expected)
    for seen in live:
        first = seen[0]
        assert first.WhichOneof("kind") == "snapshot", "a live watcher starts with the state"
        assert first.snapshot.move >= 5
        start = expected.index(first)
        _check_against_engine(seen, expected, start)
    private = {m.SerializeToString() for m in private_payload_messages(replay)}
    for seen in [*early, *live, *late, *after]:
        for message in seen:
            if message.WhichOneof("kind") == "event":
                assert message.event.SerializeToString() not in private


def test_the_watch_check_catches_a_private_event() -> None:
    """The comparison above fails when a watcher gets a seat's private event."""
    game_name = next(
        (
            case.game
            for case in game_cases()
            if any(True for _ in _private_events(case))  # a game with private events
        ),
        None,
    )
    assert game_name is not None, "at least one game has private events"
    case = next(c for c in game_cases() if c.game == game_name)
    seed, move, payload = next(_private_events(case))
    replay = _fake_replay(case, seed, upto=move)
    expected = expected_watch_stream(replay)
    leaked = list(expected)
    codec = games.get(case.game).codec
    leaked.insert(-2, arena_pb2.WatchResponse(event=convert.event(codec, move, payload)))
    with pytest.raises(AssertionError, match=r"differs|\("):
        _check_against_engine(leaked, expected)


def _private_events(case: Case) -> Iterator[tuple[int, int, object]]:
    """(seed, move, payload) of the first private event of first-action games."""
    game = games.get(case.game)
    for seed in range(5):
        state = game.new_state(case.players, seed, case.options)
        move = 0
        while not state.terminal:
            move += 1
            for event in state.apply(state.legal_actions()[0]):
                if event.seat is not None and event.payload != event.redacted:
                    yield seed, move, event.payload
                    return


def _fake_replay(case: Case, seed: int, upto: int) -> arena_pb2.Replay:
    game = games.get(case.game)
    replay = arena_pb2.Replay(game=case.game, players=case.players, options=case.options, seed=seed)
    state = game.new_state(case.players, seed, case.options)
    for move in range(1, upto + 1):
        replay.actions.add(move=move, seat=state.to_move, action_index=0)
        state.apply(state.legal_actions()[0])
    return replay


# ---------------------------------------------------------------- limits


@pytest.fixture
def limited() -> Iterator[InProcessServer]:
    config = ServerConfig(limits=MatchLimits(max_watchers=2, watch_queue=3))
    with InProcessServer(config) as server:
        yield server


def test_more_watchers_than_the_limit_get_resource_exhausted(limited: InProcessServer) -> None:
    with grpc.insecure_channel(limited.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = stub.CreateMatch(create_request(Case("sheep-n-sheep", 2, {}), 5))
        request = arena_pb2.WatchRequest(match_id=created.match_id)
        first, second = stub.Watch(request), stub.Watch(request)
        assert next(first).WhichOneof("kind") == "snapshot"
        assert next(second).WhichOneof("kind") == "snapshot"
        with pytest.raises(grpc.RpcError) as caught:
            next(stub.Watch(request))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "2 watchers" in caught.value.details()
        first.cancel()
        # A place is free again once a watcher leaves.
        for _ in range(100):
            third = stub.Watch(request)
            try:
                assert next(third).WhichOneof("kind") == "snapshot"
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        else:
            raise AssertionError("the cancelled watcher's place never came free")
        with pytest.raises(grpc.RpcError) as missing:
            next(stub.Watch(arena_pb2.WatchRequest(match_id="nope")))
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_watchers_over_every_match_are_bounded_too() -> None:
    """Watchers that never read, each match within its own bound, once held 1.8
    GB over 200 finished matches: the server bounds them all together as well."""
    config = ServerConfig(limits=MatchLimits(max_watchers=2, max_watch_streams=3))
    with InProcessServer(config) as server, grpc.insecure_channel(server.address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        ids = [
            stub.CreateMatch(create_request(Case("sheep-n-sheep", 2, {}), s)).match_id
            for s in (1, 2)
        ]
        held = [stub.Watch(arena_pb2.WatchRequest(match_id=m)) for m in (ids[0], ids[0], ids[1])]
        assert all(next(w).WhichOneof("kind") == "snapshot" for w in held)
        with pytest.raises(grpc.RpcError) as caught:
            next(stub.Watch(arena_pb2.WatchRequest(match_id=ids[1])))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert caught.value.details() == "this server already has 3 watchers"
        held[0].cancel()
        for _ in range(100):  # the cancelled watcher's place comes free
            again = stub.Watch(arena_pb2.WatchRequest(match_id=ids[1]))
            try:
                assert next(again).WhichOneof("kind") == "snapshot"
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        else:
            raise AssertionError("the cancelled watcher's place never came free")


def test_a_watcher_that_never_reads_is_dropped_and_the_match_is_not_slowed() -> None:
    """Driven without gRPC, so nothing but the match's own queue is involved: the
    seats' answers arrive at once, a watcher never drains, the match still ends."""

    async def scenario() -> tuple[Match, Watcher]:
        match = match_without_grpc("sheep-n-sheep", 3, limits=MatchLimits(watch_queue=5))
        stuck = match.watch(from_start=False)
        streams = seat_streams(match)
        match.start()

        await play_first_actions(match, streams)
        return match, stuck

    match, stuck = asyncio.run(scenario())
    assert match.over, "the match finished although a watcher never read"
    assert stuck.ended is not None
    assert stuck.ended.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "behind" in stuck.ended.message
    assert stuck not in match.spectators.watchers, "dropped, not kept"


def test_a_slow_grpc_watcher_is_dropped_with_resource_exhausted(limited: InProcessServer) -> None:
    """Through gRPC: a watcher that stops reading ends with RESOURCE_EXHAUSTED while
    the seats finish the match at full speed."""
    address = limited.address
    case = Case("sheep-and-garden", 2, {})  # large public snapshots fill buffers fast

    async def scenario() -> tuple[grpc.StatusCode, int]:
        # A small receive window, so the transport cannot buffer the whole match.
        options = [("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)]
        async with grpc.aio.insecure_channel(address, options=options) as channel:
            stub = arena_pb2_grpc.ArenaStub(channel)
            created = await stub.CreateMatch(create_request(case, 8))
            call = stub.Watch(arena_pb2.WatchRequest(match_id=created.match_id))
            await call.read()  # the stream is open; now stop reading
            await asyncio.gather(
                *(
                    play(SlowBot(seat), address, created.match_id, token, seat)
                    for seat, token in enumerate(created.seat_tokens)
                )
            )
            received = 1
            try:
                while await call.read() is not grpc.aio.EOF:
                    received += 1
            except grpc.aio.AioRpcError as error:
                return error.code(), received
            return grpc.StatusCode.OK, received

    code, received = limited.run(scenario(), timeout=60)
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert received < 36 * 2, "the watcher was cut off, not sent the whole match"


class _NoAbort:
    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise AssertionError(f"watch aborted: {code} {details}")


async def _spectated(
    match: Match,
    watcher: Watcher,
    turns: FairQueue,
    into: list[arena_pb2.WatchResponse] | None = None,
) -> list[arena_pb2.WatchResponse]:
    """Everything `watcher` is sent, appended to `into` as it comes."""
    seen = [] if into is None else into
    context = _NoAbort()
    async for message in spectate(watcher, match.game, match.record, match.moves, turns, context):  # type: ignore[arg-type]
        seen.append(message)
    return seen


def test_a_live_watcher_starts_at_the_snapshot_and_a_later_one_still_gets_the_whole_match() -> None:
    """A watcher that does not ask for the whole match starts the shared log at
    the current snapshot. A watcher that comes later asking for the whole match
    is not replayed anything when it comes: the moves before the log are
    replayed as it reads, then it reads the shared log. Both streams are exactly
    the public match (nothing missing, nothing twice)."""

    async def scenario() -> tuple[Match, list[list[arena_pb2.WatchResponse]], int, list[int]]:
        match = match_without_grpc("sheep-n-sheep", 11)
        streams = seat_streams(match)
        match.start()
        watchers: list[tuple[Watcher, int]] = []
        unread_at_join: list[int] = []

        def watch_now() -> None:
            moves = len(match.moves)
            if moves == 10 and not watchers:
                watchers.append((match.watch(from_start=False), moves))
            if moves == 25 and len(watchers) == 1:
                later = match.watch(from_start=True)
                watchers.append((later, moves))
                unread_at_join.append(len(later.unread()))

        await asyncio.wait_for(
            asyncio.gather(
                *(answer_first_action(match, s, streams[s], watch_now) for s in range(2))
            ),
            20,
        )
        turns = FairQueue(1)
        seen = [await _spectated(match, watcher, turns) for watcher, _ in watchers]
        return match, seen, watchers[0][1], unread_at_join

    match, (live, whole), joined_at, unread_at_join = asyncio.run(scenario())
    assert match.over
    expected = expected_watch_stream(match.replay_message())
    assert whole == expected, "the later watcher did not get exactly the whole public match"
    start = next(
        i
        for i, message in enumerate(expected)
        if message.WhichOneof("kind") == "snapshot" and message.snapshot.move == joined_at
    )
    assert live == expected[start:], "the live watcher's stream has a gap or a repeat"
    # The shared log held only what came after the first watcher's snapshot: the
    # moves before it were not put into it for the later watcher.
    moves_10_to_25 = [message for message in expected[start + 1 :] if _move_of(message) <= 25]
    assert unread_at_join == [len(moves_10_to_25)]


def _move_of(message: arena_pb2.WatchResponse) -> int:
    kind = message.WhichOneof("kind")
    if kind == "snapshot":
        return message.snapshot.move
    if kind == "event":
        return message.event.move
    return 1_000_000


def test_a_whole_match_watcher_of_a_live_match_waits_its_turn_and_is_not_dropped_meanwhile() -> (
    None
):
    """Rebuilt at once, a long match's history would hold up every match on the
    server. It is replayed in steps that take turns with every other replay, so
    while the turns are taken the match goes on, the watcher gets nothing yet,
    and it is not dropped for the moves it has not read meanwhile (they are
    more than its lag limit here). Once it has its turns it gets the whole
    public match."""

    async def scenario() -> tuple[Match, list[arena_pb2.WatchResponse], int, int]:
        match = match_without_grpc("sheep-n-sheep", 12, limits=MatchLimits(watch_queue=5))
        streams = seat_streams(match)
        keeper = match.watch(from_start=False)  # the log begins at move 0
        match.start()
        turns = FairQueue(1)
        await turns.acquire()  # every replay's turn is taken
        watchers: list[Watcher] = []
        readers: list[asyncio.Task[list[arena_pb2.WatchResponse]]] = []
        received: list[arena_pb2.WatchResponse] = []

        def watch_now() -> None:
            if len(match.moves) == 20 and not watchers:
                match.unwatch(keeper)
                match.watch(from_start=False)  # a new log, begun at move 20
                watchers.append(match.watch(from_start=True))
                reader = _spectated(match, watchers[0], turns, received)
                readers.append(asyncio.create_task(reader))

        players = asyncio.gather(
            *(answer_first_action(match, s, streams[s], watch_now) for s in range(2))
        )
        while len(match.moves) < 40 and not match.over:
            await asyncio.sleep(0)
        assert len(match.moves) >= 40 and received == [], "sent before its turn"
        waiting = len(watchers[0].unread()), watchers[0].live_lag()
        turns.release()
        await asyncio.wait_for(players, 20)
        seen = await asyncio.wait_for(readers[0], 20)
        return match, seen, *waiting

    match, seen, unread, lag = asyncio.run(scenario())
    assert unread > 5 and lag == 0, (unread, lag)
    assert seen == expected_watch_stream(match.replay_message())


def test_a_watcher_exactly_at_its_lag_limit_is_kept_and_one_past_it_dropped() -> None:
    """The lag limit is the most a live watcher may be behind (docs/operations.md,
    "watcher lag": dropped when more than this many new messages behind): at
    it, the watcher stays; one message more, it ends RESOURCE_EXHAUSTED."""
    start = WatchMessage(snapshot=arena_pb2.Snapshot(move=0))
    spectators = Spectators(lambda: ([start], False), 3, structlog.get_logger("test"))
    watcher = spectators.watch(from_start=False)
    move = WatchMessage(snapshot=arena_pb2.Snapshot(move=1))
    for _ in range(3):
        spectators.played(lambda: [move])
    assert watcher.ended is None and watcher in spectators.watchers, "dropped at its limit"
    spectators.played(lambda: [move])
    assert watcher.ended is not None and watcher.ended.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert watcher not in spectators.watchers
