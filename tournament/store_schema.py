"""The tournament database's schema: `MIGRATIONS[i]` takes a database from
version i to i + 1 (tournament/store_open.py applies whatever is missing).
A reader (the web viewer) takes a database of version READ_AS_IS_FROM or
later as it is, without upgrading it: the migrations after that version only
add tables whose absence a reader takes as empty."""

from __future__ import annotations

# Append-only: a new migration goes at the end, never between two old ones.
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: tournaments, games, one row per seat of a game
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options_json TEXT NOT NULL,
        anchor TEXT,
        scheduled INTEGER NOT NULL DEFAULT 0,
        config_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        key TEXT NOT NULL,
        match_id TEXT NOT NULL,
        seed INTEGER NOT NULL,
        grp INTEGER NOT NULL,
        rotation INTEGER NOT NULL,
        end_reason TEXT NOT NULL,
        details_json TEXT NOT NULL,
        duration_seconds REAL NOT NULL,
        finished_at REAL NOT NULL,
        UNIQUE (tournament_id, key)
    );
    CREATE TABLE game_seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        bot TEXT NOT NULL,
        score REAL NOT NULL,
        rank INTEGER NOT NULL,
        server_rank INTEGER NOT NULL,
        strikes INTEGER NOT NULL,
        disqualified INTEGER NOT NULL,
        failure TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX games_by_tournament ON games (tournament_id, id);
    """,
    # 1 -> 2: every game's full record (a serialized sheepfold.v1.Replay), so a
    # tournament played on its own in-memory server can still be replayed
    """
    CREATE TABLE game_replays (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        replay BLOB NOT NULL
    );
    CREATE INDEX games_by_match ON games (match_id);
    """,
    # 2 -> 3: where each game was played (a Ray node; '' for this process)
    """
    ALTER TABLE games ADD COLUMN node TEXT NOT NULL DEFAULT '';
    """,
    # 3 -> 4: the secret each game's match seed is drawn under (tournament.deals);
    # NULL for tournaments stored before, which keep playing their deal numbers
    """
    ALTER TABLE tournaments ADD COLUMN deal_secret BLOB;
    """,
    # 4 -> 5: each tournament's runner at work (tournament.heartbeat): when it
    # started, its last heartbeat, when it ended (NULL: still at it, or
    # killed), and whether its SPRT was then over (`decided`)
    """
    CREATE TABLE runners (
        tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
        command TEXT NOT NULL,
        started_at REAL NOT NULL,
        beat_at REAL NOT NULL,
        ended_at REAL,
        decided INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 5 -> 6: the games a runner is playing now (its match created, the game not
    # yet stored), for the web viewer's "Now playing"; `seats_json` lists the
    # seats' bots, `node` is where it plays ('' for the runner's own process)
    """
    CREATE TABLE games_in_play (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        key TEXT NOT NULL,
        match_id TEXT NOT NULL,
        seats_json TEXT NOT NULL,
        node TEXT NOT NULL DEFAULT '',
        started_at REAL NOT NULL,
        PRIMARY KEY (tournament_id, key)
    );
    """,
)

# Read as it is from this version on: no `runners` table reads as no runner,
# no `games_in_play` table as no game in play.
READ_AS_IS_FROM = 4
