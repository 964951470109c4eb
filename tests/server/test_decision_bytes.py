"""The least `serve --max-message-bytes` holds a crowded pen's decision with
room to spare: a Stubborn Sheep player whose pen holds 6 reds, 5 blues and 6
whites (the rules page's example) is offered 2,865 ways to score (and
`stop_scoring`), a decision of about 225 KB; the largest of 4,400 random
5-player games took 365 KB, and a pen just under the 5,000 ways listed in
full about 400 KB. A server allowed less could not send it: the
seat's stream failed mid-match."""

from __future__ import annotations

from games.stubborn_sheep import GAME
from games.stubborn_sheep.state import StubbornSheepState
from server import encoding
from server.client_limits import MatchLimits
from server.clock_limits import MAX_DECISION_SECONDS
from server.settings import MIN_MAX_MESSAGE_BYTES
from tests.stubborn_sheep.helpers import b, empty_areas, r, w


def test_a_crowded_pen_s_decision_fits_the_least_message_bound() -> None:
    areas = empty_areas(10)
    areas[0] = [r(i) for i in range(6)] + [b(i) for i in range(5)] + [w(i) for i in range(6)]
    state = StubbornSheepState.from_position(5, areas=areas, current=0, start="score")
    actions = state.legal_actions()
    assert len(actions) == 2_866
    # Every field at its widest: a large id, a full clock, the most strikes.
    head = encoding.decision_head(
        2**40, 4, state.prompt(), MAX_DECISION_SECONDS, 86_400.0, 1_000, 1_000
    )
    body = encoding.decision_body(GAME.codec, head, state.observation(0), actions)
    # With as many held events as a seat holds, each as long as an event gets
    # (Sheep & Garden's reach 201 bytes).
    held = [b"\0" * 256] * MatchLimits().held_events
    message = encoding.decision_with_events(body, held)
    assert 200_000 < len(message) < MIN_MAX_MESSAGE_BYTES // 4
