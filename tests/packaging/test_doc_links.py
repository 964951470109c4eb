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


# A section named in the prose rather than linked: (docs/operations.md, "Security"),
# "Running untrusted bots" in [docs/operations.md](...).
QUOTED_AFTER = re.compile(r"((?:\.\./|docs/)?[\w/-]+\.md)(?:#[\w-]+)?\)?,\s+\"([^\"]+)\"")
QUOTED_BEFORE = re.compile(r"\"([^\"]+)\"\s+in\s+\[?((?:\.\./|docs/)?[\w/-]+\.md)")
# A bold paragraph lead, `**One server per core.**` or `- **Result.** ...`, names a section too.
BOLD_LEAD = re.compile(r"^(?:\s*[-*]\s+)?\*\*([^*]+)\*\*", re.M)


def _section_names(page: Path) -> list[str]:
    prose = _prose(page)
    headings = [re.sub(r"^\d+\.\s+", "", heading) for heading in HEADING.findall(prose)]
    return [" ".join(name.split()) for name in [*headings, *BOLD_LEAD.findall(prose)]]


def _quoted_sections(page: Path) -> list[tuple[str, str]]:
    prose = _prose(page)
    before = [(path, name) for name, path in QUOTED_BEFORE.findall(prose)]
    return [(path, " ".join(name.split())) for path, name in QUOTED_AFTER.findall(prose) + before]


def _unknown_sections(page: Path) -> list[str]:
    unknown = []
    for path, name in _quoted_sections(page):
        candidates = [page.parent / path, ROOT / path, ROOT / "docs" / path]
        linked = next((candidate for candidate in candidates if candidate.exists()), None)
        where = f'{page.relative_to(ROOT)}: {path}, "{name}"'
        if linked is None:
            unknown.append(f"{where}: no file {path}")
        elif not any(section.startswith(name) for section in _section_names(linked)):
            unknown.append(f"{where}: no such heading or bold paragraph lead")
    return unknown


def test_every_section_the_docs_name_in_quotes_exists() -> None:
    """`(docs/operations.md, "One server per core")` is no link, so the check
    above never saw it: a renamed section left the reader hunting for a name
    the page no longer has."""
    quoted = [pair for page in _pages() for pair in _quoted_sections(page)]
    unknown = [problem for page in _pages() for problem in _unknown_sections(page)]
    assert len(quoted) >= 15 and unknown == []
