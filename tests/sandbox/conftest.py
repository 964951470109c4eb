"""Tests of the bot sandbox: they need bubblewrap and FAIL, never skip, without it."""

from __future__ import annotations

import pytest

from clients.launch import Launcher, SandboxUnavailable


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Fails the test with the sandbox's own message (what to install) when it cannot run."""
    try:
        Launcher().check()
    except SandboxUnavailable as error:
        pytest.fail(f"the bot sandbox cannot run on this machine: {error}")
