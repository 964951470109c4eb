"""`python -m benchmarks.compile_engines` builds its copy from the committed
tree and a patch: the patch must keep applying as the engines change, and the
patched engines must still play (interpreted, as the copy is before mypyc
compiles it). Compiling itself takes minutes and a C compiler, so it is not run
here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import compile_engines

# Each game's state, a random game to its end, and a clone on the way: the
# patch changes how states are built blank (clone, hand-built positions).
_PLAY = """
import random
import games
for name in ("sheep-n-sheep", "sheep-showdown", "stubborn-sheep", "sheep-and-garden"):
    state = games.get(name).new_state(2, seed=3)
    rng = random.Random(3)
    steps = 0
    while not state.terminal:
        if steps == 20:
            twin = state.clone()
            assert twin.legal_actions() == state.legal_actions(), name
        state.apply(rng.choice(list(state.legal_actions())))
        steps += 1
    print(name, steps)
"""


def test_the_patched_copy_plays_every_game(tmp_path: Path) -> None:
    compile_engines.copy_tree(tmp_path)
    assert "@trait" in (tmp_path / "games" / "sheep_n_sheep" / "legal.py").read_text()
    listed = compile_engines.modules(tmp_path)
    assert "games/sheep_n_sheep/state.py" in listed
    assert not any(path.endswith(("/ai.py", "/actions.py")) for path in listed)
    played = subprocess.run(
        [sys.executable, "-c", _PLAY], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    assert len(played.stdout.splitlines()) == 4


def test_a_directory_in_use_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(SystemExit) as exit_:
        compile_engines.main([str(tmp_path)])
    assert exit_.value.code == 2
    assert "not an empty directory" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
