"""Every .proto declares the common language options, and the protoc line the
bot guide gives for Java works as written, with no per-file mapping flags; the
guide's C++ bot builds with its build line and plays a match on a real server."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
from pathlib import Path

import grpc
import pytest
from sheepfold.v1 import (
    arena_pb2,
    arena_pb2_grpc,
    sheep_and_garden_pb2,
    sheep_n_sheep_pb2,
    sheep_showdown_pb2,
    stubborn_sheep_pb2,
)

from tests.conftest import start_server_process, stop_server_process
from tests.tls_files import self_signed

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "writing-a-bot.md"
MODULES = [
    arena_pb2,
    sheep_and_garden_pb2,
    sheep_n_sheep_pb2,
    sheep_showdown_pb2,
    stubborn_sheep_pb2,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_every_proto_file_declares_the_language_options(module: object) -> None:
    options = module.DESCRIPTOR.GetOptions()  # type: ignore[attr-defined]
    assert options.go_package == "github.com/sheepfold/sheepfold/gen/go/sheepfold/v1;sheepfoldv1"
    assert options.java_package == "dev.sheepfold.v1" and options.java_multiple_files
    assert options.java_outer_classname.endswith("Proto")
    assert options.csharp_namespace == "Sheepfold.V1"
    assert options.php_namespace == "Sheepfold\\V1" and options.ruby_package == "Sheepfold::V1"
    assert options.objc_class_prefix and options.swift_prefix


def _protoc() -> str:
    found = shutil.which("protoc")
    assert found, (
        "protoc is not installed: apt-get install protobuf-compiler protoc-gen-go "
        "protoc-gen-go-grpc (Debian) to check the guide's protoc lines"
    )
    return found


def _guide_blocks() -> list[str]:
    """The guide's ```sh blocks that run protoc."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    return [block for block in blocks if "protoc -I proto" in block]


def _guide_block(language: str, holding: str) -> str:
    """The one ```language block of the guide that holds `holding`."""
    text = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)
    (block,) = [block for block in blocks if holding in block]
    return block


def _run_in(
    folder: Path, script: str, timeout: float = 60, link_proto: bool = True
) -> subprocess.CompletedProcess[str]:
    if link_proto:
        (folder / "proto").symlink_to(ROOT / "proto")
        _protoc()
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.protoc
def test_the_guides_go_block_runs_as_written(tmp_path: Path) -> None:
    for tool in ("protoc-gen-go", "protoc-gen-go-grpc"):
        assert shutil.which(tool), f"{tool} is not installed: apt-get install {tool} (Debian)"
    (block,) = [b for b in _guide_blocks() if "--go_out" in b]
    done = _run_in(tmp_path, block)
    assert done.returncode == 0, done.stderr
    package = tmp_path / "gen" / "go" / "sheepfold" / "v1"
    assert sorted(p.name for p in package.iterdir()) == [
        "arena.pb.go",
        "arena_grpc.pb.go",
        "sheep_and_garden.pb.go",
        "sheep_n_sheep.pb.go",
        "sheep_showdown.pb.go",
        "stubborn_sheep.pb.go",
    ]
    source = (package / "arena.pb.go").read_text()
    assert re.search(r"^package sheepfoldv1$", source, re.MULTILINE)
    assert re.search(r"\tSeat +\*int32 ", source), "proto3 optional becomes a pointer (presence)"
    assert "func (c *arenaClient) Play(" in (package / "arena_grpc.pb.go").read_text()


@pytest.mark.protoc
def test_the_guides_java_line_generates_one_class_per_message(tmp_path: Path) -> None:
    (block,) = [b for b in _guide_blocks() if "--java_out" in b]
    # The messages line needs protoc alone; the stub line needs grpc-java's own plugin.
    runnable = "\n".join(line for line in block.splitlines() if "grpc-java" not in line)
    done = _run_in(tmp_path, runnable)
    assert done.returncode == 0, done.stderr
    package = tmp_path / "gen" / "java" / "dev" / "sheepfold" / "v1"
    assert (package / "CreateMatchRequest.java").is_file()
    assert (package / "SheepNSheepObservation.java").is_file()
    assert (package / "ArenaProto.java").is_file()
    source = (package / "Join.java").read_text()
    assert re.search(r"^package dev\.sheepfold\.v1;$", source, re.MULTILINE)
    assert "hasSeat()" in source, "proto3 optional gives a presence check"


@pytest.mark.protoc
def test_the_guides_ruby_and_cpp_block_runs_as_written(tmp_path: Path) -> None:
    for tool in ("grpc_ruby_plugin", "grpc_cpp_plugin"):
        assert shutil.which(tool), (
            f"{tool} is not installed: apt-get install protobuf-compiler-grpc"
        )
    (block,) = [b for b in _guide_blocks() if "--ruby_out" in b]
    done = _run_in(tmp_path, block)
    assert done.returncode == 0, done.stderr
    ruby = tmp_path / "gen" / "ruby" / "sheepfold" / "v1"
    assert "module Sheepfold" in (ruby / "arena_pb.rb").read_text()
    assert "rpc :Play, stream(" in (ruby / "arena_services_pb.rb").read_text()
    cpp = tmp_path / "gen" / "cpp" / "sheepfold" / "v1"
    assert "namespace sheepfold" in (cpp / "arena.pb.h").read_text()
    assert "Play(" in (cpp / "arena.grpc.pb.h").read_text()
    assert (cpp / "stubborn_sheep.pb.cc").is_file()


def _check_the_cpp_tools() -> None:
    for tool in ("grpc_cpp_plugin", "grpc_ruby_plugin", "g++", "pkg-config"):
        assert shutil.which(tool), f"{tool} is not installed: apt-get install g++ pkg-config"
    found = subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"], check=False)
    assert found.returncode == 0, "gRPC's C++ headers are missing: apt-get install libgrpc++-dev"


def _build_the_guides_cpp_bot(folder: Path) -> Path:
    """Generates the C++ code with the guide's protoc block, then builds the
    guide's C++ bot with its g++ line; returns the program."""
    _check_the_cpp_tools()
    generated = _run_in(folder, _guide_block("sh", "--cpp_out"))
    assert generated.returncode == 0, generated.stderr
    (folder / "mybot.cc").write_text(_guide_block("cpp", "int main("), encoding="utf-8")
    built = _run_in(folder, _guide_block("sh", "g++ "), timeout=280, link_proto=False)
    assert built.returncode == 0, built.stderr
    return folder / "mybot"


@pytest.fixture(scope="module")
def cpp_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the guide's generated C++ code compiled once into
    libsheepfold.a, as the guide advises: the generated files take most of a
    build's time, and each test below builds a program of its own."""
    _check_the_cpp_tools()
    folder = tmp_path_factory.mktemp("cpp-library")
    generated = _run_in(folder, _guide_block("sh", "--cpp_out"))
    assert generated.returncode == 0, generated.stderr
    flags = "$(pkg-config --cflags grpc++ protobuf)"
    built = _run_in(
        folder,
        "mkdir -p obj && for source in gen/cpp/sheepfold/v1/*.cc; do "
        f'g++ -std=c++17 -c -I gen/cpp {flags} -o "obj/$(basename "$source" .cc).o" "$source"; '
        "done && ar rcs libsheepfold.a obj/*.o",
        timeout=280,
        link_proto=False,
    )
    assert built.returncode == 0, built.stderr
    return folder


def _build_against(library: Path, folder: Path, source: str) -> Path:
    """Builds `source` against the `cpp_library`; returns the program."""
    (folder / "program.cc").write_text(source, encoding="utf-8")
    built = _run_in(
        folder,
        f"g++ -std=c++17 -I {library}/gen/cpp -o program program.cc {library}/libsheepfold.a "
        "$(pkg-config --cflags --libs grpc++ protobuf)",
        timeout=120,
        link_proto=False,
    )
    assert built.returncode == 0, built.stderr
    return folder / "program"


def _create(address: str) -> arena_pb2.CreateMatchResponse:
    with grpc.insecure_channel(address) as channel:
        request = arena_pb2.CreateMatchRequest(game="sheep-n-sheep", players=2, seed=7)
        return arena_pb2_grpc.ArenaStub(channel).CreateMatch(request, timeout=10)


def _scores(address: str, match_id: str) -> list[float]:
    with grpc.insecure_channel(address) as channel:
        info = arena_pb2_grpc.ArenaStub(channel).GetMatch(
            arena_pb2.GetMatchRequest(match_id=match_id), timeout=10
        )
    assert info.status == arena_pb2.MATCH_STATUS_FINISHED
    return list(info.result.scores)


def _port_nobody_listens_on() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.protoc
def test_the_guides_cpp_bot_builds_and_plays_every_seat(tmp_path: Path) -> None:
    program = _build_the_guides_cpp_bot(tmp_path)
    # Its wait for the server is bounded (WaitForConnected with a system_clock
    # deadline, the only kind gRPC C++ takes), so nobody listening ends it.
    away = f"127.0.0.1:{_port_nobody_listens_on()}"
    gone = subprocess.run(
        [str(program), away, "0123456789abcdef", "token"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert gone.returncode == 1 and f"cannot reach the server at {away}" in gone.stderr
    server = start_server_process()
    try:
        created = _create(server.address)
        seats = [
            subprocess.Popen(
                [str(program), server.address, created.match_id, token],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for token in created.seat_tokens
        ]
        outputs = [seat.communicate(timeout=120) for seat in seats]
        scores = _scores(server.address, created.match_id)
    finally:
        stop_server_process(server)
    for seat, (stdout, stderr) in zip(seats, outputs, strict=True):
        assert seat.returncode == 0, stderr
        assert "PlayError" not in stderr, stderr
        assert [float(score) for score in stdout.split()] == scores


# The guide's connect() with a main that asks ListGames through it.
_LIST_GAMES = """
int main(int argc, char** argv) {
  auto stub = sheepfold::v1::Arena::NewStub(connect(argv[1], argv[2], 8 << 20));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  sheepfold::v1::ListGamesResponse games;
  grpc::Status status = stub->ListGames(&context, sheepfold::v1::ListGamesRequest(), &games);
  std::cout << status.error_code() << " " << games.games_size() << std::endl;
  return 0;
}
"""


@pytest.mark.protoc
def test_the_guides_cpp_channel_reaches_a_tls_server(cpp_library: Path, tmp_path: Path) -> None:
    source = (
        "#include <grpcpp/grpcpp.h>\n#include <chrono>\n#include <iostream>\n"
        '#include "sheepfold/v1/arena.grpc.pb.h"\n'
        + _guide_block("cpp", "SetMaxReceiveMessageSize")
        + _LIST_GAMES
    )
    program = _build_against(cpp_library, tmp_path, source)
    cert, key = self_signed(tmp_path / "tls")
    server = start_server_process("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        asked = [
            subprocess.run(
                [str(program), server.address, ca],
                capture_output=True,
                text=True,
                timeout=60,
            )
            for ca in (str(cert), "")
        ]
    finally:
        stop_server_process(server)
    with_tls, plain = (done.stdout.split() for done in asked)
    assert with_tls == ["0", "4"], asked[0].stderr
    assert plain == [str(grpc.StatusCode.UNAVAILABLE.value[0]), "0"], asked[1].stderr


# Sleeps on its first decision while the server plays the seat out (one seat,
# one strike allowed: disqualified, every later move forced), answers into the
# stream the server has ended (each Write true or false, as gRPC has taken in
# the end or not yet), then reads on.
_WRITE_AFTER_THE_END = r"""
#include <grpcpp/grpcpp.h>
#include <chrono>
#include <iostream>
#include <thread>
#include "sheepfold/v1/arena.grpc.pb.h"
namespace pb = sheepfold::v1;
int main(int argc, char** argv) {
  auto channel = grpc::CreateChannel(argv[1], grpc::InsecureChannelCredentials());
  auto stub = pb::Arena::NewStub(channel);
  grpc::ClientContext context;
  auto stream = stub->Play(&context);
  pb::PlayRequest join;
  join.mutable_join()->set_match_id(argv[2]);
  join.mutable_join()->set_token(argv[3]);
  join.mutable_join()->set_events_in_decisions(true);
  stream->Write(join);
  pb::PlayResponse message;
  int answered = 0, missed = 0, results = 0;
  while (stream->Read(&message)) {
    if (message.has_decision() && answered++ == 0) {
      std::this_thread::sleep_for(std::chrono::seconds(3));
      pb::PlayRequest answer;
      answer.mutable_answer()->set_decision_id(message.decision().decision_id());
      for (int copies = 0; copies < 5; ++copies) stream->Write(answer);
    }
    bool deadline = message.error().code() == grpc::StatusCode::DEADLINE_EXCEEDED;
    if (message.has_error() && deadline) ++missed;
    if (message.has_result()) ++results;
  }
  grpc::Status status = stream->Finish();
  std::cout << answered << " " << missed << " " << results << " " << status.error_code();
  std::cout << std::endl;
  return 0;
}
"""


@pytest.mark.protoc
def test_a_cpp_bot_that_answers_after_the_end_still_reads_the_result(
    cpp_library: Path, tmp_path: Path
) -> None:
    """The guide says so: a Write into a stream the server has ended sends
    nothing, and what the server sent before the end is still there to read."""
    program = _build_against(cpp_library, tmp_path, _WRITE_AFTER_THE_END)
    server = start_server_process()
    try:
        with grpc.insecure_channel(server.address) as channel:
            clock = arena_pb2.ClockSettings(decision_seconds=0.05, max_strikes=1)
            request = arena_pb2.CreateMatchRequest(
                game="sheep-and-garden", players=1, seed=7, clock=clock
            )
            created = arena_pb2_grpc.ArenaStub(channel).CreateMatch(request, timeout=10)
        done = subprocess.run(
            [str(program), server.address, created.match_id, created.seat_tokens[0]],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        stop_server_process(server)
    # One decision (the rest were the server's), its missed deadline, the result, OK.
    assert done.stdout.split() == ["1", "1", "1", "0"], done.stderr


@pytest.mark.protoc
def test_csharp_needs_no_mapping_flags_either(tmp_path: Path) -> None:
    done = _run_in(
        tmp_path,
        "mkdir -p gen/cs && protoc -I proto --csharp_out=gen/cs proto/sheepfold/v1/*.proto",
    )
    assert done.returncode == 0, done.stderr
    assert "namespace Sheepfold.V1" in (tmp_path / "gen" / "cs" / "Arena.cs").read_text()


def test_the_guide_gives_the_protoc_version_and_the_oneof_names() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert "protoc 3.15 or newer" in text
    assert "`sheep-n-sheep` → `sheep_n_sheep`" in text
