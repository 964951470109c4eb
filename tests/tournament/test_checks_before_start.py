"""Everything `tournament run` and `sprt` can check without a server is checked
before one starts (tournament.run_checks): what sandboxed bots would see, the
sandbox itself, a round robin's resume of fewer groups, and the command's own
flags; and --metrics-port's endpoint starts only once the checks passed. Each
of these once came after the in-process server (or Ray) had started, its start
and stop logged around the one line that mattered."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from clients.launch import Launcher, SandboxUnavailable
from tests.conftest import ROOT
from tests.tournament.test_database_before_server import _no_ray, _no_server
from tournament import runner, sprt_run
from tournament.config import SprtSettings, TournamentConfig, load_config
from tournament.executors.settings import ExecutorSettings
from tournament.run_error import RunError
from tournament.store import Store, StoreError

COMMANDS = ["run", "run --ray", "sprt"]


def _start(config: TournamentConfig, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`command` on `config`, with every server and Ray start an AssertionError."""
    import tournament.executors.ray as ray_executor

    monkeypatch.setattr(runner, "local_server", _no_server)  # an SPRT's too (play_claimed)
    monkeypatch.setattr(ray_executor, "run_on_ray", _no_ray)
    if command == "sprt":
        sprt = SprtSettings(candidate="a", baseline="b")
        sprt_run.run_sprt(replace(config, schedule="sprt", sprt=sprt))
    elif command == "run --ray":
        runner.run_tournament(config, executor=ExecutorSettings(kind="ray"))
    else:
        runner.run_tournament(config)


def _sandboxed_cup(folder: Path, database: str) -> TournamentConfig:
    (folder / "bot").mkdir()
    (folder / "bot" / "bot.py").write_text("print('hi')\n")
    path = folder / "cup.toml"
    path.write_text(
        f'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\ndatabase = "{database}"\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\ncommand = ["{python}", "bot.py"]\ncwd = "bot"\n'
    )
    return load_config(path)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_sandboxed_bot_that_would_see_the_database_stops_the_run_before_any_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    config = _sandboxed_cup(tmp_path, "bot/cup.sqlite")
    with pytest.raises(RunError, match=r"^bot 'b' would see the tournament database "):
        _start(config, command, monkeypatch)
    assert not (tmp_path / "bot" / "cup.sqlite").exists()


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_a_sandbox_that_cannot_be_made_stops_the_run_before_any_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def unavailable(launcher: Launcher, cpus: float | None = None) -> None:
        raise SandboxUnavailable("bubblewrap is not installed")

    monkeypatch.setattr(Launcher, "check", unavailable)
    config = _sandboxed_cup(tmp_path, "cup.sqlite")
    with pytest.raises(RunError, match=r"^cannot sandbox b: bubblewrap is not installed$"):
        _start(config, command, monkeypatch)


@pytest.mark.parametrize("command", ["run", "run --ray"])
def test_a_round_robin_resumed_with_groups_left_out_stops_before_any_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    path = tmp_path / "cup.toml"
    bots = "".join(f'[[bots]]\nname = "b{i}"\nbuiltin = "random"\n' for i in range(7))
    path.write_text(
        'name = "cup"\ngame = "sheep-n-sheep"\nplayers = 3\nmax_groups = 14\n'
        'games_per_pairing = 1\ndatabase = "cup.sqlite"\n' + bots
    )
    config = load_config(path)
    schedule = runner.schedule_for(config)
    from tests.tournament.stored_records import finished_record

    with Store(tmp_path / "cup.sqlite") as store:
        tid = runner.open_tournament(store, config, len(schedule), [list(config.bot_names)])
        for game in schedule:
            store.record_game(tid, finished_record(game, [3.0, 2.0, 1.0], [1, 2, 3]))
    fewer = replace(config, max_groups=7)
    with pytest.raises(StoreError, match=r"^max_groups: tournament 'cup' in "):
        _start(fewer, command, monkeypatch)


def _tournament(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "cli", "tournament", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, time.monotonic() - started


def test_metrics_start_only_once_the_run_is_checked(tmp_path: Path) -> None:
    """A bot's missing folder was refused after the metrics endpoint started
    (its "metrics at" line before the refusal), and so were the flags `run`
    refuses for an SPRT's config."""
    path = tmp_path / "cup.toml"
    path.write_text(
        'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\ndatabase = "cup.sqlite"\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\ncommand = ["{python}", "bot.py"]\ncwd = "gone"\n'
    )
    done, _ = _tournament(tmp_path, "run", str(path), "--metrics-port", "0")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: {path}: bots[1].cwd: no folder '{tmp_path / 'gone'}'"
    ]
    sprt = tmp_path / "sprt.toml"
    sprt.write_text(
        path.read_text()
        .replace('cwd = "gone"', "")
        .replace("players = 2", 'players = 2\nschedule = "sprt"')
    )
    for flags in (["--rerun-crashed"], ["--ray"]):
        done, _ = _tournament(tmp_path, "run", str(sprt), "--metrics-port", "0", *flags)
        assert done.returncode == 2, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith("sheepfold tournament: "), line
        assert "metrics" not in line, line
    assert not (tmp_path / "cup.sqlite").exists()


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ("python_path", 'python_path = ["/tmp/{long}"]\n'),
        ("bots[1].cwd", '[[bots]]\nname = "c"\ncommand = ["/bin/true"]\ncwd = "/tmp/{long}"\n'),
    ],
    ids=["python_path", "cwd"],
)
def test_a_folder_name_too_long_for_the_file_system_is_a_config_error(
    tmp_path: Path, field: str, line: str
) -> None:
    """A 100,000-character python_path or cwd was an OSError traceback ("File
    name too long") from the bot check's Path.is_dir, which lets that one out."""
    text = line.format(long="f" * 100_000)
    second = '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    top, bots = (text, second) if field == "python_path" else ("", text)
    path = _cup(tmp_path, top, bots)
    done, _ = _tournament(tmp_path, "run", str(path))
    assert done.returncode == 2, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"sheepfold tournament: {path}: {field}"), done.stderr[:300]
    assert "no folder '/tmp/fff" in done.stderr and len(done.stderr) < 1000, done.stderr[:300]


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ("bots[1].command[1]", 'command = ["/bin/true", "{long}"]\n'),
        ("bots[1].env.NOTE", 'command = ["/bin/true"]\nenv = {{ NOTE = "{long}" }}\n'),
    ],
    ids=["argument", "env"],
)
def test_an_argument_too_long_for_linux_to_pass_is_a_config_error(
    tmp_path: Path, field: str, line: str
) -> None:
    """An argument or environment value of 140,000 characters: Linux starts no
    program given one past 128 KiB, so every game of the bot crashed ("Argument
    list too long") and the run went on to the end with its stand-in."""
    path = _cup(
        tmp_path, "", '[[bots]]\nname = "b"\nsandbox = false\n' + line.format(long="a" * 140_000)
    )
    done, _ = _tournament(tmp_path, "run", str(path))
    assert done.returncode == 2, done.stderr[-500:]
    size = 140_000 + (len("NOTE=") if ".env." in field else 0)
    assert done.stderr.splitlines() == [
        f"sheepfold tournament: {path}: {field}: is {size:,} bytes long, and Linux starts no "
        "program given an argument or environment entry of more than 131,071"
    ]
    assert not (tmp_path / "cup.sqlite").exists(), "refused before any game"


def _cup(tmp_path: Path, top: str, bots: str) -> Path:
    """A two-player tournament config: `top` among its settings, a random bot,
    then `bots`."""
    path = tmp_path / "cup.toml"
    path.write_text(
        f'name = "cup"\ngame = "sheep-showdown"\nplayers = 2\ndatabase = "cup.sqlite"\n{top}'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n' + bots
    )
    return path
