"""The viewer stops when told to, whatever pages are open: an event stream a
page keeps open for ever once held `sheepfold web` (and `serve --web-port`)
after SIGTERM or Ctrl-C until the page went away."""

from __future__ import annotations

import asyncio

from server.app import ServerConfig
from server.inprocess import InProcessServer
from web.app import WebConfig, start_web
from web.state import STATE


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


def test_the_viewer_stops_with_no_shared_page_load_left_pending() -> None:
    """A page of the list whose load waited for its address's turn, its asker
    gone, outlived the viewer that stopped: the loop closed on it, and Python
    said "Task was destroyed but it is pending!" as the process ended. So did
    one that another address's sooner turn had loaded in its place."""

    async def scenario(address: str) -> list[asyncio.Task[object]]:
        running = await start_web(WebConfig(server=address), "127.0.0.1", 0)
        pages = running.runner.app[STATE].pages
        # The second page an address asks waits 4 s for its turn (a quarter
        # of a second as the viewer runs: long enough here to stop in).
        pages.address_gap_seconds = 4.0
        first = await _ask_page(running.port, "stubborn-sheep")
        assert first.startswith(b"HTTP/1.1 200"), first
        _, writer = await asyncio.open_connection("127.0.0.1", running.port)
        writer.write(
            b"GET /api/matches/page?game=sheep-showdown HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        await writer.drain()
        # Bounded: a load that never starts fails here rather than hanging the run.
        for _ in range(1000):
            if pages.shared.flights:
                break
            await asyncio.sleep(0.01)
        assert pages.shared.flights, "the second page's load never began"
        # Another address's turn is now: it loads the page in that one's place.
        other = await _ask_page(running.port, "sheep-showdown", source="127.0.0.2")
        assert other.startswith(b"HTTP/1.1 200"), other
        writer.close()  # the first asker goes; its load waits on for its turn
        await asyncio.wait_for(running.stop(), 10)
        return [
            task
            for task in asyncio.all_tasks()
            if not task.done() and "SharedAnswers" in repr(task.get_coro())
        ]

    with InProcessServer(ServerConfig()) as server:
        left = asyncio.run(scenario(server.address))
    assert left == [], left


async def _ask_page(port: int, game: str, source: str = "127.0.0.1") -> bytes:
    """The first page of the matches list of `game`, asked from `source` on a
    connection of its own."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(
            f"GET /api/matches/page?game={game} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
