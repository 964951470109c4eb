"""`tournament run` and `sprt` try the bot sandbox once: check_before_start
tries it before the server starts, and the launcher the games use is made
from the one that tried it, while a run started by its caller still tries it;
so with what the sandboxed bots would see (bot_launch.check_what_bots_see)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import clients.launch.process as launch_process
from tournament import bot_launch
from tournament.config import SprtSettings, TournamentConfig, load_config
from tournament.runner import RunError, run_tournament, run_tournament_async
from tournament.sprt_run import run_sprt


def _calls_counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[None]:
    """One entry for each call of `owner.name` from here on."""
    calls: list[None] = []
    real = getattr(owner, name)

    def counting(*args: Any) -> Any:
        calls.append(None)
        return real(*args)

    monkeypatch.setattr(owner, name, counting)
    return calls


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[None]:
    """One entry for each empty sandbox the probe starts."""
    return _calls_counted(monkeypatch, launch_process, "probe")


def _cup(folder: Path) -> TournamentConfig:
    """A builtin bot against a sandboxed command bot that leaves at once (a
    random stand-in plays its seat): the games are quick and need no SDK."""
    (folder / "bot").mkdir()
    path = folder / "cup.toml"
    path.write_text(
        'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\ngames_per_pairing = 1\n'
        "[options]\nrounds = 1\n"
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\ncommand = ["true"]\ncwd = "bot"\n'
    )
    return load_config(path)


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_command_tries_the_sandbox_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, sandbox_ready: None
) -> None:
    probes = _counted(monkeypatch)
    _play_two_games(_cup(tmp_path), command)
    assert len(probes) == 1


def _play_two_games(config: TournamentConfig, command: str) -> None:
    """The cup's two games, as `tournament run` or `tournament sprt` plays them."""
    if command == "sprt":
        sprt = SprtSettings(candidate="b", baseline="a", max_games=2)
        assert run_sprt(replace(config, schedule="sprt", sprt=sprt)).played == 2
    else:
        assert run_tournament(config).played == 2


def test_a_run_started_by_its_caller_still_tries_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    probes = _counted(monkeypatch)
    config = _cup(tmp_path)
    database = str(tmp_path / "cup.sqlite")
    with pytest.raises(RunError, match="reach the server only through its Unix socket"):
        # A TCP address: the launcher is checked, and refuses, before any call.
        asyncio.run(run_tournament_async(config, "127.0.0.1:9", database))
    assert probes == []  # refused before the sandbox is tried
    with pytest.raises(RunError, match=r"^cannot reach the server at unix:.*no such file"):
        asyncio.run(run_tournament_async(config, "unix:" + str(tmp_path / "no.sock"), database))
    assert len(probes) == 1


def _views_counted(monkeypatch: pytest.MonkeyPatch) -> list[None]:
    """One entry for each check of the folders the sandboxed bots would see."""
    return _calls_counted(monkeypatch, bot_launch, "check_folders")


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_command_checks_what_its_bots_see_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, sandbox_ready: None
) -> None:
    """check_before_start checked it, and the launcher of the games once did again."""
    checks = _views_counted(monkeypatch)
    _play_two_games(_cup(tmp_path), command)
    assert len(checks) == 1


def test_a_run_started_by_its_caller_still_checks_what_its_bots_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    checks = _views_counted(monkeypatch)
    config = _cup(tmp_path)
    database = str(tmp_path / "cup.sqlite")
    with pytest.raises(RunError, match=r"^cannot reach the server at unix:.*no such file"):
        asyncio.run(run_tournament_async(config, "unix:" + str(tmp_path / "no.sock"), database))
    assert len(checks) == 1
