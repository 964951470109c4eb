"""Activating a fence: its four icons in order, each making a sheep jump, and
what the jumper's colour then does (yellow takes companions, red bumps,
blue runs to the next blue sheep)."""

from __future__ import annotations

from games.stubborn_sheep.actions import (
    BUMP,
    PICK,
    UseBonus,
)
from games.stubborn_sheep.data import (
    BLUE,
    BLUE_SINGLE_STEP,
    BLUE_STOPS_AFTER_ONE,
    EFFECTIVE,
    RED,
    SHEEP_COLOUR,
    YELLOW,
    YELLOW_TAKES_TWO,
)
from games.stubborn_sheep.events import (
    BLUE_RUN,
    YELLOW_COMPANION,
    FenceActivated,
    IconJump,
)
from games.stubborn_sheep.fields import StubbornSheepFields
from games.stubborn_sheep.phases import (
    DECLINE,
    PH_BLUE_MOD,
    PH_BUMP,
    PH_COMPANION,
    PH_JUMPER,
    PH_TAKES_TWO,
    T_BUMP,
    T_COMPANIONS,
    T_ICON,
)


class Activation(StubbornSheepFields):
    """Fence activation and sheep jumps; mixed into StubbornSheepState."""

    def _activate(self, f: int) -> None:
        if f not in self.activated:
            self.activated.append(f)
        self.activating = f
        self._emit(FenceActivated(f, self.stacks[f][-1], self.orient[f]))
        tasks = self._tasks
        tasks.append((T_ICON, f, 3))
        tasks.append((T_ICON, f, 2))
        tasks.append((T_ICON, f, 1))
        tasks.append((T_ICON, f, 0))

    def _jump(
        self, f: int, k: int, orientation: int, areas: list[list[int]]
    ) -> tuple[int, int, int, int, list[int]]:
        """Icon `k` of fence `f` lying in `orientation` on the table `areas`: its
        colour, the area it takes a sheep from, the one it sends it to, the
        direction, and the sheep that could jump (none: the icon does nothing)."""
        colour, side = EFFECTIVE[self.stacks[f][-1]][orientation][k]
        n = self.n
        if side == 0:
            src, dst, direction = (f - 1) % n, f, 1
        else:
            src, dst, direction = f, (f - 1) % n, -1
        candidates = [card for card in areas[src] if SHEEP_COLOUR[card] == colour]
        return colour, src, dst, direction, candidates

    def _moves_a_sheep(
        self, f: int, orientation: int | None = None, areas: list[list[int]] | None = None
    ) -> bool:
        """Whether activating fence `f` now (in `orientation`, on the table `areas`;
        by default as they are) would make at least one sheep jump. The icons are
        taken in turn and only a jump changes the table, so if no icon finds a sheep
        on the table as it is, none finds one later either."""
        o = self.orient[f] if orientation is None else orientation
        table = self.areas if areas is None else areas
        return any(self._jump(f, k, o, table)[4] for k in range(4))

    def _rotation_matters(self, f: int) -> bool:
        """Whether turning fence `f` before activating it now would change what the
        activation moves. It would not when neither orientation makes a sheep jump,
        nor when both orientations meet the colours of the sheep beside the fence
        in the same order, with the same sides: only those colours can ever be
        met, since during an activation sheep only jump between the fence's two
        areas or leave them (a red's bump, a blue's run), never come from elsewhere
        with a new colour (a blue run that comes round again is blue)."""
        o = self.orient[f]
        if not (self._moves_a_sheep(f, o) or self._moves_a_sheep(f, 1 - o)):
            return False
        near = {SHEEP_COLOUR[card] for a in ((f - 1) % self.n, f) for card in self.areas[a]}
        icons = EFFECTIVE[self.stacks[f][-1]]
        return [i for i in icons[o] if i[0] in near] != [i for i in icons[1 - o] if i[0] in near]

    def _icon(self, f: int, k: int) -> None:
        self.icon = k
        colour, src, dst, direction, candidates = self._jump(f, k, self.orient[f], self.areas)
        if not candidates:
            self._emit(IconJump(f, k, colour, src, dst, -1))
        elif len(candidates) == 1:
            self._icon_jump(candidates[0], f, k, src, dst)
        else:
            self._decide(
                PH_JUMPER,
                (f, k, src, dst, direction, colour),
                tuple(PICK[card] for card in candidates),
            )

    def _icon_jump(self, card: int, f: int, k: int, src: int, dst: int) -> None:
        self.areas[src].remove(card)
        self.areas[dst].append(card)
        colour = SHEEP_COLOUR[card]
        self._emit(IconJump(f, k, colour, src, dst, card))
        if colour == YELLOW:
            left = len(self.areas[src])
            if not left:
                return
            if left >= 2 and self._bonus(YELLOW) == YELLOW_TAKES_TWO:
                self._decide(PH_TAKES_TWO, (src, dst, f), (DECLINE, UseBonus(YELLOW_TAKES_TWO)))
            else:
                self._tasks.append((T_COMPANIONS, src, dst, f, 1))
        elif colour == RED:
            self._tasks.append((T_BUMP, dst, card))
        elif colour == BLUE:
            self._blue(card, src, dst, 1 if dst == (src + 1) % self.n else -1)

    def _companions(self, src: int, dst: int, f: int, remaining: int) -> None:
        candidates = self.areas[src]
        if not candidates:
            return
        if len(candidates) == 1:
            self._move(candidates[0], src, dst, f, YELLOW_COMPANION)
            return
        self._decide(
            PH_COMPANION,
            (src, dst, f, remaining),
            tuple(PICK[card] for card in candidates),
        )

    def _bump(self, area: int, red: int) -> None:
        others = [card for card in self.areas[area] if card != red]
        if not others:
            return
        self._decide(PH_BUMP, (area, red), tuple(b for card in others for b in BUMP[card]))

    def _blue(self, card: int, src: int, dst: int, direction: int) -> None:
        n = self.n
        areas = self.areas
        elsewhere = any(
            SHEEP_COLOUR[other] == BLUE and other != card
            for a in range(n)
            if a != src
            for other in areas[a]
        )
        if not elsewhere:
            return
        path: list[tuple[int, int]] = []
        cur = dst
        while not any(SHEEP_COLOUR[other] == BLUE and other != card for other in areas[cur]):
            fence = (cur + 1) % n if direction > 0 else cur
            cur = (cur + direction) % n
            path.append((fence, cur))
        if not path:
            return
        bonus = self._bonus(YELLOW)
        if bonus == BLUE_SINGLE_STEP or (bonus == BLUE_STOPS_AFTER_ONE and len(path) >= 2):
            flat = tuple(x for step in path for x in step)
            self._decide(PH_BLUE_MOD, (card, dst, *flat), (DECLINE, UseBonus(bonus)))
            return
        self._blue_walk(card, dst, path)

    def _blue_walk(self, card: int, cur: int, path: list[tuple[int, int]]) -> None:
        for fence, nxt in path:
            self._move(card, cur, nxt, fence, BLUE_RUN)
            cur = nxt
