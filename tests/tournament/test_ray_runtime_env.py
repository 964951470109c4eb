"""What `--ray` ships to the workers (Ray's `working_dir` and `py_modules`): a
named pipe in the config's folder made every `--ray` run hang before its first
game, for ever with Ray started here (Ray reads each file it ships, and reading
a pipe waits for a writer). Ray is not started here: its packaging is called
as ray.init calls it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tournament.config import load_config
from tournament.executors.ray_shipping import runtime_env_for
from tournament.run_error import RunError

REPO = Path(__file__).resolve().parents[2]


def _config(folder: Path, python_path: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cup.toml"
    path.write_text(
        f'game = "sheep-showdown"\npython_path = {python_path!r}\n'.replace("'", '"')
        + '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    return path


def test_named_pipes_are_left_out_of_what_ray_ships(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    cup, elsewhere = tmp_path / "cup", tmp_path / "elsewhere"
    (cup / "bots" / "deep").mkdir(parents=True)
    elsewhere.mkdir()
    (cup / "bots" / "deep" / "my_bot.py").write_text("x = 1\n")
    os.mkfifo(cup / "log.pipe")
    os.mkfifo(cup / "bots" / "deep" / "odd [1]*.pipe")
    os.mkfifo(elsewhere / "feed.pipe")
    (cup / "pipe-link").symlink_to("log.pipe")
    config = load_config(_config(cup, ["bots", str(elsewhere)]))
    env, _worker_config = runtime_env_for(config, str(cup / "cup.sqlite"))
    script = textwrap.dedent(
        f"""
        from ray._private.runtime_env.packaging import get_uri_for_directory
        env = {env!r}
        for folder in [env["working_dir"], *env.get("py_modules", [])]:
            print(get_uri_for_directory(folder, True, excludes=env["excludes"]))
        """
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("Ray waited on a named pipe in the folders a --ray run ships")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("_ray_pkg_") == 2, done.stdout
    assert "bots/deep/my_bot.py" not in " ".join(env["excludes"])


def _left_out(env: dict[str, Any], folder: Path, names: list[str]) -> list[str]:
    """Which of `names` (in `folder`, Ray's working_dir) Ray's own matcher
    leaves out of what it ships, given the excludes `runtime_env_for` chose."""
    from ray._private.runtime_env.packaging import _get_excludes

    excluded = _get_excludes(Path(env["working_dir"]), env["excludes"])
    return [name for name in names if excluded(folder / name)]


def test_names_ending_in_a_space_or_a_tab_are_left_out_too(tmp_path: Path) -> None:
    """Ray's matcher strips a pattern's trailing whitespace, so `/log.pipe `
    matched nothing: Ray read the pipe and `--ray` hung for ever, and a link
    `key ` leading out of the folder was shipped as the file it points at."""
    cup = tmp_path / "cup"
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the workers\n")
    config = load_config(_config(cup, []))
    os.mkfifo(cup / "log.pipe ")
    os.mkfifo(cup / "tab\t")
    (cup / "key ").symlink_to(secret)
    (cup / "key").write_text("shipped\n")
    env, _worker_config = runtime_env_for(config, str(cup / "cup.sqlite"))
    assert _left_out(env, cup, ["log.pipe ", "tab\t", "key ", "key"]) == [
        "log.pipe ",
        "tab\t",
        "key ",
    ]


def test_a_database_named_like_a_pattern_is_left_out(tmp_path: Path) -> None:
    """`cup [1].sqlite*` was a pattern matching `cup 1.sqlite`: the database
    itself (its deals' secret, every game) was shipped to every worker."""
    cup = tmp_path / "cup"
    config = load_config(_config(cup, []))
    for name in ("cup [1].sqlite", "cup [1].sqlite-wal", "cup 1.sqlite"):
        (cup / name).write_text("")
    env, _worker_config = runtime_env_for(config, str(cup / "cup [1].sqlite"))
    names = ["cup [1].sqlite", "cup [1].sqlite-wal", "cup 1.sqlite"]
    assert _left_out(env, cup, names) == ["cup [1].sqlite", "cup [1].sqlite-wal"]


def test_the_database_is_left_out_of_a_python_path_folder_that_holds_it(tmp_path: Path) -> None:
    """A python_path folder outside the config's (`..`, or one the database is
    in) is shipped as a Ray py_module, with the config's folder in it: the
    database was left out of the working_dir alone, and reached every worker
    (its deals' secret, every game) in the py_module's copy."""
    pytest.importorskip("ray")
    from ray._private.runtime_env.packaging import _get_excludes

    parent = tmp_path / "parent"
    cup = parent / "cup"
    config = load_config(_config(cup, [".."]))
    for name in ("cup.sqlite", "cup.sqlite-wal", "bots.py"):
        (cup / name).write_text("")
    env, _worker_config = runtime_env_for(config, str(cup / "cup.sqlite"))
    assert env["py_modules"] == [str(parent)]
    excluded = _get_excludes(parent, env["excludes"])
    names = ["cup.sqlite", "cup.sqlite-wal", "bots.py"]
    assert [name for name in names if excluded(cup / name)] == names[:2]


def test_a_link_back_up_the_tree_is_not_shipped(tmp_path: Path) -> None:
    """Ray follows a link to the folder it is in (or above) again and again, 40
    deep: it shipped the config's folder 40 times over, and in each copy the
    database and what a link leading out of the folder points at, which are
    left out at the top alone (`loop/out/secret.txt`, `loop/cup.sqlite`)."""
    pytest.importorskip("ray")
    import zipfile

    from ray._private.runtime_env.packaging import _zip_files

    cup, secret = tmp_path / "cup", tmp_path / "secret"
    config = load_config(_config(cup, []))
    secret.mkdir()
    (secret / "secret.txt").write_text("not for the workers\n")
    (cup / "cup.sqlite").write_text("")
    (cup / "bots").mkdir()
    (cup / "bots" / "my_bot.py").write_text("x = 1\n")
    (cup / "loop").symlink_to(".")
    (cup / "bots" / "up").symlink_to("..")
    (cup / "out").symlink_to(secret)
    env, _worker_config = runtime_env_for(config, str(cup / "cup.sqlite"))
    packed = tmp_path / "packed.zip"
    _zip_files(env["working_dir"], env["excludes"], str(packed), True)
    with zipfile.ZipFile(packed) as archive:
        names = sorted(archive.namelist())
    assert names == ["bots/my_bot.py", "cup.toml"], names


def test_a_name_that_is_not_utf8_is_named_before_ray_starts(tmp_path: Path) -> None:
    """Ray cannot pack a file whose name is not UTF-8: ray.init failed with
    "directory FOLDER must be an existing directory or a supported archive"."""
    cup = tmp_path / "cup"
    config = load_config(_config(cup, []))
    (cup / "bots").mkdir()
    Path(os.fsdecode(os.fsencode(cup / "bots") + b"/w\xffights.bin")).write_bytes(b"")
    with pytest.raises(RunError, match=r"cannot ship .*/bots/w\\xffights\.bin to the Ray workers"):
        runtime_env_for(config, str(cup / "cup.sqlite"))
