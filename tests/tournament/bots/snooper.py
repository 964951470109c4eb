"""A command bot that tries to read what its tournament's server has recorded:
the list of matches and a replay (of the newest finished match if it may list
them, else of its own). It appends what it got to `snooped`, with its match id
and its own seed, then plays its seat with the example command bot, and then
asks for its own finished match, appending its status and seed to `seeds_after`."""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc


def status_of(call: object) -> str:
    try:
        call()  # type: ignore[operator]
    except grpc.RpcError as error:
        return error.code().name
    return "OK"


with grpc.insecure_channel(os.environ["SHEEPFOLD_SERVER"]) as channel:
    stub = arena_pb2_grpc.ArenaStub(channel)
    target = os.environ["SHEEPFOLD_MATCH"]
    try:
        listed = stub.ListMatches(
            arena_pb2.ListMatchesRequest(status=arena_pb2.MATCH_STATUS_FINISHED), timeout=10
        )
        listing = "OK"
        target = next((m.match_id for m in listed.matches), target)
    except grpc.RpcError as error:
        listing = error.code().name
    replay = status_of(
        lambda: stub.GetReplay(arena_pb2.GetReplayRequest(match_id=target), timeout=10)
    )
with Path("snooped").open("a") as out:
    match, seat, seed = (
        os.environ[k] for k in ("SHEEPFOLD_MATCH", "SHEEPFOLD_SEAT", "SHEEPFOLD_SEED")
    )
    out.write(f"{match} {seat} {seed} {listing} {replay}\n")
sys.argv = [sys.argv[1]]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as done:
    code = done.code
# Its own match is over now: does the server tell it the seed it was dealt from?
with grpc.insecure_channel(os.environ["SHEEPFOLD_SERVER"]) as channel:
    info = arena_pb2_grpc.ArenaStub(channel).GetMatch(
        arena_pb2.GetMatchRequest(match_id=os.environ["SHEEPFOLD_MATCH"]), timeout=10
    )
with Path("seeds_after").open("a") as out:
    out.write(f"{info.status} {info.seed if info.HasField('seed') else 'hidden'}\n")
sys.exit(code)
