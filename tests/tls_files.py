"""A throwaway self-signed certificate for TLS tests (openssl, as an operator makes one)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key, in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def encrypted(key: Path, pass_phrase: str = "secret") -> Path:
    """`key` encrypted with `pass_phrase`, beside it, as `openssl req` without
    `-nodes` leaves a key."""
    out = key.with_name(f"encrypted-{key.name}")
    arguments = ["pkey", "-in", str(key), "-aes256", "-out", str(out)]
    subprocess.run(
        ["openssl", *arguments, "-passout", f"pass:{pass_phrase}"],
        check=True,
        capture_output=True,
    )
    return out
