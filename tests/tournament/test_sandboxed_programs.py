"""A sandboxed command bot's program must be one its sandbox can see: checked
before the first game, not discovered as a crash in every game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tournament.botcheck import BotCheckError, check_bots
from tournament.config import load_config


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def _config(tmp_path: Path, command: str, sandbox: str = "") -> Path:
    (tmp_path / "bot").mkdir(exist_ok=True)
    path = tmp_path / "cup.toml"
    path.write_text(
        'game = "sheep-n-sheep"\nplayers = 2\n'
        '[[bots]]\nname = "steady"\nbuiltin = "random"\n'
        f'[[bots]]\nname = "theirs"\ncommand = {command}\ncwd = "bot"\n{sandbox}'
    )
    return path


def _problems(config: Path) -> list[str]:
    try:
        check_bots(load_config(config))
    except BotCheckError as error:
        return [str(problem) for problem in error.problems]
    return []


def test_a_program_on_the_hosts_path_outside_the_sandbox_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pyenv's shims, nvm's node, ~/.local/bin: on the organiser's PATH, but in
    no folder a sandbox binds. The check passed, then every game crashed with
    "prlimit: failed to execute ...: No such file or directory" and random
    stand-ins played all of them."""
    shim = _executable(tmp_path / "shims" / "mypython")
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    problems = _problems(_config(tmp_path, '["mypython", "bot.py"]'))
    assert problems == [
        f"bots[1].command: 'mypython' needs {shim}, which the bot's sandbox does not see (only "
        "its folder, its read_only paths and the system's runtime: /usr, /bin, /lib*, the "
        "Python running Sheepfold): name a program there, such as {python} or "
        "/usr/bin/node, or put it in the bot's folder"
    ]


def test_a_program_on_the_paths_the_configs_env_gives_is_checked_too(tmp_path: Path) -> None:
    """A name only on the `env`'s PATH is searched in the sandbox on that PATH."""
    tool = _executable(tmp_path / "tools" / "only-here")
    problems = _problems(
        _config(tmp_path, '["only-here"]', f'env = {{ PATH = "{tool.parent}" }}\n')
    )
    assert len(problems) == 1 and f"needs {tool}, which the bot's sandbox" in problems[0]


def test_an_absolute_path_or_a_link_out_of_the_bots_folder_is_refused(tmp_path: Path) -> None:
    outside = _executable(tmp_path / "elsewhere" / "run")
    assert len(_problems(_config(tmp_path, f'["{outside}"]'))) == 1
    (tmp_path / "bot" / "run").symlink_to(outside)
    problems = _problems(_config(tmp_path, '["./run"]'))
    assert len(problems) == 1 and f"needs {outside}, which the bot's sandbox" in problems[0]


def test_a_script_whose_interpreter_the_sandbox_cannot_see_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`#!/usr/bin/env node` looks for node on the sandbox's PATH; an absolute
    interpreter must be visible itself."""
    node = _executable(tmp_path / "nvm" / "nodelike")
    monkeypatch.setenv("PATH", f"{node.parent}{os.pathsep}{os.environ['PATH']}")
    script = tmp_path / "bot" / "bot.js"
    _executable(script).write_text("#!/usr/bin/env nodelike\n")
    problems = _problems(_config(tmp_path, '["./bot.js"]'))
    assert len(problems) == 1
    assert "needs nodelike (on no folder of the sandbox's PATH" in problems[0]
    script.write_text(f"#!{node} -x\n")
    problems = _problems(_config(tmp_path, '["./bot.js"]'))
    assert len(problems) == 1 and f"needs {node}, which the bot's sandbox" in problems[0]
    script.write_text("#!/usr/bin/env -S sh -e\n")
    assert _problems(_config(tmp_path, '["./bot.js"]')) == []


def test_programs_the_sandbox_sees_pass(tmp_path: Path) -> None:
    outside = _executable(tmp_path / "elsewhere" / "run")
    _executable(tmp_path / "bot" / "own")
    (tmp_path / "bot" / "bot.py").write_text("")  # the script is checked too
    for command in ('["{python}", "bot.py"]', '["./own"]', '["sh", "-c", "true"]'):
        assert _problems(_config(tmp_path, command)) == [], command
    # Its folder made visible with read_only, or the bot trusted and unsandboxed.
    read_only = 'sandbox = { read_only = ["elsewhere"] }\n'
    assert _problems(_config(tmp_path, f'["{outside}"]', read_only)) == []
    assert _problems(_config(tmp_path, f'["{outside}"]', "sandbox = false\n")) == []
