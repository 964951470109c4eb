"""Play: a seat's stream, from its join to the end of its match."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import NoReturn

import grpc
from sheepfold.v1 import arena_pb2

from games.options import brief as brief_name
from server.arena_calls import (
    ARENA_SERVICE,
    ArenaCalls,
    cut_off_streams_of,
    database_errors,
    refuse_when_expired,
)
from server.cut_off_streams import CutOffStreams
from server.decoding import Undecodable
from server.fairness import serving
from server.logs import worth_logging
from server.match import Match
from server.peers import WaitEnded, first_message, peer_address
from server.seats import JoinError, SeatStream, token_owner, why_over
from server.status import CallEnded, abort, abort_no_match, quiet_if_gone
from server.streams import StreamClosed
from server.unexpected import PASSED_ON, end_with_internal

PLAY_METHOD = f"/{ARENA_SERVICE}/Play"
OVERFLOWED = "its client left too many bytes unread"


class PlayCall(ArenaCalls):
    async def Play(
        self,
        request_iterator: AsyncIterator[arena_pb2.PlayRequest],
        context: grpc.aio.ServicerContext,
    ) -> AsyncIterator[arena_pb2.PlayResponse | bytes]:
        """A seat's messages; bytes are a PlayResponse already encoded, which
        `PreEncodedResponses` sends as they are."""
        try:
            address = peer_address(context.peer())
            with quiet_if_gone():  # a refusal its client left before
                cut_off_streams = await cut_off_streams_of(context, address, PLAY_METHOD)
                match, seat, stream = await self._join(request_iterator, context, cut_off_streams)
            # Never cancelled: it ends with the call. grpc.aio keeps about 100 bytes
            # of every read cancelled while it waits (grpc/grpc#43360), one a seat
            # a match; what it reads once the seat has left is ignored (`Match.answer`).
            reader = asyncio.create_task(_read_answers(request_iterator, match, seat, stream))
            self.readers.add(reader)
            reader.add_done_callback(self.readers.discard)
            get = stream.get

            queued = cut_off_streams.queued if cut_off_streams is not None else None

            def cut_off() -> None:
                """The seat given back; its client, should it read again, reads
                what was written to it and then why nothing more comes."""
                if stream.overflowed and queued is not None:
                    reason = queued.reason(address)
                else:
                    reason = self.stalls.reason
                stream.close(grpc.StatusCode.RESOURCE_EXHAUSTED, reason)
                match.leave(seat, stream)

            about = {"match_id": match.record.match_id, "game": match.record.game, "seat": seat}
            writer = self.stalls.add(PLAY_METHOD, cut_off, address, cut_off_streams, about)
            # Its address holding too many bytes unread, it is cut off as a
            # stalled stream is (server/streams.py).
            stream.cut_off = lambda: self.stalls.cut_off(writer, OVERFLOWED)
            if stream.overflowed:  # already while it joined
                self.stalls.cut_off(writer, OVERFLOWED)
            clock = asyncio.get_running_loop().time
            try:
                # The seat's queue drained here, not through `relay`: one generator less
                # for every message of every decision.
                while not isinstance(message := await get(), StreamClosed):
                    writer.since = clock()
                    yield message
                    writer.since = None
                if message.code is not None:
                    # Logged here, not by the reader: the reader sees the stream
                    # end only once the call is over.
                    if worth_logging(stream.join_number):
                        match.log.info(
                            "seat stream ended by the server", seat=seat, joins=stream.join_number
                        )
                    with contextlib.suppress(CallEnded):  # its client had left meanwhile
                        await abort(context, message.code, message.message)
            finally:
                self.stalls.remove(writer)
                match.leave(seat, stream)
        except PASSED_ON:
            raise
        except Exception:
            # Not the unary calls' wrapper: that would be one more generator for
            # every message of every decision.
            await end_with_internal(self.log, context, PLAY_METHOD)

    async def _join(
        self,
        request_iterator: AsyncIterator[arena_pb2.PlayRequest],
        context: grpc.aio.ServicerContext,
        cut_off_streams: CutOffStreams | None = None,
    ) -> tuple[Match, int, SeatStream]:
        """The stream's first message, a join, taken: its match, seat and queue."""
        address = peer_address(context.peer())
        await self._refuse_when_closing(context)
        try:
            first = await first_message(
                request_iterator, self.pending_joins, address, self.join_timeout
            )
        except WaitEnded as ended:
            await self._refuse_when_closing(context)  # pushed out by end_pending_joins
            late = f"no join within {self.join_timeout:g} s of opening the stream"
            await ended.end(context, "pushed out before joining", late)
        if isinstance(first, Undecodable):
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, first.message)
        if first is None or not first.HasField("join"):
            await abort(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                "the first message on Play must be a join",
            )
        # The matches are suspended, to be restored by the next server: a join
        # now would be handed a decision that can no longer be answered.
        await self._refuse_when_closing(context)
        join = first.join
        named = join.seat if join.HasField("seat") else None
        match = self.registry.hosted(join.match_id)
        if match is None:
            await self._refuse_join_to_stored(join.match_id, named, join.token, context)
        await refuse_when_expired(context, "the seat was joined")
        queued = cut_off_streams.queued if cut_off_streams is not None else None
        stream = SeatStream(match.limits.seat_queue, queued=queued, address=address)
        refused_seat = named
        try:
            seat = refused_seat = match.authenticate(named, join.token)
            match.join(seat, stream, join.events_in_decisions)
        except JoinError as error:
            self._log_refusal(
                "join refused",
                match.record.match_id,
                match.record.game,
                error.code.name,
                error.message,
                seat=refused_seat,
            )
            await abort(context, error.code, error.message)
        return match, seat, stream

    async def _refuse_when_closing(self, context: grpc.aio.ServicerContext) -> None:
        if self.registry.closing is not None:
            await abort(context, grpc.StatusCode.UNAVAILABLE, self.registry.closing)

    def end_pending_joins(self) -> None:
        """At shutdown, once the matches are suspended: the Play streams still
        waiting for their join end at once (UNAVAILABLE with the shutdown's
        reason), instead of holding the server's exit until the grace runs out."""
        self.pending_joins.push_out_all("the server is shutting down")

    async def _refuse_join_to_stored(
        self, match_id: str, seat: int | None, token: str, context: grpc.aio.ServicerContext
    ) -> NoReturn:
        """A join to a match this server does not host: nothing to join, but the
        token is checked first, as for a hosted match. Its summary is enough: the
        match is never replayed for a join."""
        serving(context.peer())
        async with database_errors(context):
            summary = await self.registry.finished_summary(match_id)
        if summary is None:
            # Counted by the client's address: ids that name no match cost no
            # more lines, however many a client makes up.
            address = peer_address(context.peer())
            reason = f"no match {brief_name(match_id)}"
            self._log_refusal(
                "join refused", match_id, None, "NOT_FOUND", reason, f"no match:{address}", seat
            )
            await abort_no_match(context, match_id)
        try:
            seat = token_owner(summary.record.token_hashes, seat, token)
        except JoinError as error:
            code, reason = error.code, error.message
        else:
            code, reason = (
                grpc.StatusCode.FAILED_PRECONDITION,
                why_over(summary.status == "aborted", summary.end_reason),
            )
        self._log_refusal(
            "join refused", match_id, summary.record.game, code.name, reason, seat=seat
        )
        await abort(context, code, reason)


async def _read_answers(
    requests: AsyncIterator[arena_pb2.PlayRequest], match: Match, seat: int, stream: SeatStream
) -> None:
    try:
        async for request in requests:
            if isinstance(request, Undecodable):
                match.reject(seat, request.message, stream)
            elif request.HasField("answer"):
                match.answer(seat, request.answer.decision_id, request.answer.action_index, stream)
            elif request.HasField("join"):
                match.reject(seat, "this stream has already joined; send answers only", stream)
            else:
                match.reject(seat, "the message holds no answer", stream)
    except (asyncio.CancelledError, grpc.aio.AioRpcError, grpc.aio.BaseError):
        # The client left, or the server ended the stream (Play logs that): a read
        # after the call's status raises UsageError, after an abort AbortError.
        pass
    except Exception:
        # A bug must not leave the client waiting on a stream nobody reads.
        match.log.exception("reading a Play stream failed", seat=seat)
        stream.close(grpc.StatusCode.INTERNAL, "the server failed to read this stream")
