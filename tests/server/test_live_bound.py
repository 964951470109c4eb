"""The bound on live matches is checked without a look at every hosted match:
at 10,000 live matches (`--max-live-matches`' default) counting them took
about 10 ms of the event loop for every CreateMatch, refused or not, so a
client sending CreateMatch after CreateMatch to a full server held every
match's decisions up, and filling the server took time growing with the
square of its matches (10,000 creates: 29 s)."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from server.match import Match
from server.records import ClockConfig
from server.registry import LimitReached, MatchRegistry
from server.storage import StoreWorker

HOSTED = 5_000


class _Hosted:
    """A hosted match that counts how often its state is looked at."""

    looks = 0

    @property
    def over(self) -> bool:
        _Hosted.looks += 1
        return False


def test_a_create_refused_at_the_bound_looks_at_no_hosted_match() -> None:
    registry = MatchRegistry(cast(StoreWorker, None), max_live_matches=HOSTED)
    for number in range(HOSTED):
        registry._matches[f"m{number}"] = cast(Match, _Hosted())
    assert registry.live_count() == HOSTED
    _Hosted.looks = 0
    for _ in range(10):
        with pytest.raises(LimitReached, match=f"already hosts {HOSTED:,} live matches"):
            asyncio.run(registry.create("sheep-showdown", 2, {}, None, ClockConfig()))
    assert _Hosted.looks == 0
