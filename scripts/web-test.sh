#!/usr/bin/env bash
# Browser tests of the web front end: installs the npm dependencies if
# missing (without a browser download: the tests use the system Chromium),
# builds the server binary, and runs the Playwright suite in web/ against it.
# Needs: node and npm, a Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
# The server uses its default store, or DATABASE_URL when it is set.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "web-test: no Chromium at $chromium (apt-get install chromium, or set CHROMIUM_PATH)" >&2
  exit 1
fi

if [ ! -d web/node_modules/@playwright/test ]; then
  echo "== npm ci (web)"
  (cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

# CATAN_SERVER_BIN: a server binary built already (scripts/test.sh passes
# a copy of its own); otherwise the debug build, made here.
if [ -z "${CATAN_SERVER_BIN:-}" ]; then
  echo "== cargo build -p catan-server"
  cargo build --quiet -p catan-server
fi

echo "== playwright test (web)"
cd web
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test "$@"
