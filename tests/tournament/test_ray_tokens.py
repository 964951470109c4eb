"""Without Ray: a Ray token file other users can read is warned of, never changed."""

from __future__ import annotations

import contextlib
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from tournament.config import load_config
from tournament.executors.ray_local import token_warnings
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, run_tournament

REPO = Path(__file__).resolve().parents[2]


def _token(path: Path, mode: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("f" * 64)
    path.chmod(mode)
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
    return tmp_path


def test_a_token_others_can_read_is_named_with_the_chmod_that_fixes_it(home: Path) -> None:
    token = _token(home / ".ray" / "auth_token", 0o644)
    (line,) = token_warnings()
    assert line.startswith("~/.ray/auth_token holds a Ray authentication token that other ")
    assert "(mode 0644)" in line and line.endswith("chmod 600 ~/.ray/auth_token"), line
    # Ray's file, the user's: left as it was.
    assert stat.S_IMODE(token.stat().st_mode) == 0o644 and token.read_text() == "f" * 64
    token.chmod(0o640)
    assert "(mode 0640)" in token_warnings()[0]


@pytest.mark.parametrize("mode", [0o600, 0o400, None])
def test_a_private_token_or_none_is_no_warning(home: Path, mode: int | None) -> None:
    if mode is not None:
        _token(home / ".ray" / "auth_token", mode)
    assert token_warnings() == []


def test_the_token_file_the_user_chose_is_checked_too(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = _token(home / "my tokens" / "ray", 0o644)
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(chosen))
    (line,) = token_warnings()
    assert line.startswith(f"{chosen} holds") and line.endswith(f"chmod 600 '{chosen}'"), line


@pytest.mark.parametrize("address", ["10.0.0.5:6379", None])
def test_a_ray_run_warns_of_it_once_ray_is_there(
    home: Path, address: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joined to a cluster or on an instance of its own (Ray itself stands in
    here: no Ray is started), the run warns before its first game."""
    from tournament.executors import ray_connect

    _token(home / ".ray" / "auth_token", 0o644)
    joined: list[dict[str, object]] = []

    @contextlib.contextmanager
    def ray_init(_settings: object, _env: object, own: dict[str, object]) -> Iterator[None]:
        joined.append(own)
        yield

    monkeypatch.setattr(ray_connect, "_ray_init", ray_init)
    monkeypatch.setattr(
        ray_connect, "own_instance", lambda: contextlib.nullcontext({"_temp_dir": "t"})
    )
    with capture_logs() as logs, ray_connect.connected(ExecutorSettings("ray", address), {}):
        pass
    assert joined == [{} if address else {"_temp_dir": "t"}]
    warned = [log["event"] for log in logs if log["log_level"] == "warning"]
    assert [line[:32] for line in warned] == ["~/.ray/auth_token holds a Ray au"], logs


def test_a_wrong_address_is_still_one_line(home: Path) -> None:
    """The warning waits for Ray: a run that cannot join says that alone."""
    _token(home / ".ray" / "auth_token", 0o644)
    config = load_config(REPO / "examples" / "round-robin.toml")
    with capture_logs() as logs, pytest.raises(RunError, match="nothing listens"):
        run_tournament(
            config,
            database=str(home / "x.sqlite"),
            executor=ExecutorSettings(kind="ray", address="127.0.0.1:1"),
        )
    assert not [log for log in logs if "auth_token" in str(log.get("event"))], logs
