"""The viewer's listening socket, bounded.

aiohttp accepts every connection and keeps one that never sends a request for
an hour. In `sheepfold serve --web-port` the viewer shares the game server's
process, so a client opening idle connection after connection took every file
descriptor, and then nobody could reach the game server either. This site
holds at most `max_connections` at once and closes the rest as they arrive;
the runner's keep-alive timeout closes idle ones.
"""

from __future__ import annotations

import asyncio

from aiohttp import web


class BoundedSite(web.BaseSite):
    """A TCP site that holds at most `max_connections` connections at once."""

    __slots__ = ("_host", "_max_connections", "_open", "_port")

    def __init__(self, runner: web.BaseRunner, host: str, port: int, max_connections: int) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._max_connections = max_connections
        self._open = 0

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        """The bound port (the one asked for until started)."""
        if self._server is not None and self._server.sockets:
            return int(self._server.sockets[0].getsockname()[1])
        return self._port

    @property
    def open_connections(self) -> int:
        return self._open

    async def start(self) -> None:
        await super().start()
        handlers = self._runner.server
        assert handlers is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: self._protocol(handlers),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=True,
        )

    def _protocol(self, handlers: web.Server) -> asyncio.Protocol:
        # Counted here, as each connection is accepted: the handlers' own list
        # grows only once a connection is set up, after a whole burst is accepted.
        if self._open >= self._max_connections:
            return _Refused()
        self._open += 1
        return _Counted(handlers(), self)

    def _closed(self) -> None:
        self._open -= 1


class _Refused(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class _Counted(asyncio.Protocol):
    """aiohttp's handler for one connection, and the site's count of it."""

    __slots__ = ("_handler", "_site")

    def __init__(self, handler: asyncio.Protocol, site: BoundedSite) -> None:
        self._handler = handler
        self._site = site

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._handler.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._site._closed()
        self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self._handler.eof_received()

    def pause_writing(self) -> None:
        self._handler.pause_writing()

    def resume_writing(self) -> None:
        self._handler.resume_writing()
