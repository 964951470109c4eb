"""What a client sees of a match this server no longer hosts, built from the
stored rows alone: no game is replayed to answer GetMatch, ListMatches or
GetReplay for a finished match."""

from __future__ import annotations

from collections.abc import Sequence

from sheepfold.v1 import arena_pb2

from server.records import ClockConfig, MatchRecord, MatchSummary, RecordedMove, stored_result

STORED_STATUS = {
    "running": arena_pb2.MATCH_STATUS_RUNNING,
    "finished": arena_pb2.MATCH_STATUS_FINISHED,
    "aborted": arena_pb2.MATCH_STATUS_ABORTED,
}


def clock_settings(clock: ClockConfig) -> arena_pb2.ClockSettings:
    return arena_pb2.ClockSettings(
        decision_seconds=clock.decision_seconds,
        time_bank_seconds=clock.time_bank_seconds,
        max_strikes=clock.max_strikes,
    )


def info_head(
    record: MatchRecord, status: arena_pb2.MatchStatus, moves: int
) -> arena_pb2.MatchInfo:
    """The part of a MatchInfo a live and a stored match share: no seats, result or seed."""
    return arena_pb2.MatchInfo(
        match_id=record.match_id,
        game=record.game,
        players=record.players,
        options=record.options,
        status=status,
        moves=moves,
        clock=clock_settings(record.clock),
        created_at=record.created_at,
    )


def match_info(summary: MatchSummary) -> arena_pb2.MatchInfo:
    record = summary.record
    info = info_head(record, STORED_STATUS[summary.status], summary.moves)
    result = stored_result(summary.record.match_id, summary.result)
    if result is not None:
        info.result.CopyFrom(result)
        info.seats.extend(info.result.seats)
        for seat in info.seats:
            seat.connected = False  # nobody is connected to a match that is over
    else:
        info.seats.extend(
            arena_pb2.SeatInfo(seat=i, time_bank_seconds=record.clock.time_bank_seconds)
            for i in range(record.players)
        )
    if summary.status != "running":
        # The seed fixes every deck order: it is only revealed once nothing is hidden.
        info.seed = record.seed
    return info


def replay_message(
    record: MatchRecord, moves: Sequence[RecordedMove], result: arena_pb2.MatchResult | None
) -> arena_pb2.Replay:
    """The full record: game, options, seed and every action, forced or not."""
    replay = arena_pb2.Replay(
        match_id=record.match_id,
        game=record.game,
        players=record.players,
        options=record.options,
        seed=record.seed,
        rules_version=record.rules_version,
        actions=[
            arena_pb2.RecordedAction(
                move=m.move,
                seat=m.seat,
                action_index=m.index,
                label=m.label,
                forced=bool(m.forced),
            )
            for m in moves
        ],
        clock=clock_settings(record.clock),
    )
    if result is not None:
        replay.result.CopyFrom(result)
    return replay
