"""`sheepfold match` and `sheepfold bot` watching a bot program: a second Ctrl-C
while it is being killed, and a program that never joins its seat."""

from __future__ import annotations

import asyncio
import gc
import socket

import pytest
from structlog.testing import capture_logs

from clients import matchplay
from clients.bots.random_bot import RandomBot
from clients.launch.process import BotFailure
from clients.matchplay import create_match, run_until_match_over
from clients.sdk import play
from server.app import ServerConfig
from server.inprocess import serving_here


class _Program:
    """A bot program that fails once killed; killing it takes a while."""

    def __init__(self) -> None:
        self.killed = asyncio.Event()

    async def run(self) -> None:
        await self.killed.wait()
        raise BotFailure("killed by SIGKILL")

    async def kill(self) -> None:
        self.killed.set()
        await asyncio.Event().wait()  # interrupted here by the second Ctrl-C


def test_a_program_killed_while_the_match_is_interrupted_twice_reports_nothing() -> None:
    reported: list[str] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _loop, context: reported.append(context["message"])
        )
        program = _Program()
        running = asyncio.create_task(
            run_until_match_over(program, "127.0.0.1:1", "m")  # type: ignore[arg-type]
        )
        await asyncio.sleep(0.01)
        running.cancel()  # the first Ctrl-C: the program is being killed
        await asyncio.sleep(0.01)
        running.cancel()  # the second, while kill() waits
        await asyncio.gather(running, return_exceptions=True)
        await asyncio.sleep(0.01)
        gc.collect()

    asyncio.run(main())
    gc.collect()
    assert reported == []


class _Quick:
    """A bot program that plays its (unseen) match and exits after `seconds`."""

    stderr_tail = ""  # it writes nothing

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def run(self) -> None:
        await asyncio.sleep(self.seconds)

    async def kill(self) -> None:
        return None


@pytest.mark.e2e
def test_a_program_that_exits_is_not_held_by_a_silent_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether the match is over is looked at every POLL_SECONDS, a look the
    command can do without (the program's own end is what counts): a server
    that accepts the connection and answers nothing fails it within
    LOOK_SECONDS. It once waited RPC_SECONDS (30 s), and a program that exited
    meanwhile kept `sheepfold match` and `sheepfold bot` waiting that long."""
    monkeypatch.setattr(matchplay, "LOOK_SECONDS", 1.0)

    async def scenario() -> float:
        listener = socket.create_server(("127.0.0.1", 0))
        try:
            address = f"127.0.0.1:{listener.getsockname()[1]}"
            started = asyncio.get_running_loop().time()
            program = _Quick(matchplay.POLL_SECONDS + 0.2)  # exits during the first look
            await asyncio.wait_for(
                run_until_match_over(program, address, "m"),  # type: ignore[arg-type]
                10,
            )
            return asyncio.get_running_loop().time() - started
        finally:
            listener.close()

    waited = asyncio.run(scenario())
    assert matchplay.POLL_SECONDS + 1.0 <= waited < matchplay.POLL_SECONDS + 4, waited


class _Seat:
    """A bot program that plays its seat with the SDK, or never joins."""

    stderr_tail = ""  # it writes nothing

    def __init__(self, address: str, match_id: str, token: str, joins: bool) -> None:
        self.address, self.match_id, self.token, self.joins = address, match_id, token, joins

    async def run(self) -> None:
        if self.joins:
            await play(RandomBot(0), self.address, self.match_id, self.token)
        else:
            await asyncio.Event().wait()

    async def kill(self) -> None:
        return None


@pytest.mark.e2e
@pytest.mark.parametrize("joins", [False, True])
def test_a_program_that_has_not_joined_its_seat_is_named(
    joins: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sheepfold match` sat silent for the server's 30 s join timeout when a
    command bot never connected; now a warning names the seat after a few seconds."""
    monkeypatch.setattr(matchplay, "JOIN_NOTICE_SECONDS", 0.3)

    async def scenario() -> list[dict[str, object]]:
        async with serving_here(ServerConfig(join_timeout=30.0)) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=5)
            program = _Seat(address, created.match_id, created.seat_tokens[0], joins)
            with capture_logs() as logs:
                running = asyncio.create_task(
                    matchplay.run_until_match_over(
                        program,  # type: ignore[arg-type]
                        address,
                        created.match_id,
                        seat=0,
                    )
                )
                await asyncio.sleep(1.5)
                running.cancel()
                await asyncio.gather(running, return_exceptions=True)
            return logs

    warnings = [
        log
        for log in asyncio.run(scenario())
        if log["event"] == "bot program has not joined its seat"
    ]
    if joins:
        assert warnings == []
    else:
        assert [(log["seat"], log["log_level"]) for log in warnings] == [(0, "warning")]


@pytest.mark.e2e
@pytest.mark.parametrize("opponent_plays", [False, True])
def test_a_program_that_exits_0_before_its_match_is_over_left_its_seat(
    opponent_plays: bool,
) -> None:
    """A program that exits 0 while its match goes on left its seat, as
    `sheepfold match` and the tournament say: `sheepfold bot` once reported
    it as success, exit 0, the match still waiting for that seat. One that
    played its match to the end and exited 0 succeeded."""

    async def scenario() -> str | None:
        async with serving_here(ServerConfig(join_timeout=30.0)) as address:
            created = await create_match(address, "sheep-n-sheep", 2, seed=5)
            other = None
            if opponent_plays:
                other = asyncio.create_task(
                    play(RandomBot(1), address, created.match_id, created.seat_tokens[1])
                )
                program: object = _Seat(address, created.match_id, created.seat_tokens[0], True)
            else:
                program = _Quick(0.1)
            try:
                await asyncio.wait_for(
                    run_until_match_over(program, address, created.match_id, seat=0),  # type: ignore[arg-type]
                    60,
                )
            except BotFailure as failure:
                return failure.reason
            finally:
                if other is not None:
                    await other
            return None

    reason = asyncio.run(scenario())
    assert reason == (None if opponent_plays else "left before the match was over")
