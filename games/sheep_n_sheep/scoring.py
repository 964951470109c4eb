"""End-of-game scoring (rules notes, "Scoring", steps 1-5) and the winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.ranking import competition_ranks
from games.sheep_n_sheep.cards import (
    BELL,
    COLOUR,
    COLOURS,
    CONDITION,
    HEART,
    ICON,
    ONE_VP,
    STAR,
    VP,
)

Cell = tuple[int, int]
Pasture = Mapping[Cell, int]

BELL_AWARDS = (8, 4, 2)
HEART_AWARDS = (4, 2)
STAR_AWARDS = (4, 2)


def awards(values: Sequence[int], table: Sequence[int]) -> tuple[int, ...]:
    """The award of each player for one majority (bells, hearts or stars).

    Only values of 1 or more are ranked, from the highest value down. A lone
    player at rank r gets the award of rank r and the next value is at rank r+1.
    k >= 2 players tied at rank r each get the award of rank r+1, the next rank
    down, and take up the k ranks from r: the next value is at rank r+k (two
    tied for 2nd push the next player to 4th, as the rulebook's example says;
    three tied for 1st push them to 4th too). Ranks past the table get 0.
    """
    result = [0] * len(values)
    rank = 1
    for value in sorted({v for v in values if v >= 1}, reverse=True):
        tied = [seat for seat, v in enumerate(values) if v == value]
        award_rank = rank + 1 if len(tied) >= 2 else rank
        award = table[award_rank - 1] if award_rank <= len(table) else 0
        for seat in tied:
            result[seat] = award
        rank += len(tied)
    return tuple(result)


def _components(cells: set[Cell]) -> list[list[Cell]]:
    """Orthogonally connected components of `cells`, each sorted, in sorted order."""
    seen: set[Cell] = set()
    groups = []
    for cell in sorted(cells):
        if cell in seen:
            continue
        seen.add(cell)
        group, todo = [], [cell]
        while todo:
            x, y = todo.pop()
            group.append((x, y))
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in cells and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        groups.append(sorted(group))
    return groups


def bell_value(pasture: Pasture) -> int:
    """Size of the largest orthogonally connected group of bell cards."""
    bells = {cell for cell, card in pasture.items() if ICON[card] == BELL}
    return max((len(group) for group in _components(bells)), default=0)


def sheep_groups(pasture: Pasture) -> list[dict[str, Any]]:
    """Every same-colour group with its size and the VP it scores."""
    result = []
    for colour in range(len(COLOURS)):
        cells = {cell for cell, card in pasture.items() if COLOUR[card] == colour}
        for group in _components(cells):
            size = len(group)
            # Scores once if any card in it asks for exactly this size.
            vp = next((VP[pasture[c]] for c in group if CONDITION[pasture[c]] == size), 0)
            result.append(
                {
                    "colour": COLOURS[colour],
                    "size": size,
                    "vp": vp,
                    "cells": [list(cell) for cell in group],
                }
            )
    return result


def extent(pasture: Pasture) -> tuple[int, int]:
    """(width, height) of the pasture's bounding box, in cards (0, 0 when empty)."""
    if not pasture:
        return 0, 0
    xs = [x for x, _ in pasture]
    ys = [y for _, y in pasture]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def score(pastures: Sequence[Pasture]) -> tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]:
    """Scores, ranks and per-player details for the final pastures."""
    bell_values = [bell_value(p) for p in pastures]
    hearts = [sum(1 for card in p.values() if ICON[card] == HEART) for p in pastures]
    stars = [sum(1 for card in p.values() if ICON[card] == STAR) for p in pastures]
    bell_awards = awards(bell_values, BELL_AWARDS)
    heart_awards = awards(hearts, HEART_AWARDS)
    star_awards = awards(stars, STAR_AWARDS)
    players = []
    totals = []
    for seat, pasture in enumerate(pastures):
        one_vp = sum(1 for card in pasture.values() if ICON[card] == ONE_VP)
        groups = sheep_groups(pasture)
        group_vp = sum(group["vp"] for group in groups)
        width, height = extent(pasture)
        penalty = -(width + height)
        total = (
            bell_awards[seat] + heart_awards[seat] + star_awards[seat] + one_vp + group_vp + penalty
        )
        totals.append(total)
        players.append(
            {
                "seat": seat,
                "bells": bell_awards[seat],
                "hearts": heart_awards[seat],
                "stars": star_awards[seat],
                "one_vp": one_vp,
                "groups": group_vp,
                "penalty": penalty,
                "total": total,
                "bell_value": bell_values[seat],
                "heart_count": hearts[seat],
                "star_count": stars[seat],
                "width": width,
                "height": height,
                "cards": len(pasture),
                "group_list": groups,
            }
        )
    ranks = competition_ranks([(totals[s], bell_values[s]) for s in range(len(pastures))])
    details = {
        "components": ["bells", "hearts", "stars", "one_vp", "groups", "penalty"],
        "players": players,
        "tie_break": "highest total, then largest connected bell group, then shared",
    }
    return tuple(totals), ranks, details
