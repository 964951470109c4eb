"""A run's first connection to its server reports a refused one at once (a
mistyped --server); an SPRT's later blocks, each on a connection of its own,
wait the few seconds a server restarting between blocks takes to come back,
as every connection once did (tests/clients/test_connect_first_attempt.py
has both waits)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import grpc
import pytest

from tests.tournament.quick_cup import quick_cup
from tournament import batch_play
from tournament.config import SprtSettings
from tournament.sprt_run import run_sprt

pytestmark = pytest.mark.e2e


def test_only_the_first_block_of_an_sprt_fails_at_once_on_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[bool] = []
    real = batch_play.ensure_reachable

    async def recorded(channel: grpc.aio.Channel, address: str, *, patient: bool) -> None:
        waits.append(patient)
        await real(channel, address, patient=patient)

    monkeypatch.setattr(batch_play, "ensure_reachable", recorded)
    # A block is 2 games (each deal from both seats), and a batch one block.
    sprt = SprtSettings(candidate="a", baseline="b", max_games=6)
    outcome = run_sprt(replace(quick_cup(tmp_path, concurrency=1), schedule="sprt", sprt=sprt))
    assert outcome.played == 6
    assert waits == [False, True, True]
