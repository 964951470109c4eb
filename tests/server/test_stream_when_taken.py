"""What starts a decision's clock as its stream's writer takes it
(`Outbound.when_taken`, server/answer_clock.py `clock_from_sending`) runs for
that message only. A stream replaced by a newer join (or cut off) before its
writer took the decision drops the decision and queues its end in the same
place: were it run as the writer took the end, the clock of a decision already
sent again on the new stream, its time left counted from its queueing, would
start again with the whole time, more than the new stream's copy shows."""

from __future__ import annotations

import asyncio

import grpc

from server.streams import Outbound, StreamClosed


async def _writer_waiting(stream: Outbound[bytes]) -> asyncio.Task[bytes | StreamClosed]:
    """A writer parked on an empty stream, as a Play stream's is between messages."""
    writer = asyncio.create_task(stream.get())
    await asyncio.sleep(0)
    assert stream.idle()
    return writer


def test_it_runs_as_the_writer_takes_the_message_and_not_for_the_next() -> None:
    async def scenario() -> list[bytes | StreamClosed]:
        stream: Outbound[bytes] = Outbound()
        taken: list[bytes | StreamClosed] = []
        writer = await _writer_waiting(stream)
        stream.when_taken(stream.position(), lambda: taken.append(b"run"))
        stream.send(b"decision")
        stream.send(b"event")
        assert not stream.idle()
        taken.append(await writer)
        taken.append(await stream.get())
        return taken

    assert asyncio.run(scenario()) == [b"run", b"decision", b"event"]


def test_a_stream_replaced_before_its_writer_took_the_decision_does_not_run_it() -> None:
    async def scenario() -> tuple[list[str], bytes | StreamClosed]:
        stream: Outbound[bytes] = Outbound()
        runs: list[str] = []
        writer = await _writer_waiting(stream)
        stream.when_taken(stream.position(), lambda: runs.append("clock started"))
        stream.send(b"decision")
        stream.close(grpc.StatusCode.ABORTED, "replaced by a newer join for seat 0")
        return runs, await writer

    runs, taken = asyncio.run(scenario())
    assert isinstance(taken, StreamClosed) and taken.code == grpc.StatusCode.ABORTED
    assert runs == []
