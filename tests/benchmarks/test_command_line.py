"""`python -m benchmarks` refuses what it cannot run before it runs anything:
a typo in a game name, a number out of range or a --json path it could never
write would otherwise show only after minutes of measuring (or as a traceback
that loses the results)."""

from __future__ import annotations

import errno
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import baseline_server, cli, listing
from benchmarks.procs import ROOT


def _usage_error(
    main: Callable[[list[str]], object], args: list[str], capsys: pytest.CaptureFixture[str]
) -> str:
    """What `main(args)` wrote to stderr, having exited 2 (a usage error)."""
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--engine-games", "stubborn-sheep,chess"], "unknown game 'chess'"),
        (["--players", "9"], "sheep-n-sheep takes 2 to 4 players"),
        (["--game", "sheep-showdown", "--players", "0"], "argument --players"),
        (["--seconds", "-1"], "argument --seconds"),
        (["--seconds", "0"], "argument --seconds"),
        (["--seconds", "nan"], "argument --seconds"),
        (["--engine-seconds", "inf"], "argument --engine-seconds"),
        (["--soak-seconds", "-5"], "argument --soak-seconds"),
        (["--memory-matches", "0"], "argument --memory-matches"),
        (["--soak-matches", "-1"], "argument --soak-matches"),
        (["--repeat", "0"], "argument --repeat"),
        (["--json", ""], "an empty path"),
    ],
)
def test_a_value_no_section_can_use_is_a_usage_error(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in _usage_error(cli.parse_args, args, capsys)


def test_a_json_path_that_cannot_be_written_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    for path, message in [
        (tmp_path, "is a folder"),
        (not_a_folder / "out.json", f"{not_a_folder} is not a folder"),
    ]:
        assert message in _usage_error(cli.parse_args, ["--json", str(path)], capsys)


def test_checking_the_json_path_leaves_no_file_and_keeps_an_old_one(tmp_path: Path) -> None:
    new = tmp_path / "sub" / "new.json"
    assert cli.parse_args(["--json", str(new)]).json == new
    assert not new.exists()
    old = tmp_path / "old.json"
    old.write_text("earlier results\n")
    cli.parse_args(["--json", str(old)])
    assert old.read_text() == "earlier results\n"


def test_results_that_cannot_be_written_at_the_end_are_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(*_args: object, **_kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", disk_full)
    out = tmp_path / "bench.json"
    quick = ["--quick", "--only", "engine", "--engine-games", "stubborn-sheep"]
    status = cli.main([*quick, "--engine-seconds", "0", "--json", str(out)])
    assert status == 1
    captured = capsys.readouterr()
    assert "Engine" in captured.out  # the tables were printed all the same
    assert captured.err.strip().splitlines()[-1] == (
        f"python -m benchmarks: cannot write {out}: No space left on device"
    )
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess", "--players", "2"], "invalid choice: 'chess'"),
        (["--game", "sheep-n-sheep", "--players", "9"], "sheep-n-sheep takes 2 to 4 players"),
        (["--game", "sheep-n-sheep", "--players", "2", "--port", "99999"], "not a port"),
        (["--game", "sheep-n-sheep", "--players", "2", "--transcripts", "0"], "--transcripts"),
    ],
)
def test_the_baseline_server_refuses_bad_values_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in _usage_error(baseline_server.main, args, capsys)


def test_the_baseline_server_on_a_taken_port_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        args = ["--game", "sheep-n-sheep", "--players", "2", "--transcripts", "1"]
        status = baseline_server.main([*args, "--port", str(port), "--loop", "asyncio"])
    assert status == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"python -m benchmarks.baseline_server: cannot listen on 127.0.0.1:{port}: "
        "address already in use"
    )


def test_the_baseline_server_stops_quietly_on_ctrl_c() -> None:
    args = ["--game", "sheep-n-sheep", "--players", "2", "--transcripts", "1"]
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.baseline_server", *args],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        assert "server started" in process.stderr.readline()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130
        assert process.stderr.read() == ""
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    "args",
    [["--matches", "0"], ["--matches", "3"], ["--ended", "-1"], ["--calls", "0"], ["--calls", "x"]],
)
def test_the_listing_benchmark_refuses_counts_it_cannot_measure(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Too few matches left its deep page with no match to start after, and no
    # call timed had no median: each ended in a traceback after the set-up.
    assert f"argument {args[0]}" in _usage_error(listing.main, args, capsys)
