# Everything a newcomer needs: `make demo` and `make test` set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: help install demo test test-sandbox test-protoc test-ray test-node test-browser screenshots proto lint format bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install sheepfold with its dev tools

demo: $(STAMP) ## play a short round robin of the built-in bots on every game
	$(BIN)/sheepfold demo

# The main suite runs on TEST_WORKERS processes and the browser tests on
# BROWSER_WORKERS (pytest-xdist; `auto` is one a core), a test file to a
# worker. Much of the main suite waits on servers, bots and subprocesses rather
# than computing: on 2 cores it took 13.5 minutes on 2 workers, and 10 on 3
# with the cores still only 74% busy. Chromium computes: the browser step took
# 300 s on 2 workers and on 3 alike, and 2 leave the Ray step beside it room.
# The Node bot's tests and then the protoc step run beside the main suite, one
# after the other, and the Ray step and then the sandbox step beside the browser
# step; their output is shown when all have finished. The Ray step may not run
# beside the main suite: Ray's `auto` finds any running cluster by its
# processes, and the main suite's test of `--ray auto` on a machine without one
# found the Ray step's. The sandbox step once ran alone after the others (84 s):
# under the main suite's three workers its Ctrl-C test timed out; beside the
# browser step it starts once the Ray step ends, when the browser step is in
# its last minute or over. The whole run must stay under 20 minutes on 2 cores.
#
# Every module is compiled to bytecode first: the suite starts `sheepfold`, its
# servers and bots as new processes thousands of times, and where
# PYTHONDONTWRITEBYTECODE is set (this project's Dockerfile, many CI images)
# each of them compiled every module it imported from source again, about 0.05 s
# of CPU a start: the main suite took 625 s without it and 587 s with it.
TEST_WORKERS ?= 3
BROWSER_WORKERS ?= 2
MAIN_TESTS := -m "not browser and not sandbox and not protoc and not netns"

# $(call beside,STEPS,COMMAND): COMMAND, with the make targets STEPS run one
# after the other beside it; fails when COMMAND or any of them failed.
define beside
	@rm -f $(foreach step,$(1),$(VENV)/$(step).status); \
	{ for step in $(1); do \
		$(MAKE) --no-print-directory $$step > $(VENV)/$$step.log 2>&1; echo $$? > $(VENV)/$$step.status; \
	done; } & beside=$$!; \
	$(2); \
	main=$$?; wait $$beside; failed=""; \
	for step in $(1); do \
		echo "== $$step (run beside)"; cat $(VENV)/$$step.log; \
		[ "$$(cat $(VENV)/$$step.status 2>/dev/null)" = 0 ] || failed="$$failed $$step"; \
	done; \
	[ -z "$$failed" ] || echo "failed beside:$$failed" >&2; \
	[ $$main -eq 0 ] && [ -z "$$failed" ]
endef

PY_SOURCES := benchmarks cli clients examples games proto server tests tournament web
test: $(STAMP) ## run the whole test suite; steps that need a missing tool say NOT RUN and why
	@$(BIN)/python -m compileall -q -j 0 $(PY_SOURCES)
	$(call beside,test-node test-protoc,$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(MAIN_TESTS))
	$(call beside,test-ray test-sandbox,$(MAKE) --no-print-directory test-browser)

# Each step below runs when its tools are on this machine and otherwise says NOT RUN
# and how to get them; REQUIRE_<STEP>=1 (set by .ci/run) makes a missing tool an error.
# Each collects only the folders its tests are in: collecting the whole suite to
# pick a few of its tests took about 8 s a step. tests/packaging/test_step_folders.py
# fails when a test of a step is put anywhere else.
SANDBOX_TESTS := tests/sandbox tests/cli tests/tournament
PROTOC_TESTS := tests/contract
NETNS_TESTS := tests/raycluster
BROWSER_TESTS := tests/web
define needs
	@missing=""; for tool in $(2); do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -z "$$missing" ]; then \
		$(3); \
	elif [ -n "$(4)" ]; then \
		echo "$(1): REQUIRED but not found:$$missing ($(5))" >&2; exit 1; \
	else \
		echo "$(1): NOT RUN -$$missing not found; $(5)"; \
	fi
endef

test-sandbox: $(STAMP) ## the bot sandbox's tests (hostile bots included); need bubblewrap and node (a Node bot in the sandbox)
	$(call needs,test-sandbox,bwrap node,$(BIN)/python -m pytest -m sandbox $(SANDBOX_TESTS),$(REQUIRE_SANDBOX),install bubblewrap (apt-get install bubblewrap) and Node.js 20 or newer)

test-protoc: $(STAMP) ## run the bot guide's protoc lines as written and build its C++ bot; need protoc, its Go, Ruby and C++ plugins, g++
	$(call needs,test-protoc,protoc protoc-gen-go protoc-gen-go-grpc grpc_ruby_plugin grpc_cpp_plugin g++ pkg-config,$(BIN)/python -m pytest -m protoc $(PROTOC_TESTS),$(REQUIRE_PROTOC),install them: apt-get install protobuf-compiler protoc-gen-go protoc-gen-go-grpc protobuf-compiler-grpc g++ pkg-config libgrpc++-dev)

test-ray: $(STAMP) ## the Ray cluster tests, inside a private network namespace; need unshare and ip
	$(call needs,test-ray,unshare ip,$(BIN)/python -m pytest -m netns $(NETNS_TESTS),$(REQUIRE_NETNS),install them: apt-get install util-linux iproute2)

test-node: $(STAMP) ## the Node.js bot's tests (clients/node); says so when node or npm is missing
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		clients/node/run-tests.sh; \
	elif [ -n "$(REQUIRE_NODE)" ]; then \
		echo "test-node: REQUIRE_NODE is set but node and/or npm are not installed" >&2; exit 1; \
	else \
		echo "test-node: NOT RUN - node and/or npm not found; install Node.js 20+ to test clients/node"; \
	fi

CHROMIUM ?= /usr/bin/chromium

test-browser: $(STAMP) ## the web viewer in headless Chromium; says so when Chromium is missing
	@if [ -x "$(CHROMIUM)" ]; then \
		SHEEPFOLD_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -m browser -q $(BROWSER_TESTS) \
			-n $(BROWSER_WORKERS) --dist loadfile; \
	elif [ -n "$(REQUIRE_BROWSER)" ]; then \
		echo "test-browser: REQUIRE_BROWSER is set but there is no Chromium at $(CHROMIUM)" >&2; exit 1; \
	else \
		echo "test-browser: NOT RUN - chromium not found at $(CHROMIUM); install it (apt-get install chromium) to test the web viewer"; \
	fi

screenshots: $(STAMP) ## a picture of each game's web viewer, for the README (docs/screenshots/)
	SHEEPFOLD_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m web.screenshots docs/screenshots

proto: $(STAMP) ## regenerate the committed Python code from proto/
	$(BIN)/python proto/generate.py

lint: $(STAMP) ## ruff check, format check and mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP) ## ruff fix and format
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) ## performance benchmarks (prints a table, writes JSON)
	$(BIN)/python -m benchmarks

clean: ## remove .venv and caches
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
