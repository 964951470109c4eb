"""Generate the Python gRPC code for proto/sheepfold/v1/*.proto.

`python proto/generate.py` writes next to the .proto files (what is committed);
`python proto/generate.py --out DIR` writes elsewhere, which the freshness test
uses to compare a new generation with the committed one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent


def proto_files() -> list[Path]:
    return sorted((PROTO_ROOT / "sheepfold" / "v1").glob("*.proto"))


def generate(out: Path) -> None:
    from grpc_tools import protoc

    out.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *(str(path.relative_to(PROTO_ROOT)) for path in proto_files()),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=PROTO_ROOT, help="output root")
    generate(parser.parse_args().out)


if __name__ == "__main__":
    sys.exit(main())
