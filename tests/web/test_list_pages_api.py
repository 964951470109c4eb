"""/api/matches/page: every match, a page at a time, each page's JSON naming
the next; a page token that is no page is a 400 with the reason, as JSON."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.server.stored_matches import GAMES
from tests.web.many_matches import STORED, every_match, many_matches

pytestmark = pytest.mark.e2e


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_pages_add_up_to_every_match_and_bad_tokens_are_refused(tmp_path: Path) -> None:
    with many_matches(tmp_path) as viewer:
        for game in ("", GAMES[0]):
            listed: list[str] = []
            query = {"game": game} if game else {}
            while True:
                status, page = _get(
                    f"{viewer.url}/api/matches/page?{urllib.parse.urlencode(query)}"
                )
                assert status == 200, page
                listed += [m["match_id"] for m in page["matches"]]
                if page["next_page"] is None:
                    break
                assert len(page["matches"]) == 200
                query["page"] = page["next_page"]
            assert listed == every_match(viewer, game)
            assert len(listed) == (STORED if not game else STORED // 2)
        token = _get(f"{viewer.url}/api/matches/page")[1]["next_page"]
        for query in (
            {"page": "nonsense"},
            {"page": "A" * 5000},
            {"page": token, "game": GAMES[1]},
        ):
            status, answer = _get(f"{viewer.url}/api/matches/page?{urllib.parse.urlencode(query)}")
            assert status == 400, answer
            assert "holds no page of the matches list" in answer["error"], answer
        status, answer = _get(f"{viewer.url}/api/matches/page?game=chess")
        assert status == 400 and "unknown game" in answer["error"]
