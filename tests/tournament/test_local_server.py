"""The server a tournament starts for itself takes matches from the runner only,
and keeps what it has recorded from the bots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import structlog
from sheepfold.v1 import arena_pb2

from server.app import ServerConfig
from server.inprocess import InProcessServer
from tests.conftest import ROOT
from tests.tournament.tournament_command import tournament_main
from tournament.config import load_config
from tournament.deals import secret_seed
from tournament.runner import run_tournament
from tournament.seats import bot_seed
from tournament.store import Store

pytestmark = pytest.mark.e2e

MATCH_MAKER = Path(__file__).resolve().parent / "bots" / "match_maker.py"
SNOOPER = Path(__file__).resolve().parent / "bots" / "snooper.py"


def _cup_with(tmp_path: Path, program: Path, name: str, deals: int) -> tuple[Path, Path]:
    """A one-round Sheep Showdown cup of `program` (a copy in a folder of its own,
    unsandboxed, playing its seat with the example command bot) against random:
    its folder and the config."""
    folder = tmp_path / "bot"
    folder.mkdir()
    shutil.copy(program, folder / program.name)
    example = ROOT / "examples" / "command-bot" / "command_bot.py"
    config = tmp_path / "cup.toml"
    config.write_text(
        f'game = "sheep-showdown"\ngames_per_pairing = {deals}\nbootstrap = 0\n'
        "[options]\nrounds = 1\n"
        f'[[bots]]\nname = "{name}"\n'
        f'command = ["{{python}}", "{program.name}", "{example}"]\n'
        f'cwd = "{folder}"\nsandbox = false\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    return folder, config


def test_a_bot_cannot_create_matches_on_the_tournaments_own_server(tmp_path: Path) -> None:
    """Its server had no admin token: a sandbox attack's bot created 9,999 matches
    on it. It now has a random one that only the runner knows."""
    folder, config = _cup_with(tmp_path, MATCH_MAKER, "maker", deals=1)
    code = tournament_main(
        ["run", str(config), "--db", str(tmp_path / "cup.sqlite"), "--no-report"]
    )
    assert code == 0
    assert (folder / "create_status").read_text() == "UNAUTHENTICATED"


def test_a_bot_can_neither_read_other_games_nor_work_out_its_own_deal(tmp_path: Path) -> None:
    """Bots on a tournament's own server could list its finished matches and read
    their replays, whose seeds are the deals every other group plays; and a
    game's seed was its public deal number, so a bot could rebuild its own deal
    from the engines. The server now keeps its records for the runner, and each
    game's seed is drawn under the tournament's secret (so is the bot's own)."""
    folder, config = _cup_with(tmp_path, SNOOPER, "snoop", deals=2)
    db = tmp_path / "cup.sqlite"
    assert tournament_main(["run", str(config), "--db", str(db), "--no-report"]) == 0
    snooped = [line.split() for line in (folder / "snooped").read_text().splitlines()]
    assert len(snooped) == 4
    finished = str(arena_pb2.MATCH_STATUS_FINISHED)
    assert (folder / "seeds_after").read_text().splitlines() == [f"{finished} hidden"] * 4
    assert {(listing, replay) for *_, listing, replay in snooped} == {
        ("UNAUTHENTICATED", "UNAUTHENTICATED")
    }
    with Store(db) as store:
        tid = store.tournament(None).id
        secret = store.deal_secret(tid)
        assert secret is not None
        games = {game.match_id: game for game in store.games(tid)}
        for match_id, seat, seed, *_ in snooped:
            deal = games[match_id].seed
            replay = store.replay(match_id)
            assert replay is not None
            assert replay.seed == secret_seed(secret, deal) != deal
            assert int(seed) == bot_seed(replay.seed, int(seat), "snoop")
            assert int(seed) != bot_seed(deal, int(seat), "snoop")


def _command_cup(tmp_path: Path) -> Path:
    example = ROOT / "examples" / "command-bot" / "command_bot.py"
    config = tmp_path / "cup.toml"
    config.write_text(
        'game = "sheep-showdown"\ngames_per_pairing = 1\nbootstrap = 0\n'
        "[options]\nrounds = 1\n"
        f'[[bots]]\nname = "cmd"\ncommand = ["{{python}}", "{example}"]\nsandbox = false\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
    )
    return config


OPEN_WARNING = "this server lets anyone list and replay its finished matches"


@pytest.mark.parametrize("private", [False, True], ids=["open", "private"])
def test_a_server_of_ones_own_is_checked_for_open_replays(tmp_path: Path, private: bool) -> None:
    """With --server, the runner cannot make the server private: it says when the
    command bots could read finished games there, and with a private server and
    its token it plays and keeps every game's record as on its own."""
    token = "cup-token" if private else None
    config = load_config(_command_cup(tmp_path))
    serving = InProcessServer(ServerConfig(admin_token=token, private_replays=private))
    with serving as server, structlog.testing.capture_logs() as logs:
        summary = run_tournament(
            config,
            server=server.address,
            database=str(tmp_path / "cup.sqlite"),
            admin_token=token,
        )
    assert summary.played == 2 and summary.errors == 0
    warned = [entry for entry in logs if str(entry["event"]).startswith(OPEN_WARNING)]
    assert len(warned) == (0 if private else 1)
    with Store(tmp_path / "cup.sqlite") as store:
        assert len(store.replays()) == 2
