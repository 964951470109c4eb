"""`sheepfold replay MATCH_ID --db FILE [--json]`: a finished match, move by move.

FILE is a server's database or a tournament's (cli/replay_source.py tells them
apart). The match is rebuilt by replaying its seed and recorded action indices
through the engine, printing after each move what happened (every event, the
private ones marked, since the match is over) and the game's own text rendering.
The scores the engine ends with are checked against the stored result.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

import games
from cli.lock_wait import add_wait_argument, lock_wait
from cli.replay_legend import help_epilog, legend
from cli.values import file_path
from games.errors import RulesChanged
from games.options import options_line
from games.solo_title import solo_title
from games.words import count, noun, seats

if TYPE_CHECKING:
    from sheepfold.v1 import arena_pb2

    from cli.replay_source import MatchToReplay

EXIT_MISMATCH = 2


# What a newcomer who just ran `sheepfold match` (and got a match id) needs to know.
NO_FILE_HINT = (
    " (replay reads what `sheepfold serve --db` or a tournament stores; "
    "`sheepfold match` without --server keeps no record)"
)


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "replay",
        help="print a finished match move by move",
        # The raw formatter keeps the epilog's board legends as drawn, and so
        # this text as broken here: argparse would not wrap it.
        description="Print a finished match move by move, from a server's database or a\n"
        "tournament's, with each game's text rendering after every move, and check\n"
        "that replaying the record through the engine gives the stored scores (exit 2\n"
        "if not).",
        epilog=help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "match_id", help="the match id (printed by create, tournament run, and match --server)"
    )
    parser.add_argument(
        "--db",
        type=file_path,
        default="sheepfold.db",
        help="a server's or a tournament's SQLite file (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    add_wait_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cli.replay_source import SourceError, load

    try:
        match = load(args.db, args.match_id, lock_wait("sheepfold replay", args, args.db))
    except SourceError as error:
        missing = str(error) == f"no database at {args.db}"
        print(f"sheepfold replay: {error}{NO_FILE_HINT if missing else ''}", file=sys.stderr)
        return 1
    if match.game not in games.names():
        print(f"sheepfold replay: unknown game {match.game!r} in {args.db}", file=sys.stderr)
        return 1
    try:
        games.get(match.game).check_rules_version(match.rules_version)
    except RulesChanged as error:
        print(f"sheepfold replay: match {args.match_id} was {error}", file=sys.stderr)
        return 1
    try:
        replay = build_replay(match)
    except games.InvalidOptions as error:
        # The row's options, as stored, edited by hand into ones the game
        # refuses (build_replay's first step): they once ended this command in
        # a traceback.
        print(
            f"sheepfold replay: match {args.match_id} in {args.db} cannot be replayed: "
            f"its stored options do not read ({error})",
            file=sys.stderr,
        )
        return 1
    print(json.dumps(replay, sort_keys=True) if args.json else format_replay(replay))
    return 0 if replay["verified"] else EXIT_MISMATCH


def build_replay(match: MatchToReplay) -> dict[str, Any]:
    """The whole match as plain data, rebuilt through the engine."""
    game = games.get(match.game)
    state = game.new_state(match.players, match.seed, match.options)
    moves = []
    problems = []
    for move in match.moves:
        actions = state.legal_actions()
        if not 0 <= move.index < len(actions):
            problems.append(
                f"move {move.move}: index {move.index} but only {len(actions)} legal actions"
            )
            break
        action = actions[move.index]
        if action.label != move.label:
            problems.append(
                f"move {move.move}: the record says {move.label!r}, the engine {action.label!r}"
            )
        events = state.apply(action)
        moves.append(
            {
                "move": move.move,
                "seat": move.seat,
                "action_index": move.index,
                "label": action.label,
                "forced": move.forced,
                "events": [
                    {"text": event.payload.text, "private_to": event.seat} for event in events
                ],
                "render": state.render(),
            }
        )
    engine = state.result() if state.terminal else None
    stored_result = match.result
    if engine is None:
        problems.append("the recorded actions do not finish the game")
    elif stored_result is not None and list(stored_result.scores) != [
        float(s) for s in engine.scores
    ]:
        problems.append(
            f"the engine scores {list(engine.scores)} differ from the stored "
            f"{list(stored_result.scores)}"
        )
    return {
        "match_id": match.match_id,
        "source": match.source,
        "game": match.game,
        "title": game.title,
        "players": match.players,
        "options": match.options,
        "seed": match.seed,
        "rules_version": match.rules_version,
        "clock": {
            "decision_seconds": match.clock.decision_seconds,
            "time_bank_seconds": match.clock.time_bank_seconds,
            "max_strikes": match.clock.max_strikes,
        },
        "legend": legend(match.game),
        "initial_render": game.new_state(match.players, match.seed, match.options).render(),
        "moves": moves,
        "result": _result(stored_result, match.end_reason),
        "engine_scores": [float(s) for s in engine.scores] if engine else None,
        "verified": not problems,
        "problems": problems,
    }


def _result(result: arena_pb2.MatchResult | None, end_reason: str) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "winners": list(result.winners),
        "end_reason": result.end_reason or end_reason,
        "details": json.loads(result.details_json or "{}"),
        "seats": [
            {
                "seat": seat.seat,
                "strikes": seat.strikes,
                "disqualified": seat.disqualified,
                "time_bank_seconds": seat.time_bank_seconds,
            }
            for seat in result.seats
        ],
    }


def disqualified_verdict(result: dict[str, Any]) -> str | None:
    """The match's verdict when the server disqualified a seat (None when it
    did not): the game's last event names its winners by points, the
    disqualified seat among them maybe, while the server ranks it last and
    names no winner of seats all disqualified. The replay showed the game's
    line and the ranks alone, and read as if the disqualified seat had won."""
    out = [seat["seat"] for seat in result["seats"] if seat["disqualified"]]
    if not out:
        return None
    winners = result["winners"]
    named = f"{noun(len(winners), 'winner')} {seats(winners)}" if winners else "no winner"
    scores = "its score" if len(out) == 1 else "their scores"
    return f"{seats(out)} disqualified, ranked last whatever {scores}: {named}"


def format_replay(replay: dict[str, Any]) -> str:
    options = options_line(replay["options"]) or "none"
    clock = replay["clock"]
    lines = [
        f"{replay['title']} ({replay['game']})  match {replay['match_id']}",
        f"players {replay['players']}  seed {replay['seed']}  options {options}",
        f"clock {clock['decision_seconds']:g} s per decision, bank "
        f"{clock['time_bank_seconds']:g} s, {count(clock['max_strikes'], 'strike')}",
        "",
        "How to read the board:",
        replay["legend"],
        "",
        "== start",
        replay["initial_render"],
    ]
    for move in replay["moves"]:
        kind = move["forced"]
        forced = "" if not kind else "  [forced]" if kind == "forced" else f"  [forced: {kind}]"
        lines += ["", f"== move {move['move']}  seat {move['seat']}: {move['label']}{forced}"]
        for event in move["events"]:
            private = event["private_to"]
            only = f"  (seat {private} only)" if private is not None else ""
            lines.append(f"  - {event['text']}{only}")
        lines.append(move["render"])
    result = replay["result"]
    if result is not None:
        lines += ["", f"== result ({result['end_reason']})"]
        for seat in result["seats"]:
            index = seat["seat"]
            score = result["scores"][index]
            shown = int(score) if float(score).is_integer() else score
            extra = f"  strikes {seat['strikes']}" if seat["strikes"] else ""
            extra += "  disqualified" if seat["disqualified"] else ""
            lines.append(f"  seat {index}  score {shown}  rank {result['ranks'][index]}{extra}")
        verdict = disqualified_verdict(result)
        if verdict:
            lines.append(f"  result: {verdict} (the game's last line is its own verdict by points)")
        title = solo_title(result["details"])
        if title:
            lines.append(f"  solo rating: {title}")
    if replay["verified"]:
        lines.append("replay verified: the engine reproduces the stored scores")
    else:
        lines += ["REPLAY MISMATCH:", *(f"  {problem}" for problem in replay["problems"])]
    return "\n".join(lines)
