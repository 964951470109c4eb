"""A config's wrong bot name or env name is quoted cut short in its error, as
every other field's wrong value is (games.options.brief): a whole number of
4,000 digits for a bot's name was quoted whole, a line of 4,000 characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.config import load_config
from tournament.config_fields import ConfigError

SHORT = 200


def _refusal(tmp_path: Path, bot: str) -> str:
    config = tmp_path / "cup.toml"
    config.write_text(
        f'name = "cup"\ngame = "sheep-n-sheep"\n{bot}\n[[bots]]\nname = "b"\nbuiltin = "random"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as refused:
        load_config(config)
    return str(refused.value)


def test_a_bot_name_that_is_a_huge_number_is_quoted_briefly(tmp_path: Path) -> None:
    said = _refusal(tmp_path, f'[[bots]]\nname = {"9" * 4000}\nbuiltin = "random"')
    assert said.startswith("bots[0].name: must be a string, not 9999"), said[:300]
    assert len(said) < SHORT, said[:300]


def test_a_long_env_name_is_quoted_briefly(tmp_path: Path) -> None:
    said = _refusal(
        tmp_path, f'[[bots]]\nname = "a"\ncommand = ["x"]\nenv = {{"{"k-" * 5000}" = "v"}}'
    )
    assert said.startswith("bots[0].env: 'k-k-k-"), said[:300]
    assert "a name is letters, digits and '_'" in said
    assert len(said) < SHORT, said[:300]
