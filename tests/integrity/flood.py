"""A hostile client, run as its own process: opens many Play streams at once on
as many connections as asked
(`python -m tests.integrity.flood ADDR MATCH_ID COUNT SECONDS CONNECTIONS MIN_SECONDS`).

The first half never send a join, the second half join with a wrong token.
After SECONDS at most (at least MIN_SECONDS, then once the number still open
has not changed for SETTLED_SECONDS) it abandons whatever is still open and prints
one JSON object: how each stream ended.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc

# The number still open is taken as final once it has not changed for this
# long: on a machine loaded twice over, a server paused answering for over a
# second with 22 streams still to refuse.
SETTLED_SECONDS = 2.5


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
    address: str, match_id: str, count: int, seconds: float, connections: int, min_seconds: float
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
    # Watch for `seconds`, or less once the number still open has settled (a
    # loaded machine may take a while to answer them all). Not settled while
    # none has ended: a loaded machine may not have answered the first yet.
    loop = asyncio.get_running_loop()
    started, settled_at, last = loop.time(), loop.time(), -1
    while (now := loop.time()) - started < seconds:
        still_open = sum(1 for task in tasks if not task.done())
        if still_open != last:
            settled_at, last = now, still_open
        elif last < count and now - started >= min_seconds and now - settled_at >= SETTLED_SECONDS:
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
    address, match_id, count, seconds, connections, min_seconds = sys.argv[1:7]
    ends = asyncio.run(
        flood(address, match_id, int(count), float(seconds), int(connections), float(min_seconds))
    )
    print(json.dumps(ends))
