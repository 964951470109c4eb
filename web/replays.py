"""A finished match's frames: its record fetched, replayed in the replay
process once per view, kept (bounded) and sent a piece at a time.

A record that cannot be shown for a reason in the record itself (its moves
do not replay, it was played under other rules, it has no such seat) gets
the same answer every time: that answer is kept as frames are, so a crowd
of pages asking for a damaged record costs one fetch and one replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web
from sheepfold.v1 import arena_pb2

import games
from server.peers import client_network
from web.frames import ViewError, parse_view, render_json
from web.gateway import GatewayError
from web.responses import body_headers, is_head
from web.state import STATE, Frames, FramesKey, Refusal, State

MAX_RENDERS_WAITING = 32  # different replays asked for and not yet rendered; more: 503
# Once half of those are taken, a client address that started this many of the
# replays waiting starts no more: one client asking for match after match once
# held every place, and every other visitor got 503.
MAX_RENDERS_PER_ADDRESS = 8
BUSY_RETRY_SECONDS = 2  # a replay renders in well under this, so a place frees by then
SEND_PIECE = 256 * 1024  # a larger body is written in pieces of this size
SEND_SECONDS = 120.0  # a client still reading a large body after this is dropped


class Unreplayable(GatewayError):
    """The record itself is why it cannot be shown: answered the same way every time."""


def replayable(match_id: str, replay: arena_pb2.Replay) -> arena_pb2.Replay:
    """`replay`, refused (409) when it was played under other rules: today's
    engine would replay it as a different game."""
    if replay.game not in games.names():  # an unknown game is said by the replay itself
        return replay
    game = games.get(replay.game)
    recorded = replay.rules_version or 1  # a record older than the field: version 1
    try:
        game.check_rules_version(recorded)
    except games.RulesChanged:
        raise Unreplayable(
            409,
            f"match {match_id} was recorded under {replay.game} rules version "
            f"{recorded}, and this viewer plays version {game.rules_version}: its moves "
            "would replay as a different game",
        ) from None
    return replay


async def frames_response(
    request: web.Request,
    key: FramesKey,
    view: str,
    load: Callable[[], Awaitable[arena_pb2.Replay]],
) -> web.StreamResponse:
    state = request.app[STATE]
    frames = state.cache.get(key)
    if frames is None:
        # Pages opening a match that just ended share one replay.
        rendering = state.rendering.get(key)
        if rendering is None:
            # Counted as the site counts connections: an IPv6 client by its /64.
            address = client_network(request.remote or "")
            _check_room(state, address)
            rendering = asyncio.ensure_future(_load_and_render(state, key, view, load))
            state.rendering[key] = rendering
            state.renders_started[address] += 1
            rendering.add_done_callback(lambda done: _rendered(state, key, address, done))
        frames = await asyncio.shield(rendering)
    if key in state.cache:  # others may have pushed it out meanwhile
        state.cache.move_to_end(key)
    if isinstance(frames, Refusal):
        raise GatewayError(frames.status, frames.message)
    body, headers = body_headers(request, frames.plain, frames.gzipped, "application/json")
    return await _send(request, body, headers)


def _check_room(state: State, address: str) -> None:
    """A 503 unless `address` may start one more replay (MAX_RENDERS_WAITING,
    MAX_RENDERS_PER_ADDRESS)."""
    waiting = len(state.rendering)
    if waiting >= MAX_RENDERS_WAITING:
        raise GatewayError(
            503,
            "the viewer is replaying many matches now: try again shortly",
            retry_after=BUSY_RETRY_SECONDS,
        )
    started = state.renders_started[address]
    if waiting >= MAX_RENDERS_WAITING // 2 and started >= MAX_RENDERS_PER_ADDRESS:
        raise GatewayError(
            503,
            f"the viewer is replaying {started} matches for this address now: try again shortly",
            retry_after=BUSY_RETRY_SECONDS,
        )


async def _send(request: web.Request, body: bytes, headers: dict[str, str]) -> web.StreamResponse:
    """`body` written a piece at a time, each after the last has left: a client
    that does not read holds one piece of it, not a copy of all of it (a
    replay's frames can be 15 MB), and is dropped after SEND_SECONDS."""
    if len(body) <= SEND_PIECE or is_head(request):  # HEAD: aiohttp sends no body
        return web.Response(body=body, headers=headers)
    response = web.StreamResponse(headers=headers)
    response.content_length = len(body)
    await response.prepare(request)
    whole = memoryview(body)
    try:
        async with asyncio.timeout(SEND_SECONDS):
            for start in range(0, len(body), SEND_PIECE):
                await response.write(whole[start : start + SEND_PIECE])
            await response.write_eof()
    except (TimeoutError, ConnectionResetError):
        # Too slow, or gone: end the connection as aiohttp ends one whose client left.
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError from None
    return response


async def _load_and_render(
    state: State,
    key: FramesKey,
    view: str,
    load: Callable[[], Awaitable[arena_pb2.Replay]],
) -> Frames | Refusal:
    """The frames, or the refusal of a record that cannot be shown; either is
    kept. Any other failure (the game server away, the replay process killed)
    is raised and kept by nobody: the next page asks again."""
    try:
        replay = await load()
        try:
            parsed = parse_view(view, replay.players)
        except ViewError as error:
            raise Unreplayable(400, str(error)) from None
        answer: Frames | Refusal = await _render(state, replay, parsed)
    except Unreplayable as error:
        answer = Refusal(error.status, error.message)
    state.cache[key] = answer
    while len(state.cache) > state.config.cache_size:
        state.cache.popitem(last=False)
    return answer


async def _render(state: State, replay: arena_pb2.Replay, view: int | str) -> Frames:
    try:
        plain, gzipped = await state.in_pool(render_json, replay.SerializeToString(), view)
    except ValueError as error:  # the record does not replay
        raise Unreplayable(500, str(error)) from None
    return Frames(plain, gzipped)


def _rendered(
    state: State, key: FramesKey, address: str, done: asyncio.Future[Frames | Refusal]
) -> None:
    state.rendering.pop(key, None)
    state.renders_started[address] -= 1
    if state.renders_started[address] <= 0:
        del state.renders_started[address]
    if not done.cancelled():
        done.exception()  # retrieved: every page that waited has its answer
