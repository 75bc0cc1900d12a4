#!/usr/bin/env bash
# The one command that runs every check and test of the project.
# Needs: a Rust toolchain with rustfmt and clippy; PostgreSQL reachable at
# DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
set -euo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== catan check on the worked examples"
cargo build --quiet -p catan-cli
for f in crates/catan-core/tests/scenarios/examples/*.json; do
  [ -e "$f" ] || continue
  ./target/debug/catan check "$f" > /dev/null
done
echo "all checks passed"
