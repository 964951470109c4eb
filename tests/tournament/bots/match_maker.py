"""A command bot that first tries to create a match of its own on the server it
was given, writes the status it got to `create_status`, then plays its seat
with the example command bot."""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

with grpc.insecure_channel(os.environ["SHEEPFOLD_SERVER"]) as channel:
    try:
        arena_pb2_grpc.ArenaStub(channel).CreateMatch(
            arena_pb2.CreateMatchRequest(game=os.environ["SHEEPFOLD_GAME"], players=2), timeout=10
        )
        status = "OK"
    except grpc.RpcError as error:
        status = error.code().name
Path("create_status").write_text(status)
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
