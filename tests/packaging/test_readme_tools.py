"""The README's list of Debian packages for the test steps matches what CI and
the Makefile look for: installing the README's line must leave no step NOT RUN."""

from __future__ import annotations

import re

from tests.conftest import ROOT


def _readme_apt_line() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    match = re.search(r"`sudo apt-get install ([^`]+)`\s*\nbrings them all", readme)
    assert match, "the README's one apt-get line for every test step"
    return set(match.group(1).split())


def test_the_readme_apt_line_holds_every_package_ci_installs() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    installed = set(re.findall(r"missing\+=\(([^)]+)\)", ci))
    assert installed, ".ci/run names the packages it installs"
    assert installed <= _readme_apt_line(), installed - _readme_apt_line()


def test_the_readme_table_names_the_package_of_every_protoc_plugin_make_needs() -> None:
    makefile = (ROOT / "Makefile").read_text()
    (tools,) = re.findall(r"call needs,test-protoc,([^,]+),", makefile)
    readme = (ROOT / "README.md").read_text()
    (row,) = [line for line in readme.splitlines() if line.startswith("| `make test-protoc`")]
    if "grpc_ruby_plugin" in tools.split() or "grpc_cpp_plugin" in tools.split():
        assert "protobuf-compiler-grpc" in row, row
