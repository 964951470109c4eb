"""The example command bot (examples/command-bot/command_bot.py) joins again when
a stream fails, by the SDK's rules: a Play call cancelled or refused before its
join was answered (what a server under a flood of reset streams does to honest
bots) is retried with backoff; after the join, UNAVAILABLE means rejoin, and
the decision the server sends again is answered once; CANCELLED is then final.

The bot runs as a process, as a tournament runs it, against a real server on
this loop behind tests/play_relay.py, which fails the streams."""

from __future__ import annotations

import asyncio
import random
import runpy
import socket
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import grpc
import pytest
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

from clients import sdk
from clients.bots.random_bot import RandomBot
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import serving_here
from tests.conftest import ROOT
from tests.play_relay import PlayFaults, Relay

pytestmark = pytest.mark.e2e

BOT = ROOT / "examples" / "command-bot" / "command_bot.py"
BOT_SECONDS = 60.0


@dataclass
class Outcome:
    """A match between the command bot (seat 0, through the relay) and a random bot."""

    code: int  # the command bot's exit status
    stdout: str
    stderr: str
    relay: Relay
    match: arena_pb2.MatchInfo
    replay: arena_pb2.Replay | None  # None when the match did not finish


async def _run_bot(address: str, match_id: str, token: str) -> tuple[int, str, str]:
    env = {
        "SHEEPFOLD_SERVER": address,
        "SHEEPFOLD_MATCH": match_id,
        "SHEEPFOLD_TOKEN": token,
        "SHEEPFOLD_SEED": "5",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(BOT),
        cwd=BOT.parent,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), BOT_SECONDS)
    except TimeoutError:
        process.kill()
        stdout, stderr = await process.communicate()
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


async def _match_through_relay(faults: PlayFaults, seed: int) -> Outcome:
    async with serving_here(ServerConfig()) as address:
        return await _match_on(address, faults, seed)


async def _match_on(address: str, faults: PlayFaults, seed: int) -> Outcome:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        created = await stub.CreateMatch(
            arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=seed)
        )
        match_id, tokens = created.match_id, created.seat_tokens
        relay = Relay(address, faults)
        relay_address = await relay.start()
        opponent = asyncio.create_task(play(RandomBot(seed), address, match_id, tokens[1]))
        try:
            code, stdout, stderr = await _run_bot(relay_address, match_id, tokens[0])
            if code == 0:
                await asyncio.wait_for(opponent, BOT_SECONDS)
        finally:
            opponent.cancel()
            await relay.stop()
        match = await stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id))
        finished = match.status == arena_pb2.MATCH_STATUS_FINISHED
        request = arena_pb2.GetReplayRequest(match_id=match_id)
        replay = await stub.GetReplay(request) if finished else None
    return Outcome(code, stdout, stderr, relay, match, replay)


def _assert_played_to_the_end(outcome: Outcome) -> None:
    """Exit 0 with the server's result, every move the bots' own."""
    assert outcome.code == 0, outcome.stderr
    assert outcome.match.status == arena_pb2.MATCH_STATUS_FINISHED
    result = outcome.match.result
    assert (
        outcome.stdout.split("\n")[0] == f"scores {list(result.scores)} ranks {list(result.ranks)}"
    )
    assert [seat.strikes for seat in result.seats] == [0, 0], outcome.stderr
    assert outcome.replay is not None
    assert not [action for action in outcome.replay.actions if action.forced]
    assert "server said" not in outcome.stderr, "no answer was refused"


def _rejoins(outcome: Outcome) -> list[str]:
    return [line for line in outcome.stderr.splitlines() if line.endswith("joining again")]


REFUSALS: Sequence[grpc.StatusCode] = (
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.INTERNAL,
)


def test_plays_cancelled_before_the_join_was_answered_are_retried() -> None:
    outcome = asyncio.run(_match_through_relay(PlayFaults(refuse=REFUSALS), seed=21))
    _assert_played_to_the_end(outcome)
    assert outcome.relay.play_calls == len(REFUSALS) + 1
    assert [line.split(":")[1].strip() for line in _rejoins(outcome)] == [
        code.name for code in REFUSALS
    ]


def test_a_stream_lost_after_the_join_is_rejoined_and_its_open_decision_answered_once() -> None:
    faults = PlayFaults(cut_after_decisions=3, cut_code=grpc.StatusCode.UNAVAILABLE)
    outcome = asyncio.run(_match_through_relay(faults, seed=22))
    _assert_played_to_the_end(outcome)
    assert outcome.relay.play_calls == 2, outcome.stderr
    first, second = outcome.relay.streams
    assert second.decisions[0] == first.decisions[-1], "the open decision is sent again"
    assert second.answers.count(first.decisions[-1]) == 1, "and answered once"
    for stream in (first, second):
        assert len(stream.answers) == len(set(stream.answers)), "one answer per decision"
    forwarded = first.forwarded + second.forwarded
    assert len(forwarded) == len(set(forwarded)), "the server got each answer once"
    assert len(_rejoins(outcome)) == 1 and "UNAVAILABLE" in outcome.stderr


def test_refusals_of_a_rejoin_before_its_join_is_answered_are_retried() -> None:
    """Joined, the stream lost (a restart), then the rejoins refused before
    their joins were answered (a restarted server pushing out joins past its
    bound for one address, a join too late): the earlier join is no reason to
    give the seat up."""
    refusals = (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.DEADLINE_EXCEEDED)
    faults = PlayFaults(
        cut_after_decisions=2, cut_code=grpc.StatusCode.UNAVAILABLE, refuse_after_cut=refusals
    )
    outcome = asyncio.run(_match_through_relay(faults, seed=24))
    _assert_played_to_the_end(outcome)
    assert outcome.relay.play_calls == 1 + len(refusals) + 1, outcome.stderr
    assert [line.split(":")[1].strip() for line in _rejoins(outcome)] == [
        "UNAVAILABLE",
        *(code.name for code in refusals),
    ]


def test_cancelled_after_the_join_is_final() -> None:
    """Once joined, a cancelled stream was cancelled on purpose: no rejoin."""
    faults = PlayFaults(cut_after_decisions=1, cut_code=grpc.StatusCode.CANCELLED)
    outcome = asyncio.run(_match_through_relay(faults, seed=23))
    assert outcome.code == 1, outcome.stderr
    assert outcome.relay.play_calls == 1
    assert outcome.stderr.strip().splitlines()[-1].startswith("command_bot: CANCELLED")


def test_the_example_retries_the_codes_the_sdk_retries() -> None:
    example = runpy.run_path(str(BOT))  # not as __main__: defines, plays nothing
    assert example["RETRYABLE"] == sdk.RETRYABLE
    assert example["RETRYABLE_BEFORE_JOINED"] == sdk.RETRYABLE_BEFORE_JOINED


def test_joining_again_stops_after_the_sdks_time_not_a_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A server that refuses every connection: the bot joins again with backoff
    until its time is up, then gives up naming that time."""
    example = runpy.run_path(str(BOT))  # not as __main__: defines, plays nothing
    assert example["REJOIN_SECONDS"] == sdk.REJOIN_SECONDS
    with socket.socket() as unlistened:  # bound, never listening: connections are refused
        unlistened.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{unlistened.getsockname()[1]}"
        seat = example["Seat"](address, "m", "t", random.Random(1), rejoin_seconds=1.0)
        started = time.monotonic()
        with pytest.raises(
            example["SeatLost"], match=r"UNAVAILABLE.*gave up joining again after 1 s"
        ):
            seat.play()
        waited = time.monotonic() - started
    assert 1.0 <= waited < 10.0
    rejoins = [
        line for line in capsys.readouterr().err.splitlines() if line.endswith("joining again")
    ]
    assert len(rejoins) >= 2, "joined again with backoff before giving up"


class _MuteArena(arena_pb2_grpc.ArenaServicer):
    """Takes each Play stream and its join, and answers nothing."""

    async def Play(self, requests, context):  # type: ignore[no-untyped-def]
        await anext(aiter(requests))
        await asyncio.Event().wait()  # until the server stops
        yield arena_pb2.PlayResponse()


def test_a_join_the_server_never_answers_is_made_again_then_given_up_on() -> None:
    """A server that took the join and said nothing held the bot for ever."""
    example = runpy.run_path(str(BOT))  # not as __main__: defines, plays nothing
    assert example["JOIN_ANSWER_SECONDS"] == 30.0

    async def scenario() -> None:
        server = grpc.aio.server()
        arena_pb2_grpc.add_ArenaServicer_to_server(_MuteArena(), server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            address = f"127.0.0.1:{port}"
            seat = example["Seat"](address, "m", "t", random.Random(1), 1.0, 0.3)
            said = r"^the server answered no join within 0\.3 s; gave up joining again after 1 s"
            with pytest.raises(example["SeatLost"], match=said):
                await asyncio.wait_for(asyncio.to_thread(seat.play), 20)
        finally:
            await server.stop(None)

    asyncio.run(scenario())
