"""Joins its seat, then fork-bombs at its first decision and never answers."""

import os
import queue
import time

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc


def bomb() -> None:
    while True:
        try:
            if os.fork() == 0:
                while True:  # a refused fork's traceback ends a child; the parent refills
                    os.fork()
        except OSError:
            time.sleep(0.05)


join = arena_pb2.Join(match_id=os.environ["SHEEPFOLD_MATCH"], token=os.environ["SHEEPFOLD_TOKEN"])
outbox: queue.SimpleQueue = queue.SimpleQueue()
outbox.put(arena_pb2.PlayRequest(join=join))


def requests():
    while (message := outbox.get()) is not None:
        yield message


with grpc.insecure_channel(os.environ["SHEEPFOLD_SERVER"]) as channel:
    for response in arena_pb2_grpc.ArenaStub(channel).Play(requests(), wait_for_ready=True):
        if response.WhichOneof("kind") == "decision":
            bomb()
