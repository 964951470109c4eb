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


CA_CONFIG = """\
[ca]
default_ca = dated
[dated]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any_name
[any_name]
commonName = supplied
[names]
subjectAltName = DNS:localhost,IP:127.0.0.1
"""


def dated_self_signed(directory: Path, start: str, end: str) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 valid from `start`
    to `end` (YYYYMMDDHHMMSSZ), and its key: `openssl ca` sets dates in the past
    or the future, which `openssl req -x509 -days` cannot."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "index.txt").write_text("")
    (directory / "serial").write_text("01\n")
    (directory / "ca.cnf").write_text(CA_CONFIG)
    cert, key = directory / "cert.pem", directory / "key.pem"
    openssl = ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost"]
    run = {"cwd": directory, "check": True, "capture_output": True}
    subprocess.run([*openssl, "-keyout", str(key), "-out", "request.csr"], **run)  # type: ignore[call-overload]
    subprocess.run(
        [
            "openssl", "ca", "-batch", "-selfsign", "-config", "ca.cnf", "-keyfile", str(key),
            "-in", "request.csr", "-out", str(cert), "-extensions", "names",
            "-startdate", start, "-enddate", end,
        ],
        **run,  # type: ignore[arg-type]
    )  # fmt: skip
    return cert, key
