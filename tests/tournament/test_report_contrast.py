"""The stand-alone HTML report's crosstable: every figure readable on its heat
colour (4.5:1 or more, what small text needs). Its dark green ink read 3.98:1
on a 0% cell's red, and a bot's own cell's grey dot 2.58:1 on its pale ground."""

from __future__ import annotations

import re

import pytest

from tournament.report_html import STYLE, _heat

SMALL_TEXT_CONTRAST = 4.5


def _rule(selector: str) -> dict[str, str]:
    found = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", STYLE)
    assert found, selector
    declarations = (part.split(":", 1) for part in found.group(1).split(";") if ":" in part)
    return {name.strip(): value.strip() for name, value in declarations}


def _ink(*selectors: str) -> str:
    """The colour the first of `selectors` (most specific first) that sets one gives."""
    return next(rule["color"] for rule in map(_rule, selectors) if "color" in rule)


def _rgb(colour: str) -> tuple[float, float, float]:
    if colour.startswith("#"):
        digits = colour[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    found = re.fullmatch(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", colour)
    assert found, colour
    return tuple(float(part) for part in found.groups())  # type: ignore[return-value]


def _luminance(colour: str) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    lighter, darker = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_contrast_formula_gives_the_known_figures() -> None:
    assert _contrast("#000", "#fff") == pytest.approx(21.0)
    assert _contrast("#777", "#fff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("score", range(0, 101, 5))
def test_every_score_is_readable_on_its_heat_colour(score: int) -> None:
    ink = _ink(".report .heat td", ".report")
    assert _contrast(ink, _heat(float(score))) >= SMALL_TEXT_CONTRAST, (ink, _heat(score))


def test_a_bots_own_cell_is_readable() -> None:
    cell = _rule(".report .heat td.self")
    assert _contrast(cell["color"], cell["background"]) >= SMALL_TEXT_CONTRAST
