"""The kinds of pending decision a Sheep Showdown turn can wait on, and the
engine's fixed numbers (last steps, turn cap factor)."""

from __future__ import annotations

from games.sheep_showdown import cards as C

# Pending decision kinds (index into DECISIONS).
(
    NONE,
    PLACE,
    CHOOSE_DOG,
    STEP,
    SHEPHERD,
    ROCKET,
    BLOCKER,
    WOLF_DOG,
    WOLF_STEP,
    STEAL,
    USE_CARD,
) = range(11)
DECISIONS = (
    "none",
    "place_dog",
    "choose_dog",
    "step",
    "shepherd",
    "rocket",
    "blocker",
    "wolf_dog",
    "wolf_step",
    "steal",
    "use_card",
)
LAST_STEPS = 2
CAP_FACTOR = 4
NO_ROCKETS: frozenset[int] = frozenset()
# The cards whose action a wolf's player may decline for a pushed dog.
ACTION_CARDS = frozenset((C.SHEPHERD, C.ROCKET, C.BLOCKING, C.SLIDING, C.BOMB))
