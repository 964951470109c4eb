"""A tournament changing while its report is built: the polls that each saw
a newer change once queued a build each in the one replay process (builds
were shared only by polls that saw the same change), where a finished
match's replay waits too. With a running tournament of 1,200 to 1,900 games
asked by 20 clients, a replay took up to 9.6 s and the report up to 11 s."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from web import reports, tournaments


def test_polls_during_a_build_wait_for_it_and_then_share_one_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    marker = [(1.0, 20, 3, 3)]  # the tournament's change marker, as its database has it
    polls: list[tournaments.Marker] = []
    built: list[tournaments.Marker] = []  # the marker each build's read saw

    def polled(path: Path, name: str) -> tournaments.Polled:
        polls.append(marker[0])
        return tournaments.Polled(marker[0], None, 1.0)

    monkeypatch.setattr(reports.tournaments, "polled", polled)

    async def scenario() -> None:
        release = asyncio.Event()

        async def run(function: Any, path: str, index: int, name: str) -> Any:
            assert function is reports.build
            seen = marker[0]
            built.append(seen)
            number = len(built)
            if number == 1:
                await release.wait()
            fragment = f"<p>{number}</p>"
            return reports.Built(name, fragment, b"", seen[2], seen[1], seen, frozenset())

        cache = reports.ReportCache(run)
        first = asyncio.ensure_future(cache.get(0, Path("x.db"), "t"))
        while not built:
            await asyncio.sleep(0.01)
        later = []
        for stored in range(4, 12):  # a game stored before each poll
            marker[0] = (float(stored), 20, stored, stored)
            later.append(asyncio.ensure_future(cache.get(0, Path("x.db"), "t")))
            while len(polls) < stored - 2:  # this poll has read its marker
                await asyncio.sleep(0.01)
        release.set()
        assert (await first).fragment == "<p>1</p>"
        answers = await asyncio.gather(*later)
        # One build after the first, read after every poll: each answer shows
        # every game its poll saw stored.
        assert built == [(1.0, 20, 3, 3), (11.0, 20, 11, 11)]
        assert {(answer.fragment, answer.played) for answer in answers} == {("<p>2</p>", 11)}

    asyncio.run(scenario())
