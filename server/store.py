"""Where matches are kept. The server writes every action before it asks for
the next decision, so a store that survives a crash lets the server restore
every unfinished match by replaying seed and actions."""

from __future__ import annotations

from typing import Protocol

from server.records import MatchRecord, RecordedMove, StoredMatch


class Store(Protocol):
    def create_match(self, record: MatchRecord) -> None: ...

    def record_move(self, match_id: str, move: RecordedMove) -> None: ...

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None: ...

    def load(self, match_id: str) -> StoredMatch | None: ...

    def unfinished(self) -> list[StoredMatch]: ...

    def recent(self, game: str, status: str, limit: int) -> list[StoredMatch]:
        """The newest matches, newest first; empty `game`/`status` match all."""
        ...

    def close(self) -> None: ...


class MemoryStore:
    """Keeps everything in this process: lost when the server stops."""

    def __init__(self) -> None:
        self._matches: dict[str, StoredMatch] = {}

    def create_match(self, record: MatchRecord) -> None:
        self._matches[record.match_id] = StoredMatch(record)

    def record_move(self, match_id: str, move: RecordedMove) -> None:
        self._matches[match_id].moves.append(move)

    def finish_match(self, match_id: str, status: str, result: bytes, end_reason: str) -> None:
        stored = self._matches[match_id]
        stored.status = status
        stored.result = result
        stored.end_reason = end_reason

    def load(self, match_id: str) -> StoredMatch | None:
        return self._matches.get(match_id)

    def unfinished(self) -> list[StoredMatch]:
        return [m for m in self._matches.values() if m.status == "running"]

    def recent(self, game: str, status: str, limit: int) -> list[StoredMatch]:
        found = [
            m
            for m in self._matches.values()
            if (not game or m.record.game == game) and (not status or m.status == status)
        ]
        found.sort(key=lambda m: m.record.created_at, reverse=True)
        return found[:limit]

    def close(self) -> None:
        self._matches.clear()
