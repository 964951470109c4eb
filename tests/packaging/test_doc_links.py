"""Every relative link in README.md and docs/ leads somewhere: the file exists,
and a `#anchor` names a heading of that page as GitHub spells it. Headings get
renamed and pages move; a link that silently lands at the top of a page (or
nowhere) is the docs' most common kind of rot."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _prose(page: Path) -> str:
    """The page without its fenced code blocks (a `# comment` there is no heading)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped, lower case,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(_prose(page)):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(ROOT)}: ({target})"
        if not linked.exists():
            broken.append(f"{where}: no file {path}")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{where}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    return broken


def test_every_relative_link_and_anchor_in_the_docs_resolves() -> None:
    broken = [problem for page in _pages() for problem in _broken_links(page)]
    assert broken == []


def test_the_checker_sees_links_and_headings() -> None:
    """The check above cannot pass by finding nothing."""
    readme = ROOT / "README.md"
    assert LINK.findall(_prose(readme)), "README.md has relative links"
    assert "run-a-tournament" in _anchors(readme)
    assert _slug("SPRT: is the candidate stronger?") == "sprt-is-the-candidate-stronger"
    assert _slug("9. Watch (spectators)") == "9-watch-spectators"


# A repository path quoted as code in the prose: `tests/web/test_http.py`, `deploy/kuberay/`.
CODE_PATH = re.compile(
    r"`((?:benchmarks|cli|clients|deploy|docs|examples|games|proto|server|tests|tournament|web)"
    r"/[\w./*-]*)`"
)
# Written by a command, git-ignored: named in the docs, never committed.
GENERATED = ("benchmarks/results/",)


def test_every_repository_path_the_docs_quote_exists() -> None:
    """Files get moved and renamed; the docs' `path/to/file` spans are not links
    and were checked by nothing."""
    quoted = {
        path.rstrip(".")
        for page in _pages()
        for path in CODE_PATH.findall(page.read_text(encoding="utf-8"))
        if not path.startswith(GENERATED)
    }
    missing = sorted(path for path in quoted if not any(ROOT.glob(path.rstrip("/"))))
    assert len(quoted) >= 50 and missing == []
