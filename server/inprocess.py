"""A real server on a free loopback port inside this process.

`serving_here()` runs it on the caller's event loop: what async callers such as
`sheepfold match` and `sheepfold demo` use. `InProcessServer` runs it on a
background thread for synchronous callers (tests driving it with blocking gRPC
stubs). Either way the bots talk to it through gRPC.

grpc.aio dispatches completions for every event loop of a process from one
poller: an operation that completes after its loop has closed (a client's
`asyncio.run` that has returned) raises inside that poller and can take other
loops' completions down with it, stalling a server on another loop. So async
client code beside an `InProcessServer` runs on the server's own loop, through
`run()` or `submit()`, never in a loop of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import threading
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, TypeVar

from server.app import ServerConfig, SheepfoldServer
from server.store import Store

T = TypeVar("T")


@asynccontextmanager
async def serving_here(
    config: ServerConfig | None = None,
    store: Store | None = None,
    unix_socket: str | Sequence[str] | None = None,
) -> AsyncIterator[str]:
    """Serve on a free loopback port on the running loop; yields the address.

    With `unix_socket`, also on that Unix socket, or those (what sandboxed bots reach).
    """
    sockets = (unix_socket,) if isinstance(unix_socket, str) else tuple(unix_socket or ())
    config = dataclasses.replace(
        config or ServerConfig(),
        host="127.0.0.1",
        port=0,
        listen=(),
        bot_sockets=tuple(f"unix:{path}" for path in sockets),
    )
    server = SheepfoldServer(config, store)
    port = await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop("in-process server closing")


class InProcessServer:
    def __init__(self, config: ServerConfig | None = None, store: Store | None = None) -> None:
        config = config or ServerConfig()
        self.config = dataclasses.replace(config, host="127.0.0.1", port=0)
        self.store = store
        self.address = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: SheepfoldServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def start(self) -> str:
        self._thread = threading.Thread(target=self._run, name="sheepfold-server", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise RuntimeError(f"in-process server failed to start: {self._error}")
        return self.address

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._server = SheepfoldServer(self.config, self.store)
            port = loop.run_until_complete(self._server.start())
            self.address = f"127.0.0.1:{port}"
        except BaseException as error:  # reported to the starting thread
            self._error = error
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None or self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(server.stop("in-process server closing"), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(30)
        self._loop = None

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule async client code on the server's loop (see the module doc)."""
        if self._loop is None:
            raise RuntimeError("the in-process server is not running")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = 120.0) -> T:
        """Run async client code on the server's loop and wait for its result."""
        return self.submit(coroutine).result(timeout)

    @property
    def server(self) -> SheepfoldServer:
        assert self._server is not None
        return self._server

    def __enter__(self) -> InProcessServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
