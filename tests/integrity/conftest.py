"""Fixtures shared by the integrity tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import structlog


@pytest.fixture
def info_lines() -> Iterator[None]:
    """Info lines pass, whatever level a command run earlier in this process set."""
    before = structlog.get_config()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))
    try:
        yield
    finally:
        structlog.configure(**before)
