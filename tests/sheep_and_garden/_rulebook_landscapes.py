"""Landscapes shared by the rulebook sentence tests (test_rules_*.py)."""

from __future__ import annotations

# Four road bends closing a ring: the grass inside the ring (one cow) touches no edge
# but road segments.
ROAD_RING = (
    ("road bend", 0, 0, 3),
    ("garden lane", 1, 0, 0),
    ("city corner with road bend", 0, 1, 2),
    ("garden road bend", 1, 1, 2),
)


# A complete city in an L (a heart): 1 city, 1 human, 3 houses, 1 land.
HEART = [("city corner", 0, 0, 0), ("city cap", 0, -1, 2), ("twin city caps", 1, 0, 3)]


# A stream with a spring on its north end; a spring on its south end closes the lake.
STREAM_OPEN_SOUTH = (("stream", 0, 0, 0), ("spring", 0, -1, 2))
