"""The viewer stops when told to, whatever pages are open: an event stream a
page keeps open for ever once held `sheepfold web` (and `serve --web-port`)
after SIGTERM or Ctrl-C until the page went away."""

from __future__ import annotations

import asyncio

from server.app import ServerConfig
from server.inprocess import InProcessServer
from web.app import WebConfig, start_web


async def _open_stream(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A page's event stream, its headers and first event read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"data:" in await asyncio.wait_for(reader.readuntil(b"\n\n"), 10)
    return reader, writer


def test_the_viewer_stops_while_a_page_holds_the_matches_stream() -> None:
    async def scenario(address: str) -> bytes:
        running = await start_web(WebConfig(server=address), "127.0.0.1", 0)
        reader, writer = await _open_stream(running.port, "/api/matches/events")
        try:
            # A hang here is the fault (aiohttp waits 60 s for open requests).
            await asyncio.wait_for(running.stop(), 10)
            return await asyncio.wait_for(reader.read(), 10)
        finally:
            writer.close()

    with InProcessServer(ServerConfig()) as server:
        rest = asyncio.run(scenario(server.address))
    assert b"data:" not in rest, "the stream went on after the viewer stopped"
