"""What a sandboxed bot must not take from the runner that starts it: its
environment, the server's socket it shares with other bots, the organiser's home
folder and the temporary folder (in a bot's folder or in the Python every
sandbox binds), a server's database, the files outside a config's folder that
Ray would ship, and the capabilities of a runner started as root."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from clients.launch import BotCommand, Launcher
from clients.launch.sandbox import SandboxPolicy, runtime_problem
from tests.conftest import ROOT
from tests.sandbox.sandboxed import run_in_sandbox as _run
from tournament.sandbox_config import check_folders

SOCKET_TAMPERING = """
import os, socket, sys
attempts = {
    "unlink": lambda: os.unlink("/sheepfold/arena.sock"),
    "rename": lambda: os.rename("/sheepfold/arena.sock", "/sheepfold/old.sock"),
    "bind": lambda: socket.socket(socket.AF_UNIX).bind("/sheepfold/arena.sock.new"),
    "chmod": lambda: os.chmod("/sheepfold/arena.sock", 0),
    "utime": lambda: os.utime("/sheepfold/arena.sock", (0, 0)),
}
done = []
for name, attempt in attempts.items():
    try:
        attempt()
        done.append(name)
    except OSError:
        pass
if done:
    print("changed its socket:", done, file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_replaces_or_changes_its_socket(tmp_path: Path, sandbox_ready: None) -> None:
    """The server's socket is the one host file every sandbox holds, and bots
    share it when there are more bots than sockets (always with `--server
    unix:PATH`): a bot that removed it, put a socket of its own in its place
    or took its permissions away would cut the others off, or answer them in
    the server's stead. It is bound read-only (EROFS for all of it), and the
    host's socket is left as it was."""
    (tmp_path / "server").mkdir()
    path = tmp_path / "server" / "arena.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen()
    before = path.stat()
    bot = tmp_path / "bot"
    bot.mkdir()
    try:
        process = Launcher(str(path)).process(
            BotCommand(
                (sys.executable, "-c", SOCKET_TAMPERING),
                str(bot),
                "",
                sandbox=SandboxPolicy(),
            )
        )
        asyncio.run(process.run())
        after = path.stat()
        assert (after.st_ino, after.st_mode, after.st_mtime_ns) == (
            before.st_ino,
            before.st_mode,
            before.st_mtime_ns,
        )
        assert sorted(os.listdir(path.parent)) == ["arena.sock"]
    finally:
        listener.close()


RUNNERS_ENVIRONMENT = """
import os, sys
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            environ = file.read()
    except OSError:
        continue
    if b"runner-only-path" in environ:
        print(f"/proc/{pid}/environ shows the runner's:", environ[:200], file=sys.stderr)
        sys.exit(3)
"""


def test_no_bot_reads_the_runners_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox_ready: None
) -> None:
    """The chain that starts the sandbox ran with the runner's own PATH, and bwrap,
    the sandbox's first process, kept it: every bot read it in /proc/1/environ,
    with the organiser's user name and home folders (pyenv's shims, ~/.cargo/bin)."""
    monkeypatch.setenv("PATH", os.environ["PATH"] + ":/home/organiser/runner-only-path")
    said = _run(tmp_path, sys.executable, "-c", RUNNERS_ENVIRONMENT)
    assert said == "ok", said


def test_no_bots_folder_holds_the_runners_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's folder is bound whole. `sheepfold match` and `bot` default it to
    the current folder, and a tournament to the config's: run from the home
    folder, a stranger's bot read the organiser's ~/.ssh keys and cloud
    credentials. As with /, a folder or read_only path that is the home folder,
    or holds it, is refused; one inside it is not."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    db = str(tmp_path.parent / "elsewhere.sqlite")
    for folder in (home, tmp_path):
        problem = check_folders({"b": str(folder)}, ["b"], db)
        assert problem == (
            f"bot 'b' would see the home folder {home} in its folder: "
            "give the bot a folder of its own with `cwd`"
        ), problem
    problem = check_folders({"b": str(home / "b")}, ["b"], db, {"b": [str(tmp_path)]})
    assert problem and f"home folder {home} in its read_only path {tmp_path}" in problem
    assert check_folders({"b": str(home / "b")}, ["b"], db, {"b": [str(home / "data")]}) is None

    done = subprocess.run(
        [
            *(sys.executable, "-m", "cli", "match", "--game", "stubborn-sheep"),
            *("--players", "1", "--bots", "cmd:/bin/true"),
        ],
        cwd=home,
        env={**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr  # a usage error, as in a tournament config
    assert done.stderr.strip() == (
        f"sheepfold match: --bot-dir {home} would show the bot the home folder {home}: "
        "give it a folder of its own"
    ), done.stderr


def test_no_bots_folder_holds_the_temporary_folder(tmp_path: Path, sandbox_ready: None) -> None:
    """The system's temporary folder holds other programs' Unix sockets, in
    folders of mode 0700 that a bot, run as the runner's user, may enter: a
    tmux or ssh-agent socket, Ray's session (whose sockets take tasks run
    outside any sandbox), other Sheepfold servers, and the run's own private
    sockets, one per bot. A bot whose folder was /tmp (a config saved there,
    no `cwd`) connected to a socket the host listened on there. A folder or
    read_only path that is it, or holds it, is refused; one inside it is not."""
    temp = tmp_path / "tmp"
    (temp / "private").mkdir(parents=True, mode=0o700)
    listening = temp / "private" / "host.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(listening))
    listener.listen()
    listener.close()
    db = str(tmp_path.parent / "elsewhere.sqlite")
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(ROOT)}
    for folder in (temp, tmp_path):
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from tournament.sandbox_config import "
                "check_folders; print(check_folders({'b': sys.argv[1]}, ['b'], sys.argv[2]))",
                str(folder),
                db,
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.stdout.strip() == (
            f"bot 'b' would see the temporary folder {temp} in its folder, with other "
            "programs' Unix sockets: give the bot a folder of its own with `cwd`"
        ), done.stdout + done.stderr
    done = subprocess.run(
        [
            *(sys.executable, "-m", "cli", "match", "--game", "stubborn-sheep"),
            *("--players", "1", "--bot-dir", str(tmp_path)),
            *("--bots", f"cmd:/bin/sh -c 'test ! -S {listening} || exit 3'"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr  # a usage error, as in a tournament config
    assert done.stderr.strip() == (
        f"sheepfold match: --bot-dir {tmp_path} would show the bot the temporary folder "
        f"{temp}, with other programs' Unix sockets: give it a folder of its own"
    ), done.stderr


def test_no_sandbox_binds_a_python_that_holds_the_runners_home(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """Every sandbox binds the Python running Sheepfold whole, from its prefix.
    One installed with `--prefix=$HOME` (as on many shared clusters) showed each
    bot of `sheepfold match` and `bot` the organiser's whole home folder, its
    ~/.ssh keys with it (a tournament refused to start so, they did not): the
    bot below saw it. No bot starts while what every sandbox binds holds the
    home folder, the temporary folder, or is /."""
    home = Path(sys.prefix, "lib").resolve()  # inside what every sandbox binds
    probe = f"test ! -d {home} || {{ echo 'sees the home folder' >&2; exit 3; }}"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "cli", "match", "--game", "stubborn-sheep"),
            *("--players", "1", "--bot-dir", str(tmp_path), "--bots", f"cmd:/bin/sh -c {probe!r}"),
        ],
        env={**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "sees the home folder" not in done.stdout + done.stderr
    assert done.returncode == 1, done.stderr
    assert f"holds the home folder {home}: run Sheepfold from a Python" in done.stderr
    assert runtime_problem(["/"]) == "/ is the whole host"
    temp = tempfile.gettempdir()
    assert f"holds the temporary folder {Path(temp).resolve()}" in str(runtime_problem([temp]))


def test_ray_ships_no_file_a_bots_links_point_at(tmp_path: Path) -> None:
    """With --ray, the config's folder reaches the workers through Ray's packing,
    which follows symbolic links and copies what they point at. A stranger's bot
    folder holding `db -> ../cup.sqlite`, `key -> ~/.ssh/id_ed25519` or a link
    into another bot's folder shipped those files' contents into its own folder
    on the worker, where its sandbox read them (run locally, its sandbox sees
    only a dangling link). Ray's own packing of the runtime environment
    runtime_env_for makes must hold none of them; links inside the bot's
    own folder still ship."""
    from ray._private.runtime_env.packaging import create_package

    from tournament.config import load_config
    from tournament.executors.ray_shipping import runtime_env_for

    cup = tmp_path / "cup"
    (cup / "bot").mkdir(parents=True)
    (cup / "other").mkdir()
    (cup / "other" / "secret.py").write_text("OTHER BOT'S CODE")
    (cup / "cup.sqlite").write_text("THE DEALS' SECRET")
    outside = tmp_path / "id_ed25519"
    outside.write_text("PRIVATE KEY")
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "k").write_text("PRIVATE KEY")
    (cup / "bot" / "bot.py").write_text("MY CODE")
    for name, target in {
        "db": "../cup.sqlite",
        "key": str(outside),
        "keys": str(tmp_path / "keys"),
        "theirs": "../other/secret.py",
        "mine": "bot.py",
    }.items():
        (cup / "bot" / name).symlink_to(target)
    config_path = cup / "cup.toml"
    config_path.write_text(
        'game = "sheep-showdown"\nplayers = 2\n'
        '[[bots]]\nname = "a"\ncommand = ["{python}", "bot.py"]\ncwd = "bot"\n'
        '[[bots]]\nname = "b"\ncommand = ["{python}", "secret.py"]\ncwd = "other"\n'
    )
    env, _ = runtime_env_for(load_config(config_path), str(cup / "cup.sqlite"))
    package = tmp_path / "package.zip"
    create_package(env["working_dir"], package, include_gitignore=False, excludes=env["excludes"])
    with zipfile.ZipFile(package) as shipped:
        contents = {
            name: shipped.read(name) for name in shipped.namelist() if not name.endswith("/")
        }
    leaked = {
        name: data
        for name, data in contents.items()
        if name.startswith("bot/")
        and data in (b"THE DEALS' SECRET", b"PRIVATE KEY", b"OTHER BOT'S CODE")
    }
    assert not leaked, leaked
    assert contents.get("bot/mine") == b"MY CODE", sorted(contents)
    assert contents.get("other/secret.py") == b"OTHER BOT'S CODE", sorted(contents)


def test_ray_shipping_walks_no_link_out_of_the_config_folder(tmp_path: Path) -> None:
    """Before Ray packs the config's folder, the runner walks it, links
    followed, for named pipes Ray would hang on. A stranger's bot folder with a
    link to / had it walk the whole machine (its /proc, every disk) for
    minutes before the first game; such a link is not shipped at all."""
    cup = tmp_path / "cup"
    (cup / "bot").mkdir(parents=True)
    (cup / "bot" / "root").symlink_to("/")
    config = cup / "cup.toml"
    config.write_text(
        'game = "sheep-showdown"\nplayers = 2\n'
        '[[bots]]\nname = "a"\ncommand = ["{python}", "bot.py"]\ncwd = "bot"\n'
        '[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    code = (
        "import sys; from tournament.config import load_config; "
        "from tournament.executors.ray_shipping import runtime_env_for; "
        "print(runtime_env_for(load_config(sys.argv[1]), sys.argv[2])[0]['excludes'])"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(config), str(cup / "cup.sqlite")],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("still walking the link to / after 15 s") from None
    assert done.returncode == 0, done.stderr
    assert "'/bot/root'" in done.stdout, done.stdout


# What a bot run as the host's root could do with any capability, or with a user
# namespace of its own (where it would have them all): open any file of a file
# system it sees by handle, past the folder bound (the "shocker" escape from
# containers), or mount and unshare at will.
NO_CAPABILITY = """
import ctypes, errno, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
status = dict(line.split(":\\t", 1) for line in open("/proc/self/status").read().splitlines())
shown = [status[key].strip() for key in ("CapEff", "CapBnd", "NoNewPrivs")]
if shown != ["0000000000000000", "0000000000000000", "1"]:
    print("capabilities, bounding set, no new privileges:", shown, file=sys.stderr)
    sys.exit(3)
handle, mount_id = ctypes.create_string_buffer(8 + 128), ctypes.c_int()
struct.pack_into("I", handle, 0, 128)
if libc.name_to_handle_at(-100, b"/usr/bin", handle, ctypes.byref(mount_id), 0) == 0:
    usr = os.open("/usr", os.O_RDONLY)
    if libc.open_by_handle_at(usr, handle, os.O_RDONLY) >= 0:
        print("opened /usr/bin by its handle", file=sys.stderr)
        sys.exit(3)
for flag, name in ((0x10000000, "user"), (0x20000, "mount"), (0x40000000, "network")):
    if libc.unshare(flag) == 0:
        print(f"made a {name} namespace", file=sys.stderr)
        sys.exit(3)
if libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0:
    print("mounted a tmpfs", file=sys.stderr)
    sys.exit(3)
"""


def test_no_bot_has_a_capability_nor_a_namespace_to_gain_one(
    tmp_path: Path, sandbox_ready: None
) -> None:
    """A runner started as root runs its bots as the host's root: only the
    capabilities bwrap drops (all of them, bounding set included, with no new
    privileges) and the user namespaces it forbids stand between a bot and
    the host's files. With CAP_DAC_READ_SEARCH, open_by_handle_at opens any
    file of a file system the sandbox binds a folder of, the host's /etc
    included, whatever the binds show; with a user namespace of its own, a bot
    has every capability inside it."""
    said = _run(tmp_path, sys.executable, "-c", NO_CAPABILITY)
    assert said == "ok", said


def test_no_bots_folder_holds_a_servers_database(tmp_path: Path, sandbox_ready: None) -> None:
    """`sheepfold bot` and `match --server` know nothing of the server's
    database, and their defaults put it in the bot's folder: `serve` writes
    `sheepfold.db` in the folder it is started in, and a bot's folder is the
    current one. A bot started there copied the database and its -wal into
    its /tmp and read the seed of every running match, its own deal among
    them. A --bot-dir or --read-only that holds a Sheepfold database (a
    server's, still only in its -wal, or a tournament's) is refused."""
    from server.sqlite_store import SqliteStore

    folder, own = tmp_path / "cup", tmp_path / "bot"
    (folder / "deep").mkdir(parents=True)
    own.mkdir()
    # As serve makes it: in WAL mode, its tables still only in its -wal.
    store = SqliteStore(str(folder / "deep" / "sheepfold.db"))
    try:
        for flag in ("--bot-dir", "--read-only"):
            done = subprocess.run(
                [
                    *(sys.executable, "-m", "cli", "match", "--game", "stubborn-sheep"),
                    *("--players", "1", "--bots", "cmd:/bin/true"),
                    *(("--bot-dir", str(own)) if flag == "--read-only" else ()),
                    *(flag, str(folder)),
                ],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode == 2, done.stderr
            assert done.stderr.strip() == (
                f"sheepfold match: {flag} {folder} would show the bot the Sheepfold database "
                f"{folder / 'deep' / 'sheepfold.db'}, with the seed of every match in it: "
                "give it a folder of its own"
            ), done.stderr
    finally:
        store.close()
