"""The committed generated code must be exactly what protoc makes of proto/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "proto" / "sheepfold" / "v1"


def test_committed_generated_code_matches_a_fresh_generation(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "proto" / "generate.py"), "--out", str(tmp_path)],
        check=True,
    )
    fresh_dir = tmp_path / "sheepfold" / "v1"
    fresh = {p.name: p.read_bytes() for p in fresh_dir.iterdir() if "_pb2" in p.name}
    committed = {p.name: p.read_bytes() for p in GENERATED.iterdir() if "_pb2" in p.name}
    assert fresh, "protoc generated nothing"
    assert sorted(fresh) == sorted(committed), "generated files differ in name: run `make proto`"
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale generated code (run `make proto`): {stale}"


def test_every_proto_file_has_generated_code() -> None:
    for proto in GENERATED.glob("*.proto"):
        assert (GENERATED / f"{proto.stem}_pb2.py").exists(), proto.name
