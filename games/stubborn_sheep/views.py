"""The observation a seat or spectator gets, and the plain-text render."""

from __future__ import annotations

import functools

from games.contract import viewer
from games.stubborn_sheep.data import (
    COLOURS,
    EFFECTIVE,
    ORIENTATIONS,
    SHEEP_COLOUR,
)
from games.stubborn_sheep.fields import StubbornSheepFields
from games.stubborn_sheep.observation import AreaView, FenceView, StubbornSheepObservation
from games.stubborn_sheep.phases import (
    ICON_PHASES,
    PH_OVER,
    PHASES,
)


@functools.lru_cache(maxsize=4096)
def _fence_view(
    index: int, owner: int, card: int, orientation: int, height: int, fences: int
) -> FenceView:
    """Fence `index` of `fences` as observations show it (a pure function of its
    card and how it lies, so the views are reused across decisions)."""
    left, right = (index - 1) % fences, index
    jumps = tuple(
        (colour, left, right) if side == 0 else (colour, right, left)
        for colour, side in EFFECTIVE[card][orientation]
    )
    return FenceView(index, owner, card, orientation, height, left, right, jumps)


class Views(StubbornSheepFields):
    """observation() and render(); mixed into StubbornSheepState."""

    def observation(self, seat: object) -> StubbornSheepObservation:
        seat = viewer(self.players, seat)
        n = self.n
        areas = tuple(AreaView(a, self.area_owner[a], tuple(self.areas[a])) for a in range(n))
        stacks, orient, owners = self.stacks, self.orient, self.fence_owner
        fences = [
            _fence_view(f, owners[f], stacks[f][-1], orient[f], len(stacks[f]), n) for f in range(n)
        ]
        available = (
            tuple(b for b in (self._bonus(c) for c in range(4)) if b >= 0)
            if self.phase != PH_OVER
            else ()
        )
        used = tuple(c for c in range(4) if self.used & (1 << c))
        return StubbornSheepObservation(
            seat=seat,
            players=self.players,
            to_move=self.to_move,
            current=self.current,
            phase=PHASES[self.phase],
            turn=self.turn,
            final_round=self.final_left >= 0,
            turns_left=self.final_left,
            areas=areas,
            fences=tuple(fences),
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            scored=tuple(tuple(tuple(p) for p in piles) for piles in self.scored),
            sheep_pile=len(self.sheep_pile),
            discard_pile=len(self.discard),
            fence_pile=len(self.fence_pile),
            wolf=self.wolf,
            activating=self.activating,
            icon=self.icon if self.phase in ICON_PHASES else -1,
            queue=tuple(self.queue),
            activated=tuple(self.activated),
            bonuses_available=available,
            bonuses_used=used,
            context=self.ctx,
            options_wolf=self.wolf_option,
            options_bonus_actions=self.bonus_option,
        )

    def render(self) -> str:
        lines = [f"turn {self.turn}, seat {self.current} to play, {PHASES[self.phase]}"]
        for a in range(self.n):
            f = a
            card = self.stacks[f][-1]
            icons = " ".join(
                f"{COLOURS[c][0]}{'<>'[s]}" for c, s in EFFECTIVE[card][self.orient[f]]
            )
            owner = self.fence_owner[f]
            lines.append(
                f"  fence {f} [{'-' if owner < 0 else owner}] card {card} "
                f"{ORIENTATIONS[self.orient[f]]}: {icons}"
            )
            kind = f"pen {self.area_owner[a]}" if self.area_owner[a] >= 0 else "meadow"
            wolf = " WOLF" if a == self.wolf else ""
            sheep = " ".join(f"{COLOURS[SHEEP_COLOUR[c]][0]}{c}" for c in self.areas[a])
            lines.append(f"  area {a} ({kind}{wolf}): {sheep}")
        for seat in range(self.players):
            piles = ", ".join(f"{COLOURS[c]} {len(self.scored[seat][c])}" for c in range(4))
            lines.append(f"  seat {seat}: {self.points(seat)} scored ({piles})")
        lines.append(
            f"  piles: sheep {len(self.sheep_pile)}, discard {len(self.discard)}, "
            f"fences {len(self.fence_pile)}"
        )
        return "\n".join(lines)
