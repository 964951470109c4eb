"""A seat that joins with `events_in_decisions` gets every event it may see,
in order, inside its next decision (or before the result) instead of one
message each; a seat that does not is served as before.

Driven without gRPC, so the tests see the exact messages the match queues for
each seat; tests/server/test_e2e_matches.py plays the same through the server.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import arena_pb2

import games
from server import convert
from server.match import Match
from server.seats import MatchLimits, SeatStream
from server.streams import StreamClosed
from tests.integrity.helpers import match_without_grpc

GAME = "stubborn-sheep"  # the most events per decision, private ones among them
OPTIONS = {"wolf": "true", "bonus_actions": "true"}


@dataclass
class Received:
    """What one seat's stream was sent, in order."""

    kinds: list[str] = field(default_factory=list)
    decisions: list[arena_pb2.Decision] = field(default_factory=list)
    events: list[bytes] = field(default_factory=list)  # standalone and inside decisions

    def add(self, response: arena_pb2.PlayResponse) -> None:
        kind = str(response.WhichOneof("kind"))
        self.kinds.append(kind)
        if kind == "decision":
            self.decisions.append(response.decision)
            self.events += [e.SerializeToString() for e in response.decision.events]
        elif kind == "event":
            self.events.append(response.event.SerializeToString())


def _match(seed: int, limits: MatchLimits | None = None) -> Match:
    return match_without_grpc(GAME, seed, OPTIONS, limits)


def _play(
    seed: int,
    events_in_decisions: tuple[bool, bool],
    limits: MatchLimits | None = None,
    bad_answer_at: int | None = None,
    out_of_turn_at: int | None = None,
) -> list[Received]:
    """Play a match to its end, each seat answering its first legal action; with
    `bad_answer_at` seat 0 first answers that decision out of range; with
    `out_of_turn_at` seat 0 answers its last decision again when seat 1 gets
    that decision (out of turn, while seat 0's events wait)."""

    async def scenario() -> list[Received]:
        match = _match(seed, limits)
        streams = [SeatStream(), SeatStream()]
        for seat, stream in enumerate(streams):
            match.join(seat, stream, events_in_decisions[seat])
        match.start()
        received = [Received(), Received()]

        async def answer(seat: int) -> None:
            async for response in _responses(streams[seat]):
                received[seat].add(response)
                if response.WhichOneof("kind") != "decision":
                    continue
                decision_id = response.decision.decision_id
                if seat == 1 and len(received[1].decisions) == out_of_turn_at:
                    match.answer(0, received[0].decisions[-1].decision_id, 0, streams[0])
                if seat == 0 and len(received[0].decisions) == bad_answer_at:
                    match.answer(seat, decision_id, len(response.decision.actions))
                else:
                    match.answer(seat, decision_id, 0)

        await asyncio.wait_for(asyncio.gather(answer(0), answer(1)), 20)
        return received

    return asyncio.run(scenario())


def _expected_events(seed: int) -> list[list[bytes]]:
    """Every event each seat may see, in order, when both always play action 0."""
    game = games.get(GAME)
    state = game.new_state(2, seed, OPTIONS)
    seen: list[list[bytes]] = [[], []]
    move = 0
    while not state.terminal:
        move += 1
        for event in state.apply(state.legal_actions()[0]):
            for seat in range(2):
                payload = event.visible_to(seat)
                if payload is not None:
                    seen[seat].append(convert.event(game.codec, move, payload).SerializeToString())
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_events_come_inside_the_next_decision_in_order(seed: int) -> None:
    opted, classic = _play(seed, (True, False))
    expected = _expected_events(seed)
    assert opted.events == expected[0], "seat 0 must get every event it may see, in order"
    assert classic.events == expected[1]
    # Seat 0 got no event message of its own until its last decision; after it,
    # the last moves' events come as messages before the result.
    last_decision = max(i for i, kind in enumerate(opted.kinds) if kind == "decision")
    assert "event" not in opted.kinds[:last_decision]
    assert opted.kinds[-1] == "result" and "event" in opted.kinds[last_decision:]
    assert any(d.events for d in opted.decisions)
    # The other seat is served as before: events as messages, none inside decisions.
    assert not any(d.events for d in classic.decisions)
    assert classic.kinds.count("event") == len(expected[1])


def test_the_decisions_are_the_same_but_for_their_events() -> None:
    opted, _ = _play(4, (True, False))
    classic, _ = _play(4, (False, False))
    assert len(opted.decisions) == len(classic.decisions)
    for with_events, without in zip(opted.decisions, classic.decisions, strict=True):
        stripped = arena_pb2.Decision()
        stripped.CopyFrom(with_events)
        del stripped.events[:]
        assert stripped == without
    assert opted.events == classic.events


def test_a_decision_sent_again_after_a_bad_answer_carries_no_events() -> None:
    opted, _ = _play(5, (True, False), bad_answer_at=2)
    first, again = opted.decisions[1], opted.decisions[2]
    assert first.events, "seat 0's second decision follows moves, so it carries their events"
    assert again.decision_id == first.decision_id and not again.events
    assert opted.kinds[opted.kinds.index("error") + 1] == "decision"
    assert opted.events == _expected_events(5)[0], "no event lost and none repeated"


def test_an_error_goes_at_once_and_the_waiting_events_keep_waiting() -> None:
    opted, _ = _play(8, (True, False), out_of_turn_at=3)
    error = opted.kinds.index("error")
    assert opted.kinds[error - 1 : error + 2] == ["decision", "error", "decision"]
    after = opted.decisions[sum(1 for kind in opted.kinds[:error] if kind == "decision")]
    assert after.events, "the events of the moves before the error come in the next decision"
    assert opted.events == _expected_events(8)[0], "no event lost and none repeated"


def test_past_the_limit_held_events_go_as_messages_in_order() -> None:
    opted, _ = _play(6, (True, False), MatchLimits(held_events=2))
    last_decision = max(i for i, kind in enumerate(opted.kinds) if kind == "decision")
    assert "event" in opted.kinds[:last_decision]
    assert all(len(d.events) <= 2 for d in opted.decisions)
    assert opted.events == _expected_events(6)[0]


def test_a_rejoin_without_the_option_gets_events_as_messages() -> None:
    async def scenario() -> tuple[Received, Received]:
        match = _match(7)
        first, other, second = SeatStream(), SeatStream(), SeatStream()
        match.join(0, first, True)
        match.join(1, other, True)
        match.start()
        before, after = Received(), Received()

        async def seat_0() -> None:
            async for response in _responses(first):
                before.add(response)
                if response.WhichOneof("kind") != "decision":
                    continue
                if len(before.decisions) == 3:
                    # The same seat joins again without the option; this decision
                    # comes again on the new stream, which answers from then on.
                    match.join(0, second, False)
                else:
                    match.answer(0, response.decision.decision_id, 0, first)
            async for response in _responses(second):
                after.add(response)
                if response.WhichOneof("kind") == "decision":
                    match.answer(0, response.decision.decision_id, 0, second)

        async def seat_1() -> None:
            async for response in _responses(other):
                if response.WhichOneof("kind") == "decision":
                    match.answer(1, response.decision.decision_id, 0, other)

        await asyncio.wait_for(asyncio.gather(seat_0(), seat_1()), 20)
        return before, after

    before, after = asyncio.run(scenario())
    assert any(d.events for d in before.decisions)
    assert after.kinds[:2] == ["joined", "decision"]
    assert not any(d.events for d in after.decisions)
    assert after.kinds.count("event") > 0
    # What the replaced stream got stays with it; the new stream gets the rest.
    assert before.events + after.events == _expected_events(7)[0]


def _rejoin_after_an_absence(
    seed: int, limits: MatchLimits | None = None, rejoin_with_option: bool = True
) -> tuple[Received, Received, int]:
    """Seat 0 (events in decisions) answers its decisions until, three or more
    answered, seat 1 has a decision: then seat 0's stream is gone (the events
    of its last move wait for it meanwhile). Seat 1 plays on while seat 0 is
    away, and seat 0 joins again once its next decision is open. What its first
    and its second stream were sent, and the moves seat 1 made while it was away."""

    async def scenario() -> tuple[Received, Received, int]:
        match = _match(seed, limits)
        first, other, second = SeatStream(), SeatStream(), SeatStream()
        match.join(0, first, True)
        match.join(1, other, True)
        match.start()
        before, after = Received(), Received()
        left = asyncio.Event()
        away: list[int] = []

        async def seat_0() -> None:
            async for response in _responses(first):
                before.add(response)
                if response.WhichOneof("kind") == "decision":
                    match.answer(0, response.decision.decision_id, 0, first)
            # Back once its next decision is open (sent to nobody meanwhile).
            while (pending := match._pending) is None or pending.seat != 0:
                await asyncio.sleep(0.001)
            away.append(sum(1 for move in match.moves[away[0] :] if move.seat == 1))
            match.join(0, second, rejoin_with_option)
            async for response in _responses(second):
                after.add(response)
                if response.WhichOneof("kind") == "decision":
                    match.answer(0, response.decision.decision_id, 0, second)

        async def seat_1() -> None:
            async for response in _responses(other):
                if response.WhichOneof("kind") != "decision":
                    continue
                if len(before.decisions) >= 3 and not left.is_set():
                    # As the Play call does when its client goes.
                    match.leave(0, first)
                    first.close(None, "the client went")
                    away.append(len(match.moves))
                    left.set()
                match.answer(1, response.decision.decision_id, 0, other)

        await asyncio.wait_for(asyncio.gather(seat_0(), seat_1()), 20)
        return before, after, away[1]

    return asyncio.run(scenario())


@pytest.mark.parametrize("seed", [7, 9, 11])
def test_a_rejoin_gets_the_events_it_missed_in_its_first_decision(seed: int) -> None:
    """The events held for a seat when its stream went, and those of the moves
    made while it was away, come inside the first decision of its next stream,
    oldest first, each once; every event is the seat's own view of it. They
    were once dropped at the rejoin, and those of its absence never held."""
    before, after, moves_away = _rejoin_after_an_absence(seed)
    assert moves_away > 0, "seat 1 must move while seat 0 is away"
    assert after.kinds[:2] == ["joined", "decision"]
    assert after.decisions[0].events, "the first decision after the rejoin carries them"
    assert before.events + after.events == _expected_events(seed)[0], (
        "every event seat 0 may see, in order, none lost and none twice"
    )


def test_a_rejoin_without_the_option_gets_the_missed_events_as_messages_first() -> None:
    before, after, moves_away = _rejoin_after_an_absence(7, rejoin_with_option=False)
    assert moves_away > 0
    first_decision = after.kinds.index("decision")
    assert after.kinds[0] == "joined" and first_decision > 1
    assert set(after.kinds[1:first_decision]) == {"event"}
    assert not any(d.events for d in after.decisions)
    assert before.events + after.events == _expected_events(7)[0]


def test_past_the_limit_a_seat_away_keeps_the_latest_events() -> None:
    """A seat away holds no more events than the limit: past it the oldest go,
    and the rejoin gets the latest, in order."""
    before, after, moves_away = _rejoin_after_an_absence(7, MatchLimits(held_events=2))
    assert moves_away > 0
    assert len(after.decisions[0].events) == 2
    expected = _expected_events(7)[0]
    assert before.events == expected[: len(before.events)]
    assert after.events == expected[len(expected) - len(after.events) :]
    assert len(before.events) + len(after.events) < len(expected), "more than 2 were missed"


async def _responses(stream: SeatStream) -> AsyncIterator[arena_pb2.PlayResponse]:
    while not isinstance(item := await stream.get(), StreamClosed):
        yield arena_pb2.PlayResponse.FromString(item) if isinstance(item, bytes) else item


def test_a_seat_too_far_behind_at_the_end_is_dropped_and_the_match_still_finishes() -> None:
    """The held events and the result, sent at the end, can overflow a seat's
    queue: that seat's stream ends RESOURCE_EXHAUSTED, and the match still ends
    cleanly for every other seat and in the store."""

    async def scenario() -> tuple[list[Received], list[StreamClosed | None], Match]:
        match = _match(3)
        streams = [SeatStream(3), SeatStream(3)]
        for seat, stream in enumerate(streams):
            match.join(seat, stream, True)
        task = match.start()
        received = [Received(), Received()]
        closed: list[StreamClosed | None] = [None, None]

        async def answer(seat: int) -> None:
            while not isinstance(item := await streams[seat].get(), StreamClosed):
                response = (
                    arena_pb2.PlayResponse.FromString(item) if isinstance(item, bytes) else item
                )
                received[seat].add(response)
                if response.WhichOneof("kind") == "decision":
                    match.answer(seat, response.decision.decision_id, 0, streams[seat])
            closed[seat] = item

        await asyncio.wait_for(asyncio.gather(answer(0), answer(1), task), 20)
        return received, closed, match

    received, closed, match = asyncio.run(scenario())
    codes = [end.code if end else "open" for end in closed]
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes, "the scenario must overflow a queue"
    for kinds, end in zip((r.kinds for r in received), closed, strict=True):
        assert end is not None
        assert (end.code is None) == (kinds[-1] == "result")
    assert match.over and match.result is not None


@pytest.mark.parametrize(
    "game", ["sheep-showdown", "sheep-n-sheep", "stubborn-sheep", "sheep-and-garden"]
)
def test_no_event_is_sent_for_the_set_up(game: str) -> None:
    """EventMessage.move counts from 1: what the set-up did (the first deal,
    meadow or layout) never reaches a seat as events; its first observation
    shows it instead (docs/writing-a-bot.md, "Events")."""
    options = {"rounds": "1"} if game == "sheep-showdown" else {}

    async def scenario() -> list[arena_pb2.EventMessage]:
        match = match_without_grpc(game, 5, options)
        stream = SeatStream()
        other = SeatStream()
        match.join(0, stream, False)
        match.join(1, other, False)
        match.start()
        seen: list[arena_pb2.EventMessage] = []

        async def answer(seat: int, s: SeatStream) -> None:
            async for response in _responses(s):
                kind = response.WhichOneof("kind")
                if kind == "decision":
                    match.answer(seat, response.decision.decision_id, 0)
                elif kind == "event" and seat == 0:
                    seen.append(response.event)

        await asyncio.wait_for(asyncio.gather(answer(0, stream), answer(1, other)), 30)
        return seen

    events = asyncio.run(scenario())
    assert events and events[0].move == 1
    assert all(event.move >= 1 for event in events)


def test_held_events_that_would_make_a_decision_too_large_go_before_it() -> None:
    """A decision that fits the largest message alone, but not with the events
    held for it, is sent alone, its events as messages of their own before it:
    sent together they were past what the server sends, and gRPC ended the
    seat's stream RESOURCE_EXHAUSTED."""
    plain, _ = _play(6, (False, False))
    largest = max(arena_pb2.PlayResponse(decision=d).ByteSize() for d in plain.decisions)
    bound = largest + 80  # the largest decision fits, with room for one event at most
    opted, _ = _play(6, (True, False), MatchLimits(decision_bytes=bound))
    sizes = [arena_pb2.PlayResponse(decision=d).ByteSize() for d in opted.decisions]
    assert max(sizes) <= bound
    last_decision = max(i for i, kind in enumerate(opted.kinds) if kind == "decision")
    assert "event" in opted.kinds[:last_decision]
    assert any(d.events for d in opted.decisions), "those that fit still go inside"
    assert opted.events == _expected_events(6)[0], "no event lost and none repeated"
    assert len(opted.decisions) == len(plain.decisions), "no move forced"


def _five_seats_first_actions(seed: int, limits: MatchLimits | None) -> list[Received]:
    """A five-player Stubborn Sheep match (wolf and bonus actions) played to its
    end with every seat asking for its events in its decisions and answering
    its first legal action."""

    async def scenario() -> list[Received]:
        match = match_without_grpc(GAME, seed, OPTIONS, limits, players=5)
        streams = [SeatStream() for _ in range(5)]
        for seat, stream in enumerate(streams):
            match.join(seat, stream, True)
        task = match.start()
        received = [Received() for _ in range(5)]

        async def answer(seat: int) -> None:
            async for response in _responses(streams[seat]):
                received[seat].add(response)
                if response.WhichOneof("kind") == "decision":
                    match.answer(seat, response.decision.decision_id, 0, streams[seat])

        await asyncio.wait_for(asyncio.gather(*(answer(s) for s in range(5)), task), 30)
        return received

    return asyncio.run(scenario())


def test_five_seats_get_their_events_inside_their_decisions() -> None:
    """Between two decisions of one seat, four others' turns of Stubborn Sheep
    show it up to about 120 events (restocks, jumps, the wolf): past the number
    a seat holds they went out as messages of their own, one each, so a seat of
    a five-player game took a tenth of its decisions' events one message at a
    time. Every event still comes inside a decision, none as a message before the
    last decision."""
    received = _five_seats_first_actions(11, None)
    for seat in received:
        last_decision = max(i for i, kind in enumerate(seat.kinds) if kind == "decision")
        assert "event" not in seat.kinds[:last_decision]
    assert max(len(d.events) for seat in received for d in seat.decisions) > 64


def test_the_contract_states_the_servers_bound_on_held_events() -> None:
    """arena.proto's Join and Decision comments and the bot guide give one bound
    on the events held for a seat, the server's: the Join comment once said 64
    after the server had moved to 128."""
    root = Path(__file__).resolve().parents[2]
    proto = (root / "proto" / "sheepfold" / "v1" / "arena.proto").read_text()
    guide = (root / "docs" / "writing-a-bot.md").read_text()
    stated = [
        *re.findall(r"held past (\d+)", proto),
        *re.findall(r"the latest (\d+) at most", proto),
        *re.findall(r"once more than (\d+) are\s+waiting", guide),
        *re.findall(r"has no stream \(the latest (\d+):", guide),
    ]
    assert len(stated) == 4
    assert {int(n) for n in stated} == {MatchLimits().held_events}
