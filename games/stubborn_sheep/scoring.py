"""Scoring sheep from the pen, points and sets, the final result and the solo
rating table."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from games.contract import Result
from games.ranking import competition_ranks
from games.stubborn_sheep.actions import (
    Score,
)
from games.stubborn_sheep.data import (
    BLUE,
    COLOURS,
    RED,
    SHEEP_COLOUR,
    WHITE,
    YELLOW,
)
from games.stubborn_sheep.events import (
    SheepScored,
)
from games.stubborn_sheep.fields import StubbornSheepFields
from games.stubborn_sheep.phases import (
    PH_OVER,
    PH_SCORE,
    T_END,
)

SOLO_RATINGS = (
    (5, "Woolly disaster"),
    (8, "Not great, baa…"),
    (11, "Occasional grazer"),
    (14, "Hoof honour"),
    (10**9, "Wool collector!"),
)


def solo_rating(points: int) -> str:
    """The rulebook's solo table for a (wolf-adjusted) number of scored sheep."""
    for ceiling, name in SOLO_RATINGS:
        if points <= ceiling:
            return name
    raise AssertionError("unreachable")


class Scoring(StubbornSheepFields):
    """Pen scoring and the result; mixed into StubbornSheepState."""

    def score_options(self) -> list[Score]:
        """Every way to score one group from the pen: "You choose which sheep are
        scored and which are discarded." The cards scored (in pile order, the last
        on top) and the two discarded are named; up to 2 whites may stand in for
        another colour, and then they are among the discarded.

        "If your pen contains 3 or 4 sheep of the same colour, you may score them
        ... If you have 4, score 2": with 4 or fewer of a colour the group takes
        every one of them (4 blue cannot be scored as 3); only with 5 or more does
        the player pick which ones."""
        pen = self.areas[self.pens[self.current]]
        by_colour: list[list[int]] = [[], [], [], []]
        for card in pen:
            by_colour[SHEEP_COLOUR[card]].append(card)
        whites = sorted(by_colour[WHITE])
        options: list[Score] = []
        for colour in (BLUE, RED, YELLOW, WHITE):
            cards = by_colour[colour]
            if not cards:
                continue
            max_jokers = 0 if colour == WHITE else min(2, len(whites))
            for size in (3, 4):
                for jokers in range(max_jokers + 1):
                    own = size - jokers  # sheep of the colour itself in the group
                    if own > len(cards) or (len(cards) <= 4 and own != len(cards)):
                        continue
                    joker_sets = list(combinations(whites, jokers))
                    for scored in permutations(cards, size - 2):
                        rest = sorted(card for card in cards if card not in scored)
                        for thrown in combinations(rest, 2 - jokers):
                            options.extend(
                                Score(colour, scored, stand_in + thrown) for stand_in in joker_sets
                            )
        return options

    def _can_score(self) -> bool:
        """Whether the pen holds any group `score_options` would offer."""
        counts = [0, 0, 0, 0]
        for card in self.areas[self.pens[self.current]]:
            counts[SHEEP_COLOUR[card]] += 1
        jokers = min(2, counts[WHITE])
        return counts[WHITE] >= 3 or any(
            counts[c] and counts[c] + jokers >= 3 for c in (BLUE, RED, YELLOW)
        )

    def _score_step(self) -> None:
        if not self._can_score():
            self._tasks.append((T_END,))
            return
        self._decide(PH_SCORE, (), None)

    def _do_score(self, action: Score) -> None:
        pen = self.areas[self.pens[self.current]]
        colour = action.colour
        for card in action.scored:
            pen.remove(card)
            self.scored[self.current][colour].append(card)
        for card in action.discarded:
            pen.remove(card)
        self.discard.extend(action.discarded)
        self._emit(SheepScored(self.current, colour, action.scored, action.discarded))

    def points(self, seat: int) -> int:
        return sum(len(pile) for pile in self.scored[seat])

    def sets(self, seat: int) -> int:
        return min(len(pile) for pile in self.scored[seat])

    def result(self) -> Result:
        if self.phase != PH_OVER:
            raise ValueError("the game is not over")
        scores = tuple(float(self.points(s)) for s in range(self.players))
        keys = [(self.points(s), self.sets(s)) for s in range(self.players)]
        ranks = competition_ranks(keys)
        players = []
        for seat in range(self.players):
            entry: dict[str, Any] = {
                "seat": seat,
                "points": self.points(seat),
                "scored": {COLOURS[c]: len(self.scored[seat][c]) for c in range(4)},
                "sets": self.sets(seat),
            }
            if self.players == 1:
                rated = self.points(seat) + (3 if self.wolf_option else 0)
                entry["rating_points"] = rated
                entry["rating"] = solo_rating(rated)
            players.append(entry)
        details = {
            "players": players,
            "tie_break": "complete sets of 4 different colours",
        }
        return Result(scores, ranks, details)
