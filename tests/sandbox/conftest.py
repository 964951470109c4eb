"""Tests of the bot sandbox: they need bubblewrap and FAIL, never skip, without it.

Their fixture, `sandbox_ready`, lives in tests/conftest.py: every test that uses
it is marked `sandbox`, which `make test` runs as a step of its own.
"""
