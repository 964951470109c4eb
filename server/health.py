"""The gRPC health service (grpc.health.v1.Health), for probes and load balancers.

Not grpc_health's asyncio servicer: its Watch writes to the client while it
holds the lock that every status change (and the shutdown's NOT_SERVING) waits
for, so one Watch stream whose client never reads held SIGTERM up for as long
as the client stayed connected. Here a Watch only waits for a change, never
while anyone else waits for it.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from server.peers import peer_address

Status = health_pb2.HealthCheckResponse.ServingStatus

# Watch streams open at once, from one client address and in all. Each holds a
# handler (about 6 KB); bounded only by connections and streams per connection,
# a client once opened 10,000 of them (60 MB) and could open a thousand times
# more. A probe or a load balancer needs one or two.
MAX_WATCHES_PER_ADDRESS = 16
MAX_WATCHES = 1_000


class Health(health_pb2_grpc.HealthServicer):
    """Status per service name ("" is the server as a whole), SERVING at first."""

    def __init__(self) -> None:
        self._status: dict[str, Status] = {"": health_pb2.HealthCheckResponse.SERVING}
        self._changed = asyncio.Event()  # set, and replaced, on every change
        self._shutting_down = False
        self._watches: Counter[str] = Counter()  # open Watch streams, per address
        self._watch_total = 0

    async def Check(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext
    ) -> health_pb2.HealthCheckResponse:
        status = self._status.get(request.service)
        if status is None:
            name = request.service[:100]
            await context.abort(grpc.StatusCode.NOT_FOUND, f"the server has no service {name!r}")
        return health_pb2.HealthCheckResponse(status=status)

    async def Watch(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext
    ) -> None:
        """The status now, then each change (an unknown service: SERVICE_UNKNOWN
        until it is set)."""
        address = peer_address(context.peer())
        if self._watches[address] >= MAX_WATCHES_PER_ADDRESS:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this address already has {MAX_WATCHES_PER_ADDRESS} health watches open",
            )
        if self._watch_total >= MAX_WATCHES:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this server already has {MAX_WATCHES} health watches open",
            )
        self._watches[address] += 1
        self._watch_total += 1
        try:
            await self._watch(request, context)
        finally:
            self._watch_total -= 1
            self._watches[address] -= 1
            if not self._watches[address]:
                del self._watches[address]

    async def _watch(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext
    ) -> None:
        sent: Status | None = None
        while True:
            changed = self._changed
            status = self._status.get(
                request.service, health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
            )
            if status != sent:
                await context.write(health_pb2.HealthCheckResponse(status=status))
                sent = status
            await changed.wait()

    async def set(self, service: str, status: Status) -> None:
        """Set a service's status; ignored once the server is shutting down."""
        if not self._shutting_down:
            self._set(service, status)

    async def enter_graceful_shutdown(self) -> None:
        """Every service NOT_SERVING, for good."""
        self._shutting_down = True
        for service in self._status:
            self._set(service, health_pb2.HealthCheckResponse.NOT_SERVING)

    def _set(self, service: str, status: Status) -> None:
        self._status[service] = status
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
