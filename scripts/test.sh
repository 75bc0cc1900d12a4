#!/usr/bin/env bash
# The one command that runs every check and test of the project:
# formatting, clippy, all Rust tests (unit, scenario, property, store on
# PostgreSQL and SQLite, real-socket server tests, crash recovery), the
# browser tests of the web front end, and a small load/fault smoke run.
#
# Needs: a Rust toolchain with rustfmt and clippy; PostgreSQL reachable at
# DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); node +
# npm and Chromium at /usr/bin/chromium for the browser tests. `.ci/run`
# installs what a fresh machine lacks and then calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo build (binaries used by the tests below and by some tests)"
cargo build --workspace --bins

echo "== cargo test"
cargo test --workspace

echo "== catan check on the worked examples"
for f in crates/catan-core/tests/scenarios/examples/*.json; do
  ./target/debug/catan check "$f" > /dev/null
done

echo "== the example external bot plays a whole game (examples/python-bot)"
bash scripts/example-bot-test.sh

if [ -x scripts/web-test.sh ]; then
  echo "== browser tests"
  # A fresh embedded SQLite store per run, so no earlier run's games are
  # recovered into this one.
  web_data="$(mktemp -d)"
  env -u DATABASE_URL CATAN_DATA_DIR="$web_data" bash scripts/web-test.sh
  rm -rf "$web_data"
fi

if [ -x scripts/loadtest-smoke.sh ]; then
  echo "== load and fault smoke run"
  bash scripts/loadtest-smoke.sh
fi
echo "all checks passed"
