"""Everything the viewer sends a browser about a match while it is live, not
only what the page draws: the page's boot data, the match's JSON, the lists,
and every batch of its live stream. Each live item must be exactly what a
spectator may see (the engine's public observation and public event texts,
as `Watch` gives them), the seed must appear nowhere, and no card view may be
served before the end."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from typing import Any

import pytest

from server.app import ServerConfig
from tests.integrity.helpers import expected_watch_stream, get_replay
from tests.web.test_http import get
from web.frames import watch_item
from web.showcase import start_showcase

pytestmark = pytest.mark.e2e

# Every game at two seats, and Sheep 'n' Sheep at four too; seeds long enough
# that their digits turn up nowhere by chance.
CASES = [
    ("sheep-showdown", 2, 731_982_406_113),
    ("sheep-n-sheep", 2, 804_157_329_661),
    ("sheep-n-sheep", 4, 615_094_283_777),
    ("stubborn-sheep", 2, 927_406_551_309),
    ("sheep-and-garden", 2, 548_913_760_271),
]


VIEWS = ("public", "all", "seat-0", "seat-1", "seat-2", "seat-3")


def _read_live(url: str, into: list[Any]) -> None:
    """Every batch of a live stream, to its end."""
    with urllib.request.urlopen(url, timeout=120) as stream:
        for line in stream:
            if line.startswith(b"data: "):
                into.append(json.loads(line[6:]))
            if line.startswith(b"event: end"):
                return


@pytest.mark.parametrize(("game", "players", "seed"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_browser_on_a_live_match_gets_only_the_public_match(
    game: str, players: int, seed: int
) -> None:
    showcase = start_showcase(games=(), config=ServerConfig())
    try:
        match_id = showcase.start_live(game, players, seed, delay=0.02)
        base, api = showcase.url, f"{showcase.url}/api/match/{match_id}"
        batches: list[Any] = []
        reader = threading.Thread(target=_read_live, args=(f"{api}/live", batches))
        reader.start()
        bodies: list[str] = []
        live_checks = 0
        deadline = time.monotonic() + 120
        while json.loads(get(api)[2])["status"] in ("waiting", "running"):
            assert time.monotonic() < deadline, "the match did not finish"
            answers = [
                get(f"{base}/match/{match_id}"),
                get(api),
                get(f"{base}/api/matches"),
                get(f"{base}/api/matches?game={game}"),
                *(get(f"{api}/frames?view={view}") for view in VIEWS[: players + 2]),
            ]
            # Kept only when the match was still running after every read: once
            # it is over, all of it may be shown.
            if json.loads(get(api)[2])["status"] == "running":
                live_checks += 1
                assert json.loads(answers[1][2])["seed"] is None, answers[1][2]
                for status, _, body in answers[4:]:
                    assert status in (403, 409) and '"frames"' not in body, body[:300]
                bodies.extend(body for _, _, body in answers)
            time.sleep(0.05)
        reader.join(60)
        assert not reader.is_alive(), "the live stream did not end with the match"
        replay = showcase.server.run(get_replay(showcase.server.address, match_id))
    finally:
        showcase.stop()
    assert replay.seed == seed
    assert live_checks >= 3, "the match was not seen running"
    for body in bodies:
        assert str(seed) not in body, body[:500]
    # The live stream: from its first snapshot, exactly the public match.
    expected = [watch_item(message) for message in expected_watch_stream(replay)]
    items = [item for batch in batches for item in batch]
    assert items and items[0]["kind"] == "snapshot", items[:1]
    assert items[0] in expected, f"not a public snapshot: {items[0]}"
    start = expected.index(items[0])
    assert items == expected[start:], "the live stream is not the public match"
    assert str(seed) not in json.dumps(items)
