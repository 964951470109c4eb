#!/usr/bin/env python3
"""A command-line bot that uses only the generated gRPC code (no Sheepfold SDK).

It shows what a bot in any language does: open the `Play` stream, send `Join`
with the match id and seat token, answer every `Decision` with the index of
one of its legal actions, and stop at the `MatchResult`. The tournament runner
starts it once per seat with the environment variables

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
from collections.abc import Iterator

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

PASSIVE = ("pass", "stop", "done", "end")


def choose(decision: arena_pb2.Decision, rng: random.Random) -> int:
    labels = [action.label.lower() for action in decision.actions]
    active = [i for i, label in enumerate(labels) if not label.startswith(PASSIVE)]
    return rng.choice(active or list(range(len(labels))))


def main() -> int:
    try:
        address = os.environ["SHEEPFOLD_SERVER"]
        match_id = os.environ["SHEEPFOLD_MATCH"]
        token = os.environ["SHEEPFOLD_TOKEN"]
    except KeyError as missing:
        print(f"command_bot: environment variable {missing} is not set", file=sys.stderr)
        return 2
    rng = random.Random(int(os.environ.get("SHEEPFOLD_SEED", "0")))
    outbox: queue.SimpleQueue[arena_pb2.PlayRequest | None] = queue.SimpleQueue()
    outbox.put(arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token=token)))

    def requests() -> Iterator[arena_pb2.PlayRequest]:
        while (message := outbox.get()) is not None:
            yield message

    with grpc.insecure_channel(address) as channel:
        stub = arena_pb2_grpc.ArenaStub(channel)
        for response in stub.Play(requests(), wait_for_ready=True):
            kind = response.WhichOneof("kind")
            if kind == "decision":
                answer = arena_pb2.Answer(
                    decision_id=response.decision.decision_id,
                    action_index=choose(response.decision, rng),
                )
                outbox.put(arena_pb2.PlayRequest(answer=answer))
            elif kind == "error":
                print(f"command_bot: server said {response.error.message}", file=sys.stderr)
            elif kind == "result":
                outbox.put(None)
                print("scores", list(response.result.scores), "ranks", list(response.result.ranks))
                return 0
    print("command_bot: the stream ended without a result", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
