"""What the match page must draw, read straight from the engine's observation
(as wire messages), and the same facts read back from the page's SVG."""

from __future__ import annotations

from typing import Any

from sheepfold.v1 import (
    sheep_and_garden_pb2,
    sheep_n_sheep_pb2,
    sheep_showdown_pb2,
    stubborn_sheep_pb2,
)

import games
from server import convert


def observation(game: str, state: Any, seat: int | None) -> Any:
    engine = games.get(game)
    wrapper = convert.observation(engine.codec, state.observation(seat))
    return getattr(wrapper, wrapper.WhichOneof("game"))


def _short(enum: Any, value: int, prefix: str) -> str:
    return enum.Name(value).removeprefix(prefix)


def board_facts(game: str, obs: Any) -> dict[str, Any]:
    """The public board as sets and lists of plain values."""
    if game == "sheep-showdown":
        card = sheep_showdown_pb2.SheepShowdownCard
        return {
            "cells": sorted(
                (i // obs.size, i % obs.size, _short(card, c, "SHEEP_SHOWDOWN_CARD_"))
                for i, c in enumerate(obs.grid)
            ),
            "dogs": sorted(
                (d.dog, d.owner, d.cell.row, d.cell.col, d.out)
                for d in obs.dogs
                if d.HasField("cell")
            ),
            "scores": [str(t) for t in obs.totals],
        }
    if game == "sheep-n-sheep":
        return {
            "market": sorted((s.index, c.id) for s in obs.market for c in s.cards),
            "pastures": sorted(
                (p.seat, c.cell.x, c.cell.y, c.card.id) for p in obs.pastures for c in p.cards
            ),
            "scores": [str(n) for n in obs.hand_sizes],
        }
    if game == "stubborn-sheep":
        return {
            "areas": sorted(
                (a.index, a.owner, ",".join(str(s.id) for s in a.sheep)) for a in obs.areas
            ),
            "fences": sorted(
                (
                    f.index,
                    f.card.id,
                    stubborn_sheep_pb2.StubbornSheepOrientation.Name(f.orientation).removeprefix(
                        "STUBBORN_SHEEP_ORIENTATION_"
                    ),
                )
                for f in obs.fences
            ),
            "wolf": [obs.wolf_area] if obs.wolf_area >= 0 else [],
            "scores": [str(p.points) for p in obs.seats],
        }
    if game == "sheep-and-garden":
        assert isinstance(obs, sheep_and_garden_pb2.SheepAndGardenObservation)
        return {
            "tiles": sorted((p.tile, p.x, p.y, p.rotation) for p in obs.placed),
            "display": sorted(obs.display),
            "objectives": sorted((o.slot, o.card) for o in obs.objectives),
        }
    raise AssertionError(game)


def private_facts(game: str, obs: Any) -> list[str]:
    """The hidden things one seat holds, as the page marks them (data-card or
    data-card-id of its .hand-card elements)."""
    if game == "sheep-showdown":
        card = sheep_showdown_pb2.SheepShowdownCard
        return sorted(_short(card, c, "SHEEP_SHOWDOWN_CARD_") for c in obs.own_flock)
    if game == "sheep-n-sheep":
        assert isinstance(obs, sheep_n_sheep_pb2.SheepNSheepObservation)
        return sorted(str(c.id) for c in obs.hand)
    if game == "stubborn-sheep":
        return sorted(str(c.id) for c in obs.hand)
    if game == "sheep-and-garden":
        return sorted(o.card for o in obs.objectives if not o.face_up and o.card)
    raise AssertionError(game)


# Reads the same facts from the page: one function per game, run in the browser.
PAGE_FACTS = {
    "sheep-showdown": """() => {
      const q = (s) => [...document.querySelectorAll(s)];
      return {
        cells: q('#board .cell').map(e => [+e.dataset.row, +e.dataset.col, e.dataset.card]),
        dogs: q('#board .dog').map(e => [+e.dataset.dog, +e.dataset.owner, +e.dataset.row,
                                          +e.dataset.col, e.dataset.out === 'true']),
        scores: q('#scores tbody tr').map(r => r.children[1].textContent),
      };
    }""",
    "sheep-n-sheep": """() => {
      const q = (s) => [...document.querySelectorAll(s)];
      return {
        market: q('#board .market-set .snscard').map(e => [+e.dataset.set, +e.dataset.cardId]),
        pastures: q('#board .snscard.placed').map(e => [+e.dataset.seat, +e.dataset.x,
                                                       +e.dataset.y, +e.dataset.cardId]),
        scores: q('#scores tbody tr').map(r => r.children[1].textContent),
      };
    }""",
    "stubborn-sheep": """() => {
      const q = (s) => [...document.querySelectorAll(s)];
      return {
        areas: q('#board .area').map(e => [+e.dataset.area, +e.dataset.owner, e.dataset.sheep]),
        fences: q('#board .fence').map(e => [+e.dataset.fence, +e.dataset.cardId,
                                             e.dataset.orientation]),
        wolf: q('#board .wolf').map(e => +e.dataset.wolfArea),
        scores: q('#scores tbody tr').map(r => r.children[1].textContent),
      };
    }""",
    "sheep-and-garden": """() => {
      const q = (s) => [...document.querySelectorAll(s)];
      return {
        tiles: q('#board .tile[data-x]').map(e => [+e.dataset.tile, +e.dataset.x, +e.dataset.y,
                                                   +e.dataset.rotation]),
        display: q('#board [data-display-tile]').map(e => +e.dataset.displayTile),
        objectives: q('#board .objective').map(e => [+e.dataset.objectiveSlot, e.dataset.card]),
      };
    }""",
}

PAGE_PRIVATE = """(seat) => [...document.querySelectorAll(
  `#private .hand-card[data-seat="${seat}"]`)]
  .map(e => e.dataset.cardId !== undefined ? e.dataset.cardId : e.dataset.card)"""


def normalise(facts: dict[str, Any]) -> dict[str, Any]:
    """Lists of rows as sorted tuples, so page and engine compare equal."""
    out = {}
    for key, value in facts.items():
        if key == "scores":
            out[key] = list(value)
        else:
            out[key] = sorted(tuple(v) if isinstance(v, list) else v for v in value)
    return out
