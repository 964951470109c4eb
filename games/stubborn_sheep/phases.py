"""The decisions a Stubborn Sheep turn can wait on (phases), their prompts, and
the kinds of step on the engine's task stack."""

from __future__ import annotations

from games.stubborn_sheep.actions import Continue, Decline, StopScoring

# Decision kinds.
(
    PH_ORIENT,
    PH_BLUE,
    PH_PLACE,
    PH_BETWEEN,
    PH_JUMPER,
    PH_TAKES_TWO,
    PH_COMPANION,
    PH_BUMP,
    PH_BLUE_MOD,
    PH_SCORE,
    PH_OVER,
) = range(11)
PHASES = (
    "orient",
    "blue_bonus",
    "place",
    "between",
    "jumper",
    "yellow_takes_two",
    "companion",
    "bump",
    "blue_modifier",
    "score",
    "over",
)
PROMPTS = (
    "keep or turn your fence",
    "use your blue bonus or not",
    "place your fence card",
    "continue, or use a bonus before the next activation",
    "choose which sheep jumps",
    "let the yellow sheep take 2 companions or not",
    "choose the sheep that goes with the yellow sheep",
    "choose the sheep the red sheep bumps and the side",
    "modify the blue sheep's run or not",
    "score sheep from your pen or stop",
    "the game is over",
)

# Decisions taken while one icon of the activating fence is being resolved.
ICON_PHASES = frozenset((PH_JUMPER, PH_TAKES_TWO, PH_COMPANION, PH_BUMP, PH_BLUE_MOD))

# Steps on the task stack.
T_START, T_PLACE, T_BETWEEN, T_ICON, T_COMPANIONS, T_BUMP, T_SCORE, T_END = range(8)

CONTINUE = Continue()
DECLINE = Decline()
STOP = StopScoring()
