#!/usr/bin/env python3
"""A command-line bot that uses only the generated gRPC code (no Sheepfold SDK).

It shows what a bot in any language does: open the `Play` stream, send `Join`
with the match id and seat token, answer every `Decision` with the index of
one of its legal actions, and stop at the `MatchResult`. When a stream fails
in a way worth another try, it joins again with the same token, by the rules
of docs/writing-a-bot.md ("What to retry, and when"), which the Python SDK
follows too. The tournament runner starts it once per seat with the
environment variables

    SHEEPFOLD_SERVER  host:port of the server
    SHEEPFOLD_MATCH   match id
    SHEEPFOLD_TOKEN   the seat's secret token
    SHEEPFOLD_SEED    (optional) a seed for the bot's own randomness

Its strategy is deliberately simple: a random legal action, but never "pass" or
"stop" when anything else is allowed. Exit status 0 after a result, 1 otherwise.
"""

from __future__ import annotations

import os
import queue
import random
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

PASSIVE = ("pass", "stop", "done", "end")

# Worth joining again: the server or the network went away. The server then
# sends the open decision again, to be answered on the new stream.
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
# Also worth it until the server has answered this stream's join with `joined`:
# a server under a burst of streams may cancel or refuse a stream before it
# starts, or push it out while too many joins from one address wait (every bot
# rejoining a restarted server), or end it when its join came too late.
RETRYABLE_BEFORE_JOINED = RETRYABLE | {
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
}
# Every other status is final: NOT_FOUND, UNAUTHENTICATED, PERMISSION_DENIED,
# INVALID_ARGUMENT, ABORTED (a newer stream took the seat), FAILED_PRECONDITION
# (the match is over: GetMatch has its result).
# Joining again stops once the server has been away this long (from the first
# join that failed; a stream that joined starts it afresh), as in the SDK:
# bounded by time, since a refused connection fails at once and a silent one
# only at the connect deadline, so a count of attempts lasts anything.
REJOIN_SECONDS = 90.0
# A server answers a join at once (joined, or a status): a join with no answer
# for this long is given up on and made again, as after UNAVAILABLE. A server
# that took the join and said nothing (its gRPC layer alive, the rest stuck)
# once held the bot for ever.
JOIN_ANSWER_SECONDS = 30.0


def choose(decision: arena_pb2.Decision, rng: random.Random) -> int:
    labels = [action.label.lower() for action in decision.actions]
    active = [i for i, label in enumerate(labels) if not label.startswith(PASSIVE)]
    return rng.choice(active or list(range(len(labels))))


def backoff(retry: int) -> float:
    """Seconds to wait before the `retry`th new join."""
    return min(0.1 * 2**retry, 2.0)


def open_channel(address: str) -> grpc.Channel:
    # A connection of its own, never one that a failed stream left broken.
    return grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])


class SeatLost(Exception):
    """The seat is lost for good: a final status, or too many joins that failed."""


class JoinUnanswered(Exception):
    """The server answered the stream's join with nothing in JOIN_ANSWER_SECONDS."""


@dataclass
class Seat:
    """One seat, played to the end over as many Play streams as it takes."""

    address: str
    match_id: str
    token: str
    rng: random.Random
    rejoin_seconds: float = REJOIN_SECONDS
    join_answer_seconds: float = JOIN_ANSWER_SECONDS
    joined: bool = False  # the server has answered the join of the stream now open

    def play(self) -> arena_pb2.MatchResult:
        """The match result; raises SeatLost."""
        why = ""
        retry = 0
        away_since: float | None = None  # when the first join of this outage failed
        while True:
            if retry:
                print(f"command_bot: {why}; joining again", file=sys.stderr)
                time.sleep(backoff(retry))
            try:
                result = self.play_stream()
                why = "the stream ended without a result"
            except JoinUnanswered as unanswered:
                result, why = None, str(unanswered)
            except grpc.RpcError as error:
                why = f"{error.code().name}: {error.details()}"
                result = self.finished_result(error.code())
                if result is None and not self.worth_retrying(error.code()):
                    raise SeatLost(why) from None
            if result is not None:
                return result
            now = time.monotonic()
            if self.joined or away_since is None:  # play went on: a new outage
                retry, away_since = 0, now
            if now - away_since >= self.rejoin_seconds:
                raise SeatLost(f"{why}; gave up joining again after {self.rejoin_seconds:g} s")
            retry += 1

    def worth_retrying(self, code: grpc.StatusCode) -> bool:
        return code in (RETRYABLE if self.joined else RETRYABLE_BEFORE_JOINED)

    def play_stream(self) -> arena_pb2.MatchResult | None:
        """One Play stream: join and answer each decision on it. Returns the result,
        or None when the server ended the stream without one."""
        self.joined = False
        outbox: queue.SimpleQueue[arena_pb2.PlayRequest | None] = queue.SimpleQueue()
        join = arena_pb2.Join(match_id=self.match_id, token=self.token)
        outbox.put(arena_pb2.PlayRequest(join=join))

        def requests() -> Iterator[arena_pb2.PlayRequest]:
            while (message := outbox.get()) is not None:
                yield message

        result: arena_pb2.MatchResult | None = None
        unanswered = threading.Event()
        with open_channel(self.address) as channel:
            call = arena_pb2_grpc.ArenaStub(channel).Play(requests())

            def give_up() -> None:
                unanswered.set()
                call.cancel()

            timer = threading.Timer(self.join_answer_seconds, give_up)
            timer.daemon = True
            timer.start()
            try:
                for response in call:
                    kind = response.WhichOneof("kind")
                    if kind == "joined":
                        timer.cancel()
                        self.joined = True
                    elif kind == "decision":
                        answer = arena_pb2.Answer(
                            decision_id=response.decision.decision_id,
                            action_index=choose(response.decision, self.rng),
                        )
                        outbox.put(arena_pb2.PlayRequest(answer=answer))
                    elif kind == "error":
                        print(f"command_bot: server said {response.error.message}", file=sys.stderr)
                    elif kind == "result":
                        # Read on to the server's status (it follows at once) before
                        # the channel closes: a status sent to a client that has gone
                        # costs the server memory it never gets back.
                        result = response.result
                        outbox.put(None)
            except grpc.RpcError:
                if unanswered.is_set() and not self.joined:
                    raise JoinUnanswered(
                        f"the server answered no join within {self.join_answer_seconds:g} s"
                    ) from None
                if result is None:
                    raise
            finally:
                timer.cancel()
                outbox.put(None)  # ends this stream's requests, whatever ended the stream
        return result

    def finished_result(self, code: grpc.StatusCode) -> arena_pb2.MatchResult | None:
        """The result of a match that ended while this seat was away, if that is
        why the join failed (FAILED_PRECONDITION "the match is over")."""
        if code != grpc.StatusCode.FAILED_PRECONDITION:
            return None
        with open_channel(self.address) as channel:
            request = arena_pb2.GetMatchRequest(match_id=self.match_id)
            try:
                info = arena_pb2_grpc.ArenaStub(channel).GetMatch(request, timeout=30)
            except grpc.RpcError:
                return None
        return info.result if info.status == arena_pb2.MATCH_STATUS_FINISHED else None


def main() -> int:
    try:
        address = os.environ["SHEEPFOLD_SERVER"]
        match_id = os.environ["SHEEPFOLD_MATCH"]
        token = os.environ["SHEEPFOLD_TOKEN"]
    except KeyError as missing:
        print(f"command_bot: environment variable {missing} is not set", file=sys.stderr)
        return 2
    rng = random.Random(int(os.environ.get("SHEEPFOLD_SEED", "0")))
    try:
        result = Seat(address, match_id, token, rng).play()
    except SeatLost as lost:
        print(f"command_bot: {lost}", file=sys.stderr)
        return 1
    print("scores", list(result.scores), "ranks", list(result.ranks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
