"""What a container needs for the bot sandbox, checked in the Dockerfile and its docs
(statically: no container runtime is needed to run the tests)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
NEEDED = (
    "--security-opt seccomp=unconfined",
    "--security-opt apparmor=unconfined",
    "--security-opt systempaths=unconfined",
)


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"^\s*#.*\n", "", DOCKERFILE, flags=re.MULTILINE).replace("\\\n", " ")
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in (raw.strip() for raw in text.splitlines())
        if line
    ]


def test_the_image_installs_bubblewrap() -> None:
    runs = [args for kind, args in _instructions() if kind == "RUN"]
    assert any(re.search(r"apt-get install\b.*\bbubblewrap\b", run) for run in runs), (
        "the image must install the Debian package bubblewrap"
    )


def test_the_image_runs_as_an_unprivileged_user() -> None:
    users = [args.strip() for kind, args in _instructions() if kind == "USER"]
    assert users and users[-1] not in ("root", "0"), "the last USER must not be root"


def test_the_container_flags_the_sandbox_needs_are_documented_in_both_places() -> None:
    for flag in NEEDED:
        assert flag in DOCKERFILE.replace("\\\n#", ""), f"Dockerfile comment lacks {flag}"
        assert flag in OPERATIONS.replace("\\\n", ""), f"docs/operations.md lacks {flag}"
