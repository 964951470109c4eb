"""Error messages are cut to what a client accepts in its trailers."""

from __future__ import annotations

import pytest

from server.status import MAX_DETAILS, MAX_ENCODED, brief, encoded_size


@pytest.mark.parametrize(
    "details",
    [
        "x" * 100_000,
        "\u2603" * 2_000,  # nine bytes each once encoded: 1,000 of them were 9 KB
        "%" * 5_000,
        "a\u2603" * 3_000,
        "\U0001f411" * 1_500,  # a sheep: four UTF-8 bytes, twelve encoded
    ],
)
def test_long_messages_are_cut_below_the_soft_limit(details: str) -> None:
    cut = brief(details)
    assert cut.endswith("...") and details.startswith(cut[:-3])
    assert len(cut) <= MAX_DETAILS and encoded_size(cut) <= MAX_ENCODED


def test_short_messages_are_kept_whole() -> None:
    for details in ("no match 'abc'", "\u2603" * 400, "y" * MAX_DETAILS):
        assert brief(details) == details


def test_the_encoded_size_counts_three_bytes_for_each_escaped_one() -> None:
    assert encoded_size("ab c") == 4
    assert encoded_size("100%") == 6
    assert encoded_size("\u2603") == 9
