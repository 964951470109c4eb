"""The gRPC health service (grpc.health.v1.Health), for probes and load balancers.

Not grpc_health's asyncio servicer: its Watch writes to the client while it
holds the lock that every status change (and the shutdown's NOT_SERVING) waits
for, so one Watch stream whose client never reads held SIGTERM up for as long
as the client stayed connected. Here a Watch only waits for a change, never
while anyone else waits for it.
"""

from __future__ import annotations

import asyncio
from typing import TypeAlias

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from games.options import brief as brief_name
from server.status import abort
from server.stream_places import StreamPlaces

Status: TypeAlias = health_pb2.HealthCheckResponse.ServingStatus

# The service a liveness probe asks: SERVING from start to shutdown, whatever
# the database does. "" and the Arena service say NOT_SERVING while writes fail
# (locked, disk full): matches then wait and nothing is lost, which is a reason
# to send no new traffic (readiness), not to restart the server (liveness).
LIVENESS_SERVICE = "liveness"

# Watch streams open at once, from one client address and in all (see
# server/stream_places.py). A probe or a load balancer needs one or two.
MAX_WATCHES_PER_ADDRESS = 16
MAX_WATCHES = 1_000


class Health(health_pb2_grpc.HealthServicer):
    """Status per service name ("" is the server as a whole), SERVING at first."""

    def __init__(self) -> None:
        self._status: dict[str, Status] = {"": health_pb2.HealthCheckResponse.SERVING}
        self._changed = asyncio.Event()  # set, and replaced, on every change
        self._shutting_down: str | None = None  # why, once it is
        self.watches = StreamPlaces("health watches", MAX_WATCHES_PER_ADDRESS, MAX_WATCHES)

    async def Check(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext
    ) -> health_pb2.HealthCheckResponse:
        status = self._status.get(request.service)
        if status is None:
            name = brief_name(request.service)
            await abort(context, grpc.StatusCode.NOT_FOUND, f"the server has no service {name}")
        return health_pb2.HealthCheckResponse(status=status)

    async def Watch(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext
    ) -> None:
        """The status now, then each change (an unknown service: SERVICE_UNKNOWN
        until it is set)."""
        async with self.watches.place(context):
            await self._watch(request, context)

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
                # Looked at again: it may have changed while the write waited
                # for the client (the shutdown's NOT_SERVING among others).
                continue
            if self._shutting_down is not None:
                # NOT_SERVING for good, and told: ended now, not held open until
                # the shutdown's grace runs out (and the server's exit with it).
                await abort(context, grpc.StatusCode.UNAVAILABLE, self._shutting_down)
            await changed.wait()

    async def set(self, service: str, status: Status) -> None:
        """Set a service's status; ignored once the server is shutting down."""
        if self._shutting_down is None:
            self._set(service, status)

    async def enter_graceful_shutdown(self, reason: str = "server shutting down") -> None:
        """Every service NOT_SERVING, for good; each watch is told so, then
        ends UNAVAILABLE `reason`."""
        self._shutting_down = reason
        for service in self._status:
            self._set(service, health_pb2.HealthCheckResponse.NOT_SERVING)

    def _set(self, service: str, status: Status) -> None:
        self._status[service] = status
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
