"""The viewer stops when told to, whatever pages are open: an event stream a
page keeps open for ever once held `sheepfold web` (and `serve --web-port`)
after SIGTERM or Ctrl-C until the page went away."""

from __future__ import annotations

import asyncio

from server.app import ServerConfig
from server.inprocess import InProcessServer
from web.app import WebConfig, start_web
from web.showcase import Showcase


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


def test_serve_with_the_viewer_stops_as_soon_after_a_replay_as_before_one(
    showcase: Showcase,
) -> None:
    """The replay process brings multiprocessing's resource tracker, which
    holds a writer of the pipe of gRPC core's log reader (cli/core_log.py)
    until `serve` exits: its stop waited 3 s more for the reader, every time."""
    import re
    import time
    import urllib.request

    from tests.conftest import start_server_process, stop_server_process
    from tests.web.test_commands import free_port, wait_http

    port = free_port()
    db = str(showcase.tournament_dbs[0])
    server = start_server_process("--web-port", str(port), "--tournament-db", db)
    try:
        wait_http(f"http://127.0.0.1:{port}/static/style.css")
        listing = urllib.request.urlopen(f"http://127.0.0.1:{port}/tournaments", timeout=30)
        link = re.search(r'href="(/tournaments/0/[^"]+)"', listing.read().decode())
        assert link is not None
        # The report is built in the replay process, which starts with it.
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}{link[1]}", timeout=60).status == 200
    finally:
        began = time.monotonic()
        assert stop_server_process(server) == 0
    # The reader waited 3 s for the tracker; without that wait a stop takes about 0.2 s.
    assert time.monotonic() - began < 2.0, "it waited for the core log's reader"
