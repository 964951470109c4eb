"""A hand-driven Play stream over blocking gRPC, for tests that must send
exactly the messages they want (bad answers, floods, joins out of order)."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import grpc
from sheepfold.v1 import arena_pb2, arena_pb2_grpc


class RawSeat:
    """A hand-driven Play stream (sync gRPC), to send exactly what a test wants."""

    def __init__(self, stub: arena_pb2_grpc.ArenaStub, timeout: float = 120) -> None:
        self._requests: queue.Queue[arena_pb2.PlayRequest | None] = queue.Queue()
        # Bounded: a stream that never ends fails the test instead of hanging it.
        self.responses = stub.Play(self._iterate(), timeout=timeout)

    def _iterate(self) -> Iterator[arena_pb2.PlayRequest]:
        while (item := self._requests.get()) is not None:
            yield item

    def send(self, request: arena_pb2.PlayRequest) -> None:
        self._requests.put(request)

    def join(self, match_id: str, token: str, seat: int | None = None) -> None:
        join = arena_pb2.Join(match_id=match_id, token=token)
        if seat is not None:
            join.seat = seat
        self.send(arena_pb2.PlayRequest(join=join))

    def answer(self, decision_id: int, index: int) -> None:
        self.send(
            arena_pb2.PlayRequest(
                answer=arena_pb2.Answer(decision_id=decision_id, action_index=index)
            )
        )

    def next(self, kind: str, skip: tuple[str, ...] = ("event",)) -> arena_pb2.PlayResponse:
        for response in self.responses:
            if response.WhichOneof("kind") == kind:
                return response
            assert response.WhichOneof("kind") in skip, response
        raise AssertionError(f"stream ended before a {kind}")

    def play_to_end(
        self,
        first: arena_pb2.Decision | None = None,
        *,
        answered: int | None = None,
        no_errors: bool = False,
    ) -> arena_pb2.MatchResult:
        """Answer 0 to every decision until the result arrives; not decision
        `answered` (answered already: copies of it may still come), and with
        `no_errors` an error message fails."""
        if first is not None:
            self.answer(first.decision_id, 0)
        for response in self.responses:
            kind = response.WhichOneof("kind")
            assert not (no_errors and kind == "error"), response
            if kind == "decision" and response.decision.decision_id != answered:
                self.answer(response.decision.decision_id, 0)
            elif kind == "result":
                return response.result
        raise AssertionError("the stream ended without a result")

    def status(self) -> grpc.StatusCode:
        """Read to the end of the stream and return its final status."""
        try:
            for _ in self.responses:
                pass
        except grpc.RpcError as error:
            return error.code()
        return grpc.StatusCode.OK

    def close(self) -> None:
        self._requests.put(None)
