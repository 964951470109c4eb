#!/usr/bin/env bash
# The Node.js bot's tests: install the pinned dependencies when node_modules is
# missing or older than the lock file, then run `node --test` (which starts a
# real `sheepfold serve` from ../../.venv). Exit status: that of `node --test`.
set -euo pipefail
cd "$(dirname "$0")"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "clients/node/run-tests.sh: '$tool' is not installed (Node.js 20 or newer is needed)" >&2
    exit 1
  fi
done
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  echo "clients/node/run-tests.sh: Node.js $(node --version) is too old; 20 or newer is needed" >&2
  exit 1
fi
python="${SHEEPFOLD_PYTHON:-../../.venv/bin/python}"
if [ ! -x "$python" ]; then
  echo "clients/node/run-tests.sh: $python not found; run 'make install' first" >&2
  exit 1
fi

# npm writes node_modules/.package-lock.json on every install: older than the
# lock file or package.json means the installed tree may be stale.
installed=node_modules/.package-lock.json
if [ ! -f "$installed" ] || [ package-lock.json -nt "$installed" ] || [ package.json -nt "$installed" ]; then
  npm ci --no-audit --no-fund
fi

exec node --test --test-reporter=spec
