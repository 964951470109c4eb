"""What a tournament config says of the bot sandbox, checked before any game:
limits and their defaults, sandboxing by default with an opt-out, bad settings
named by field, and the folders and database each bot would see."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import cast

import pytest

from clients.bot_limits import DEFAULT_LIMITS
from clients.launch import LimitsError, parse_limits
from clients.launch.sandbox import SandboxPolicy, seen_by_every_bot
from tests.conftest import ROOT
from tournament.bot_launch import check_what_bots_see
from tournament.config import ConfigError, parse_config
from tournament.executors.settings import GameExecutor
from tournament.runner import RunError, run_tournament, run_tournament_async
from tournament.sandbox_config import check_folders
from tournament.sprt_run import run_sprt


def test_limits_have_safe_defaults_and_reject_nonsense() -> None:
    assert DEFAULT_LIMITS.memory_mb == 1024
    args = parse_limits({"memory_mb": 512, "cpu_seconds": 5}).prlimit_args()
    assert f"--as={512 * 1024 * 1024}:{512 * 1024 * 1024}" in args and "--cpu=5:6" in args
    with pytest.raises(LimitsError, match="memory_mb"):
        parse_limits({"memory_mb": "lots"})
    with pytest.raises(LimitsError, match="unknown limit"):
        parse_limits({"disk_mb": 3})
    with pytest.raises(LimitsError, match="between"):
        parse_limits({"processes": 0})


def _config(bots: list[dict], **top: object) -> dict:
    return {"game": "stubborn-sheep", "players": 1, "bots": bots, **top}


def test_command_bots_are_sandboxed_by_default_and_can_opt_out(tmp_path: Path) -> None:
    (tmp_path / "extra").mkdir()
    config = parse_config(
        _config(
            [
                {"name": "a", "command": ["prog"]},
                {"name": "b", "command": ["prog"], "sandbox": False},
                {"name": "c", "command": ["prog"], "sandbox": {"memory_mb": 2048}},
                {"name": "d", "builtin": "random"},
            ],
            sandbox={"cpu_seconds": 7, "read_only": ["extra"]},
        ),
        base_dir=tmp_path,
    )
    a, b, c, d = config.bots
    assert a.sandbox == SandboxPolicy(
        limits=parse_limits({"cpu_seconds": 7}), read_only=(str(tmp_path / "extra"),)
    )
    assert b.sandbox is None and d.sandbox is None
    assert c.sandbox is not None
    assert c.sandbox.limits.memory_mb == 2048 and c.sandbox.limits.cpu_seconds == 7


@pytest.mark.parametrize(
    ("bots", "top", "field"),
    [
        ([{"name": "x", "builtin": "random", "sandbox": True}], {}, "bots[0].sandbox"),
        ([{"name": "x", "command": ["p"], "sandbox": "yes"}], {}, "bots[0].sandbox"),
        ([{"name": "x", "command": ["p"], "sandbox": {"memory_mb": 1}}], {}, "memory_mb"),
        ([{"name": "x", "command": ["p"]}], {"sandbox": {"read_only": ["nowhere"]}}, "read_only"),
        ([{"name": "x", "command": ["p"]}], {"sandbox": {"read_only": ["/proc"]}}, "read_only"),
        (
            [{"name": "x", "command": ["p"], "sandbox": {"read_only": ["/proc/self/../1"]}}],
            {},
            "bots[0].sandbox.read_only",
        ),
        ([{"name": "x", "command": ["p"]}], {"sandbox": {"read_only": ["/dev/shm"]}}, "read_only"),
        ([{"name": "x", "command": ["p"]}], {"sandbox": 3}, "sandbox"),
    ],
)
def test_bad_sandbox_settings_name_their_field(bots: list, top: dict, field: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(_config(bots, **top), base_dir=ROOT)
    assert field in error.value.field
    assert "trusted" in str(error.value) or field != "bots[0].sandbox" or "true" in str(error.value)


def test_a_bot_may_not_see_the_database_or_another_bots_folder(tmp_path: Path) -> None:
    folders = {"a": str(tmp_path), "b": str(tmp_path / "b"), "c": str(tmp_path / "c")}
    problem = check_folders({"b": folders["b"]}, ["b"], str(tmp_path / "b" / "t.sqlite"))
    assert problem and "tournament database" in problem
    problem = check_folders(folders, ["a"], str(tmp_path.parent / "t.sqlite"))
    assert problem and "bot 'a' would see bot 'b'" in problem
    assert check_folders(folders, ["b", "c"], str(tmp_path / "t.sqlite")) is None


def test_a_bot_may_not_see_the_database_through_a_read_only_path_or_the_runtime(
    tmp_path: Path,
) -> None:
    """An attack read the deal secret from a database in a folder the config
    gave a bot as `read_only`: every path a bot sees is checked, not only its own."""
    folders = {"b": str(tmp_path / "b"), "c": str(tmp_path / "c")}
    db = str(tmp_path / "data" / "t.sqlite")
    shared = {"b": [str(tmp_path / "data")]}
    problem = check_folders(folders, ["b"], db, shared)
    assert problem == (
        f"bot 'b' would see the tournament database {tmp_path / 'data' / 't.sqlite'} in its "
        f"read_only path {tmp_path / 'data'}: give the bot a folder of its own with `cwd`, "
        "or put the database elsewhere"
    )
    elsewhere = str(tmp_path.parent / "elsewhere.sqlite")
    problem = check_folders(folders, ["b"], elsewhere, {"b": [str(tmp_path)]})
    assert problem and "would see bot 'c'" in problem and "read_only path" in problem
    problem = check_folders(folders, ["b"], db, runtime=[str(tmp_path / "data")])
    assert problem and "the runtime every bot sees" in problem
    # The database's write-ahead log holds its pages too: named alone, it is refused.
    wal = {"b": [str(tmp_path / "data" / "t.sqlite-wal")]}
    problem = check_folders(folders, ["b"], db, wal)
    assert problem and f"in its read_only path {tmp_path / 'data' / 't.sqlite-wal'}" in problem
    assert check_folders(folders, ["b", "c"], db, {"c": [str(tmp_path / "c" / "x")]}) is None


def test_a_bots_folder_cannot_be_the_hosts_proc_or_dev(tmp_path: Path) -> None:
    """Bound after the sandbox's own /proc, it would cover it with the host's."""
    for folder, top in (("/proc", "/proc"), ("/proc/1", "/proc"), ("/dev/shm", "/dev")):
        problem = check_folders({"b": folder}, ["b"], str(tmp_path / "t.sqlite"))
        assert problem == (
            f"bot 'b': a sandboxed bot's folder (cwd) cannot be in the host's {top} "
            f"({folder}): a sandbox has its own /proc and /dev"
        )


def test_a_link_in_a_strangers_folder_leads_no_bot_out_of_the_config_folder(
    tmp_path: Path,
) -> None:
    """A stranger's archive, unpacked under the config's folder, held `src -> /etc`
    (or any host folder), and the config said `cwd = "entries/theirs/src"`: the
    sandbox bound the host's folder as the bot's own, and a bot run as root read
    /etc/shadow in it. The run is refused before any game; so is such a
    `read_only` path. Links that stay inside the config's folder still work."""
    host = tmp_path / "host"
    host.mkdir()
    (host / "shadow").write_text("root:$6$secret")
    cup = tmp_path / "cup"
    (cup / "entries" / "theirs").mkdir(parents=True)
    (cup / "entries" / "theirs" / "src").symlink_to(host)
    (cup / "entries" / "mine").mkdir()
    (cup / "entries" / "mine" / "src").symlink_to("../mine")
    bots = [
        {"name": "a", "command": ["true"], "cwd": "entries/mine/src"},
        {"name": "b", "command": ["true"], "cwd": "entries/theirs/src"},
    ]
    never_used = cast(GameExecutor, object())
    config = parse_config(_config(bots, players=2), str(cup))
    with pytest.raises(RunError, match=r"'b'.*out of the config's folder to .*host"):
        asyncio.run(
            run_tournament_async(
                config, "unix:/nowhere", str(tmp_path / "t.sqlite"), executor=never_used
            )
        )
    bots[1]["cwd"] = "entries/mine"
    config = parse_config(_config(bots, players=2), str(cup))
    check_what_bots_see(config, str(tmp_path / "t.sqlite"))  # no RunError
    bots[1]["sandbox"] = {"read_only": ["entries/theirs/src"]}
    with pytest.raises(ConfigError, match="out of the config's folder"):
        parse_config(_config(bots, players=2), str(cup))


def test_a_ray_run_checks_what_its_bots_see_before_any_game(tmp_path: Path) -> None:
    """The workers start the bots, but the driver refuses the config first."""
    config = parse_config(
        {
            "game": "sheep-n-sheep",
            "bots": [
                {"name": "a", "builtin": "random"},
                {"name": "b", "command": ["true"], "sandbox": {"read_only": ["."]}},
            ],
        },
        str(tmp_path),
    )
    (tmp_path / "b").mkdir()
    never_used = cast(GameExecutor, object())
    with pytest.raises(RunError, match="would see the tournament database"):
        asyncio.run(
            run_tournament_async(
                config, "127.0.0.1:1", str(tmp_path / "t.sqlite"), executor=never_used
            )
        )


@pytest.mark.parametrize("command", ["run", "sprt"])
def test_sandboxed_bots_on_a_tcp_server_are_refused_before_any_game(
    tmp_path: Path, command: str
) -> None:
    """Refused for what the command line says, before the server is asked: a
    run on a TCP address where nothing listens once said only that nothing
    listens there, and the address fixed, was refused for the sandbox next."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.py").write_text("")
    bots = [
        {"name": "x", "command": ["{python}", "bot.py"], "cwd": "bot"},
        {"name": "y", "builtin": "random"},
    ]
    sprt = {"candidate": "x", "baseline": "y", "elo0": 0, "elo1": 10, "alpha": 0.05}
    top: dict[str, object] = {"schedule": "sprt", "sprt": sprt} if command == "sprt" else {}
    config = parse_config(_config(bots, **top), base_dir=tmp_path)
    run = run_sprt if command == "sprt" else run_tournament
    with pytest.raises(RunError, match="unix:PATH"):
        run(config, server="127.0.0.1:1", database=str(tmp_path / "t.sqlite"))
    assert not (tmp_path / "t.sqlite").exists()


def test_the_paths_every_bot_sees_include_the_system_runtime() -> None:
    """A database under /usr would otherwise pass: every sandbox binds /usr whole."""
    seen = seen_by_every_bot()
    assert "/usr" in seen and sys.prefix in seen
    problem = check_folders(
        {"b": "/tmp/b"}, ["b"], "/usr/local/var/sheepfold/t.sqlite", runtime=seen
    )
    assert problem and "the runtime every bot sees (/usr)" in problem


def test_a_bot_may_not_see_a_servers_database_nor_another_tournaments(tmp_path: Path) -> None:
    """A run on a server of its own (--server) knows its own database by its
    path, not the server's: a bot whose folder held the server's sheepfold.db
    read the seed of every running match there (its tables still only in the
    -wal, as a server writes them), and so a bot seeing another tournament's
    database, with the secret its deals are drawn under."""
    from server.sqlite_store import SqliteStore
    from tournament.store import Store

    folder, other = tmp_path / "bot", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    store = SqliteStore(str(folder / "sheepfold.db"))
    try:
        problem = check_folders({"b": str(folder)}, ["b"], str(tmp_path / "t.sqlite"))
        # Named alone (a read_only file), its -wal still holding its tables.
        alone = check_folders(
            {"b": str(other)},
            ["b"],
            str(tmp_path / "t.sqlite"),
            {"b": [str(folder / "sheepfold.db")]},
        )
        assert alone is not None and "its read_only path" in alone, alone
    finally:
        store.close()
    assert problem == (
        f"bot 'b' would see the Sheepfold database {folder / 'sheepfold.db'} in its folder, "
        "with the seed of every match in it: give the bot a folder of its own with `cwd`, "
        "or put the database elsewhere"
    ), problem
    with Store(other / "cup.sqlite"):
        pass
    problem = check_folders(
        {"b": str(tmp_path / "empty")}, ["b"], str(tmp_path / "t.sqlite"), {"b": [str(other)]}
    )
    assert problem is not None and f"Sheepfold database {other / 'cup.sqlite'}" in problem
    assert f"its read_only path {other}" in problem, problem
