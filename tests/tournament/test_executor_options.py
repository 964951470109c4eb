"""`[executor]` and `--ray`: parsing, bad input, and no Ray import without them.

No test here starts Ray (those run in tests/ray, in a private network namespace):
an unreachable address is refused before Ray is asked to connect.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.tournament.tournament_command import tournament_main
from tournament.config import ConfigError, load_config, parse_config
from tournament.executors.settings import ExecutorSettings
from tournament.runner import RunError, run_tournament

REPO = Path(__file__).resolve().parents[2]
BOTS = [{"name": "a", "builtin": "random"}, {"name": "b", "builtin": "random"}]


def _parse(executor: object) -> ExecutorSettings:
    raw = {"game": "sheep-showdown", "bots": BOTS, "executor": executor}
    return parse_config(raw).executor


def test_the_executor_table_is_read_and_defaults_to_local() -> None:
    assert parse_config({"game": "sheep-showdown", "bots": BOTS}).executor == ExecutorSettings()
    settings = _parse({"kind": "ray", "num_cpus": 2, "cpus_per_game": 0.5, "max_retries": 1})
    assert settings.is_ray and settings.address is None
    assert (settings.num_cpus, settings.cpus_per_game, settings.max_retries) == (2, 0.5, 1)
    assert _parse({"kind": "ray", "address": "10.0.0.5:6379"}).address == "10.0.0.5:6379"


@pytest.mark.parametrize(
    ("table", "field", "words"),
    [
        ({"kind": "slurm"}, "executor.kind", "must be one of local, ray"),
        ({"kind": "ray", "cpus": 2}, "executor.cpus", "unknown key"),
        ({"address": "h:1"}, "executor.kind", 'need kind = "ray"'),
        ({"kind": "ray", "num_cpus": 0}, "executor.num_cpus", "at least 1"),
        ({"kind": "ray", "address": "h:1", "num_cpus": 2}, "executor.num_cpus", "started here"),
        ({"kind": "ray", "cpus_per_game": 0}, "executor.cpus_per_game", "above 0"),
        ("ray", "executor.kind", "must be a table"),
    ],
)
def test_a_bad_executor_table_names_its_field(table: object, field: str, words: str) -> None:
    with pytest.raises(ConfigError) as raised:
        _parse(table)
    assert raised.value.field == field and words in str(raised.value)


def test_an_unreachable_ray_address_is_one_clear_error_before_any_game(tmp_path: Path) -> None:
    config = load_config(REPO / "examples" / "round-robin.toml")
    db = tmp_path / "never.sqlite"
    started = time.monotonic()
    with pytest.raises(RunError) as raised:
        run_tournament(
            config,
            database=str(db),
            executor=ExecutorSettings(kind="ray", address="127.0.0.1:1"),
        )
    assert "nothing listens at 127.0.0.1:1 (connection refused)" in str(raised.value)
    assert time.monotonic() - started < 20 and not db.exists()


def test_the_cli_reports_an_unreachable_ray_address_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = REPO / "examples" / "round-robin.toml"
    code = tournament_main(
        ["run", str(config), "--db", str(tmp_path / "x.sqlite"), "--ray", "127.0.0.1:1"]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2  # a wrong address is a usage error, as a bad config is
    assert err == [
        "sheepfold tournament: cannot join a Ray cluster: nothing listens at 127.0.0.1:1 "
        "(connection refused)"
    ]
    assert not any("Traceback" in line for line in err)


def test_ray_cpus_without_a_local_ray_instance_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(REPO / "examples" / "round-robin.toml")
    db = str(tmp_path / "x.sqlite")
    assert tournament_main(["run", config, "--db", db, "--ray-cpus", "2"]) == 2
    assert tournament_main(["run", config, "--db", db, "--ray", "h:1", "--ray-cpus", "2"]) == 2
    assert "--ray-cpus N (N >= 1) is for the Ray instance" in capsys.readouterr().err


def test_several_servers_need_ray(tmp_path: Path) -> None:
    config = load_config(REPO / "examples" / "round-robin.toml")
    with pytest.raises(RunError, match="several --server addresses need --ray"):
        run_tournament(config, server="127.0.0.1:1,127.0.0.1:2", database=str(tmp_path / "x"))


def test_several_servers_without_ray_are_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tournament run --server A,B` without --ray, the one-server-per-core
    recipe's servers given to a local run, exited 1 as if the run had failed,
    where `tournament sprt --server A,B` and --ray flags without --ray exit 2."""
    config = str(REPO / "examples" / "round-robin.toml")
    db = tmp_path / "x.sqlite"
    servers = "127.0.0.1:1,127.0.0.1:2"
    assert tournament_main(["run", config, "--db", str(db), "--server", servers]) == 2
    assert "several --server addresses need --ray" in capsys.readouterr().err
    assert not db.exists()


@pytest.mark.parametrize(
    ("servers", "words"),
    [
        ("127.0.0.1:99999,127.0.0.1:50051", "99999 is not a port: use 1 to 65535"),
        ("garbage,127.0.0.1:50051", "'garbage' is not HOST:PORT"),
        ("127.0.0.1:50051,,127.0.0.1:50052", "an empty address between its commas"),
        # No comma at all: it once said "'' has an empty address between its commas".
        ("", "'' is not HOST:PORT"),
    ],
)
def test_every_one_of_several_servers_is_checked_before_anything_starts(
    servers: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the last address of the list was checked: a bad port before it was
    dialled modulo 65536 (99999 as 34463) by the Ray tasks, after Ray started,
    and reported as a server that cannot be reached."""
    config = str(REPO / "examples" / "round-robin.toml")
    argv = ["run", config, "--db", str(tmp_path / "x.sqlite"), "--ray", "127.0.0.1:1"]
    with pytest.raises(SystemExit) as exited:
        tournament_main([*argv, "--server", servers])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "argument --server:" in err and words in err, err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_local_run_never_imports_ray(tmp_path: Path) -> None:
    """Ray is an optional extra: a run without --ray must work where it is not installed."""
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-showdown"\ngames_per_pairing = 1\n[options]\nrounds = 1\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    script = f"""
import sys
from cli.main import main
code = main(["tournament", "run", {str(config)!r},
             "--db", {str(tmp_path / "local.sqlite")!r}, "--no-report"])
assert code == 0, code
loaded = sorted(name for name in sys.modules if name == "ray" or name.startswith("ray."))
print("RAY MODULES:", loaded)
"""
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "RAY MODULES: []" in result.stdout, result.stdout


def test_the_kuberay_example_is_a_valid_tournament_on_ray(tmp_path: Path) -> None:
    """deploy/kuberay: the ConfigMap's config loads, asks for Ray, and is the file
    the RayJob's driver runs with --ray."""
    import yaml

    documents = list(yaml.safe_load_all((REPO / "deploy/kuberay/tournament-job.yaml").read_text()))
    kinds = {doc["kind"]: doc for doc in documents}
    assert set(kinds) == {"ConfigMap", "PersistentVolumeClaim", "RayJob"}
    ((name, text),) = kinds["ConfigMap"]["data"].items()
    (tmp_path / name).write_text(text)
    config = load_config(tmp_path / name)
    assert config.executor.is_ray and config.executor.address is None
    job = kinds["RayJob"]["spec"]
    assert f"/tournament/{name}" in job["entrypoint"] and "--ray" in job["entrypoint"]
    head = job["rayClusterSpec"]["headGroupSpec"]
    mounts = {
        m["name"]: m["mountPath"] for m in head["template"]["spec"]["containers"][0]["volumeMounts"]
    }
    assert mounts["config"] == "/tournament" and "--db " + mounts["results"] in job["entrypoint"]


def test_an_sprt_run_with_several_servers_stops_before_its_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tournament run` of an SPRT config took `--server A,B` for one host name:
    "cannot reach the server at A,B: the host name does not resolve", after
    creating the database."""
    config = str(REPO / "examples" / "sprt.toml")
    db = tmp_path / "x.sqlite"
    servers = "127.0.0.1:1,127.0.0.1:2"
    assert tournament_main(["run", config, "--db", str(db), "--server", servers]) == 2
    err = capsys.readouterr().err
    assert f"an SPRT plays on one server, and --server names several: {servers}" in err
    assert not db.exists()


@pytest.mark.parametrize("bad", [2.9, 51, 0, -5, math.nan, math.inf, "5", True])
def test_a_head_timeout_outside_its_range_names_the_range(bad: object) -> None:
    with pytest.raises(ConfigError) as raised:
        _parse({"kind": "ray", "head_timeout_seconds": bad})
    assert raised.value.field == "executor.head_timeout_seconds"
    assert "from 3 to 50" in str(raised.value), raised.value


def test_the_head_timeout_is_read_and_defaults_to_5_seconds() -> None:
    assert _parse({"kind": "ray"}).head_timeout_seconds == 5.0
    for seconds in (3, 30, 50):
        assert _parse({"kind": "ray", "head_timeout_seconds": seconds}).head_timeout_seconds == (
            float(seconds)
        )


def _run_settings(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> ExecutorSettings:
    """The executor settings `tournament run ARGV` would play with (nothing is played)."""
    import cli.tournament

    seen: list[ExecutorSettings] = []

    def played(
        _args: object,
        _config: object,
        _progress: object,
        executor: object,
        _tls: object,
        _checked: object,
    ) -> int:
        assert isinstance(executor, ExecutorSettings)
        seen.append(executor)
        return 0

    monkeypatch.setattr(cli.tournament, "_run_and_report", played)
    config = str(REPO / "examples" / "round-robin.toml")
    assert tournament_main(["run", config, "--db", str(tmp_path / "x.sqlite"), *argv]) == 0
    (settings,) = seen
    return settings


def test_ray_head_timeout_sets_how_long_the_head_may_be_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _run_settings(["--ray", "--ray-head-timeout", "30"], tmp_path, monkeypatch)
    assert settings.is_ray and settings.head_timeout_seconds == 30.0
    assert _run_settings(["--ray"], tmp_path, monkeypatch).head_timeout_seconds == 5.0


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("2", "'2' is too short: at least 3 seconds"),
        ("51", "'51' is too long: at most 50 seconds"),
        ("nan", "'nan' must be a finite number > 0"),
    ],
)
def test_a_ray_head_timeout_outside_its_range_is_a_usage_error(
    value: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(REPO / "examples" / "round-robin.toml")
    argv = ["run", config, "--db", str(tmp_path / "x.sqlite"), "--ray", "127.0.0.1:1"]
    with pytest.raises(SystemExit) as exited:
        tournament_main([*argv, "--ray-head-timeout", value])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"argument --ray-head-timeout: {words}" in err, err
    assert not (tmp_path / "x.sqlite").exists()


def test_ray_head_timeout_without_ray_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(REPO / "examples" / "round-robin.toml")
    db = tmp_path / "x.sqlite"
    assert tournament_main(["run", config, "--db", str(db), "--ray-head-timeout", "30"]) == 2
    assert "--ray-head-timeout SECONDS is for a run on Ray" in capsys.readouterr().err
    assert not db.exists()


def test_the_head_watch_waits_the_head_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a Ray cluster: the watch on the head joined is given the setting."""
    from tournament.executors.ray_connect import head_watch

    context = SimpleNamespace(gcs_address="10.0.0.5:6379")
    ray = SimpleNamespace(get_runtime_context=lambda: context)
    monkeypatch.setitem(sys.modules, "ray", ray)
    watch = head_watch(ExecutorSettings(kind="ray", head_timeout_seconds=30.0))
    assert watch is not None
    assert (watch.address, watch.lost_after) == ("10.0.0.5:6379", 30.0)


@pytest.mark.parametrize("address", ["", " "])
def test_an_empty_ray_address_is_a_usage_error_not_a_ray_instance_here(
    address: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--ray "$HEAD"` with HEAD unset once started a Ray instance on this machine
    and played there, as `--ray` alone does, where the organiser meant a cluster."""
    import cli.tournament

    played: list[object] = []
    monkeypatch.setattr(cli.tournament, "_run_and_report", lambda *args: played.append(args) or 0)
    config = str(REPO / "examples" / "round-robin.toml")
    with pytest.raises(SystemExit) as exited:
        tournament_main(["run", config, "--db", str(tmp_path / "x.sqlite"), "--ray", address])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and not played, err
    assert f"argument --ray: {address!r} is not a Ray address" in err, err
    assert "leave ADDRESS out" in err, err
    assert not (tmp_path / "x.sqlite").exists()
