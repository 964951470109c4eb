"""`tournament run` and `sprt` check their bots once: the checks before
anything starts (tournament.run_checks) are not made again by the run they
hand over to, while a caller of the run itself still has them checked."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from tests.tournament.quick_cup import quick_cup
from tournament import botcheck
from tournament.config import BotSpec, SprtSettings, TournamentConfig
from tournament.runner import run_tournament, run_tournament_async
from tournament.sprt_run import run_sprt


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The bots checked, one entry for each time one is."""
    checked: list[str] = []
    real = botcheck._check

    def counting(bot: BotSpec, where: str, base_dir: str) -> object:
        checked.append(bot.name)
        return real(bot, where, base_dir)

    monkeypatch.setattr(botcheck, "_check", counting)
    return checked


def _sprt(config: TournamentConfig) -> None:
    sprt = SprtSettings(candidate="a", baseline="b", max_games=2)
    run_sprt(replace(config, schedule="sprt", sprt=sprt))


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_command_checks_each_bot_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    checked = _counted(monkeypatch)
    config = quick_cup(tmp_path, games_per_pairing=1)
    if command == "sprt":
        _sprt(config)
    else:
        assert run_tournament(config).played == 2
    assert sorted(checked) == ["a", "b"]


def test_a_run_started_by_its_caller_still_checks_its_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = _counted(monkeypatch)
    config = quick_cup(tmp_path)
    bad = replace(config, bots=(*config.bots, replace(config.bots[0], name="c", builtin="nope")))
    with pytest.raises(botcheck.BotCheckError, match="no built-in bot 'nope'"):
        # No server at this address: the check comes before any call.
        asyncio.run(run_tournament_async(bad, "127.0.0.1:9", str(tmp_path / "cup.sqlite")))
    assert sorted(checked) == ["a", "b", "c"]
