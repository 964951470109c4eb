"""A hostile client, run as its own process: opens many Play streams at once on
as many connections as asked
(`python -m tests.integrity.flood ADDR MATCH_ID COUNT SECONDS CONNECTIONS MIN_SECONDS AT_MOST`).

The first half never send a join, the second half join with a wrong token.
It watches for MIN_SECONDS, then until no more than AT_MOST streams are still
open (what the server is expected to leave open), or for SECONDS in all; then
it abandons whatever is still open and prints one JSON object: how each stream
ended. Waiting for the expected end rather than for the count to stop moving
keeps a server paused by a loaded machine from looking like one that leaves
streams open; a server that does leave them open still fails, at SECONDS.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc


async def _one(stub: arena_pb2_grpc.ArenaStub, match_id: str, join: bool, ends: Counter) -> None:
    call = stub.Play()
    try:
        if join:
            await call.write(
                arena_pb2.PlayRequest(join=arena_pb2.Join(match_id=match_id, token="forged"))
            )
        async for _ in call:
            pass
        ends["OK"] += 1
    except grpc.aio.AioRpcError as error:
        ends[error.code().name] += 1


async def flood(
    address: str,
    match_id: str,
    count: int,
    seconds: float,
    connections: int,
    min_seconds: float,
    at_most: int,
) -> Counter:
    ends: Counter = Counter()
    # Each channel its own connection (by default a process's channels share one).
    options = [("grpc.use_local_subchannel_pool", 1)]
    channels = [grpc.aio.insecure_channel(address, options=options) for _ in range(connections)]
    for channel in channels:
        await channel.channel_ready()
    stubs = [arena_pb2_grpc.ArenaStub(channel) for channel in channels]
    tasks = [
        asyncio.create_task(_one(stubs[i % connections], match_id, i >= count // 2, ends))
        for i in range(count)
    ]
    print("started", flush=True)
    loop = asyncio.get_running_loop()
    started = loop.time()
    while (elapsed := loop.time() - started) < seconds:
        still_open = sum(1 for task in tasks if not task.done())
        if elapsed >= min_seconds and still_open <= at_most:
            break
        await asyncio.sleep(0.1)
    ends["still open"] = sum(1 for task in tasks if not task.done())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return ends


if __name__ == "__main__":
    address, match_id, count, seconds, connections, min_seconds, at_most = sys.argv[1:8]
    ends = asyncio.run(
        flood(
            address,
            match_id,
            int(count),
            float(seconds),
            int(connections),
            float(min_seconds),
            int(at_most),
        )
    )
    print(json.dumps(ends))
