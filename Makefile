# Everything a newcomer needs: `make demo` and `make test` set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: help install demo test test-ray test-node test-browser screenshots proto lint format bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install sheepfold with its dev tools

demo: $(STAMP) ## play a short round robin of the built-in bots on every game
	$(BIN)/sheepfold demo

test: $(STAMP) ## run the whole test suite (the Node bot's too when node and npm are installed)
	$(BIN)/python -m pytest -m "not browser"
	@$(MAKE) --no-print-directory test-node
	@$(MAKE) --no-print-directory test-browser

test-ray: $(STAMP) ## only the Ray cluster tests, in a private network namespace (make test runs them too)
	unshare --net sh -c 'ip link set lo up && SHEEPFOLD_RAY_NAMESPACE=1 $(BIN)/python -m pytest tests/ray'

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
		SHEEPFOLD_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -m browser -q; \
	elif [ -n "$(REQUIRE_BROWSER)" ]; then \
		echo "test-browser: REQUIRE_BROWSER is set but there is no Chromium at $(CHROMIUM)" >&2; exit 1; \
	else \
		echo "test-browser: NOT RUN - chromium not found at $(CHROMIUM); install it (apt-get install chromium) to test the web viewer"; \
	fi

screenshots: $(STAMP) ## a picture of each game's web viewer, for the README (docs/screenshots/)
	SHEEPFOLD_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m web.screenshots docs/screenshots

proto: $(STAMP) ## regenerate the committed Python code from proto/
	$(BIN)/python proto/generate.py

lint: $(STAMP) ## ruff check and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP) ## ruff fix and format
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) ## performance benchmarks (prints a table, writes JSON)
	$(BIN)/python -m benchmarks

clean: ## remove .venv and caches
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
