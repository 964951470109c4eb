"""Sheep Showdown's observation says who decides (`to_move`), whose turn it is
(`turn_player`) and which dog a decision is about (`decision_dog`); the
.proto says when each is set, and the wire holds to it in random games."""

from __future__ import annotations

import random
import re
from pathlib import Path

from sheepfold.v1 import sheep_showdown_pb2

import games
from server import convert

PROTO = Path(__file__).resolve().parents[2] / "proto" / "sheepfold" / "v1" / "sheep_showdown.proto"
Decision = sheep_showdown_pb2.SheepShowdownDecision


def _decisions(*names: str) -> set[int]:
    return {Decision.Value(f"SHEEP_SHOWDOWN_DECISION_{name}") for name in names}


WOLF_CHAIN = _decisions("WOLF_DOG", "WOLF_STEP", "USE_CARD")
OWN_MOVE = _decisions("PLACE_DOG", "CHOOSE_DOG", "STEP")
NO_DOG = _decisions("CHOOSE_DOG", "WOLF_DOG", "STEAL", "NONE")
PLACE_DOG = Decision.Value("SHEEP_SHOWDOWN_DECISION_PLACE_DOG")


def _wire(state: object, seat: int) -> sheep_showdown_pb2.SheepShowdownObservation:
    game = games.get("sheep-showdown")
    value = state.observation(seat)  # type: ignore[attr-defined]
    return convert.observation(game.codec, value).sheep_showdown


def test_to_move_turn_player_and_decision_dog_are_set_as_the_proto_says() -> None:
    game = games.get("sheep-showdown")
    wolf_holder_decided = 0
    for players, double_trouble in ((2, True), (2, False), (3, False), (5, False)):
        for seed in range(6):
            state = game.new_state(players, seed, {"double_trouble": double_trouble})
            rng = random.Random(seed)
            in_chain = False
            while state.to_move is not None:
                seen = _wire(state, state.to_move)
                assert seen.HasField("to_move") and seen.to_move == state.to_move
                assert seen.HasField("turn_player") == (seen.decision != PLACE_DOG)
                assert seen.HasField("decision_dog") == (seen.decision not in NO_DOG)
                assert seen.turn <= seen.turn_cap
                assert seen.size == (7 if players <= 4 else 9)
                if seen.decision in WOLF_CHAIN:
                    in_chain = True
                elif seen.decision in OWN_MOVE:
                    in_chain = False
                if seen.HasField("turn_player") and seen.to_move != seen.turn_player:
                    assert in_chain, "only a wolf's holder decides out of turn"
                    wolf_holder_decided += 1
                if not seen.HasField("last_player"):
                    assert seen.last_steps_left == 0
                state.apply(rng.choice(state.legal_actions()))
            over = _wire(state, 0)
            assert not over.HasField("to_move") and not over.HasField("turn_player")
            assert not over.HasField("decision_dog")
    assert wolf_holder_decided > 0, "no wolf chain came up: pick other seeds"


def test_the_proto_says_what_each_turn_field_means() -> None:
    text = PROTO.read_text(encoding="utf-8")
    body = text.split("message SheepShowdownObservation {", 1)[1].split("\n}", 1)[0]
    lines = body.splitlines()
    for name in ("first_player", "to_move", "turn_player", "decision_dog", "turn_cap"):
        (at,) = [i for i, line in enumerate(lines) if re.search(rf"\b{name} = \d+;", line)]
        assert "//" in lines[at] or lines[at - 1].strip().startswith("//"), name
