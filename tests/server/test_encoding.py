"""Decisions and events go to the seats as bytes joined from memoised pieces
(`server.encoding`): every one must decode to exactly the message the codec
builds the plain way, for every game, seat and move of random games, and the
varint and framing helpers must be protobuf's own encoding."""

from __future__ import annotations

import random

import pytest
from sheepfold.v1 import arena_pb2

import games
from games import encoding as codec_encoding
from server import convert, encoding


def _plain_decision(game_name: str, state: games.contract.State, seat: int) -> bytes:
    codec = games.get(game_name).codec
    response = arena_pb2.PlayResponse()
    decision = response.decision
    decision.decision_id, decision.seat, decision.prompt = 7, seat, state.prompt()
    convert.fill_observation(codec, decision.observation, state.observation(seat))
    decision.actions.extend(convert.legal_actions(codec, state.legal_actions()))
    decision.clock.decision_seconds, decision.clock.time_bank_seconds = 2.5, 11.25
    decision.clock.strikes, decision.clock.max_strikes = 1, 3
    return response.SerializeToString(deterministic=True)


def _head(state: games.contract.State, seat: int) -> bytes:
    return encoding.decision_head(7, seat, state.prompt(), 2.5, 11.25, 1, 3)


def _canonical(data: bytes) -> bytes:
    return arena_pb2.PlayResponse.FromString(data).SerializeToString(deterministic=True)


@pytest.mark.parametrize(
    ("game_name", "players"),
    [(name, players) for name in games.names() for players in (2, 3)],
)
def test_pre_encoded_decisions_and_events_equal_the_plain_messages(
    game_name: str, players: int
) -> None:
    game = games.get(game_name)
    codec = game.codec
    decisions = events = 0
    for seed in range(3):
        state = game.new_state(players, seed, {})
        rng = random.Random(seed)
        move = 0
        while not state.terminal:
            seat = state.to_move
            assert seat is not None
            encoded = encoding.decision_with_events(
                encoding.decision_body(
                    codec, _head(state, seat), state.observation(seat), state.legal_actions()
                ),
                (),
            )
            assert _canonical(encoded) == _plain_decision(game_name, state, seat)
            decisions += 1
            actions = state.legal_actions()
            move += 1
            for event in state.apply(actions[rng.randrange(len(actions))]):
                for viewer in range(players):
                    payload = event.visible_to(viewer)
                    if payload is None:
                        continue
                    plain = arena_pb2.PlayResponse(event=convert.event(codec, move, payload))
                    encoded_event = encoding.event_response(
                        encoding.event_message(codec, move, payload)
                    )
                    assert _canonical(encoded_event) == (
                        plain.SerializeToString(deterministic=True)
                    )
                    events += 1
    assert decisions > 50 and events > 50


@pytest.mark.parametrize("game_name", games.names())
def test_a_decision_carrying_events_equals_the_plain_message(game_name: str) -> None:
    """Events held for a seat go into its next decision's `events`, oldest first."""
    game = games.get(game_name)
    codec = game.codec
    state = game.new_state(2, 5, {})
    held: list[bytes] = []
    plain_events: list[arena_pb2.EventMessage] = []
    for move in range(1, 4):
        for event in state.apply(state.legal_actions()[0]):
            payload = event.visible_to(0)
            if payload is not None:
                held.append(encoding.event_message(codec, move, payload))
                plain_events.append(convert.event(codec, move, payload))
    assert len(held) >= 2 and state.to_move is not None
    seat = state.to_move
    encoded = encoding.decision_with_events(
        encoding.decision_body(
            codec, _head(state, seat), state.observation(seat), state.legal_actions()
        ),
        held,
    )
    plain = arena_pb2.PlayResponse.FromString(_plain_decision(game_name, state, seat))
    plain.decision.events.extend(plain_events)
    assert _canonical(encoded) == plain.SerializeToString(deterministic=True)


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 16_383, 16_384, 2**32 + 5, 2**64 - 1])
def test_varints_and_framing_are_protobufs_own(value: int) -> None:
    reference = arena_pb2.Decision(decision_id=value).SerializeToString()
    if value:
        assert reference == b"\x08" + codec_encoding.varint(value)
    text = "x" * (value % 1000 + 1)  # an empty string would not be sent at all
    framed = codec_encoding.length_delimited(3, text.encode())
    assert framed == arena_pb2.Decision(prompt=text).SerializeToString()


def test_a_play_response_message_and_bytes_are_both_sent_as_they_are() -> None:
    message = arena_pb2.PlayResponse(joined=arena_pb2.Joined(match_id="m", seat=1))
    assert encoding.serialize_response(message) == message.SerializeToString()
    assert encoding.serialize_response(b"\x01\x02") == b"\x01\x02"


@pytest.mark.parametrize(
    ("decision_id", "seat", "prompt", "seconds", "bank", "strikes", "max_strikes"),
    [
        (1, 0, "", 10.0, 0.0, 0, 3),  # seat 0, no prompt, no bank: left out
        (7, 3, "choose a card", 2.5, 11.25, 1, 3),
        (2**40, 5, "placer la tuile 12 ✓", 0.0, 0.0, 0, 0),  # an empty clock is still sent
        (16_384, 1, "x" * 300, 0.001, 1e9, 2, 5),
    ],
)
def test_a_decision_head_is_protobufs_own_encoding(
    decision_id: int,
    seat: int,
    prompt: str,
    seconds: float,
    bank: float,
    strikes: int,
    max_strikes: int,
) -> None:
    head = encoding.decision_head(decision_id, seat, prompt, seconds, bank, strikes, max_strikes)
    plain = arena_pb2.Decision(
        decision_id=decision_id,
        seat=seat,
        prompt=prompt,
        clock=arena_pb2.Clock(
            decision_seconds=seconds,
            time_bank_seconds=bank,
            strikes=strikes,
            max_strikes=max_strikes,
        ),
    )
    assert head == plain.SerializeToString(deterministic=True)


@pytest.mark.parametrize("game_name", games.names())
def test_a_legal_action_entry_is_protobufs_own_encoding(game_name: str) -> None:
    """Each memoised entry, as built on a miss and as found on a hit, is the
    encoding of `Decision(actions=[LegalAction(label, action)])`."""
    game = games.get(game_name)
    codec = game.codec
    checked = 0
    for seed in range(3):
        state = game.new_state(2, seed, {})
        rng = random.Random(seed)
        while not state.terminal:
            actions = state.legal_actions()
            for _ in range(2):  # a miss, then a hit
                entries = encoding.legal_actions_bytes(codec, actions)
                plain = [
                    arena_pb2.Decision(actions=[convert.legal_action(codec, action)])
                    for action in actions
                ]
                assert entries == [message.SerializeToString() for message in plain]
            checked += len(actions)
            state.apply(actions[rng.randrange(len(actions))])
    assert checked > 100
