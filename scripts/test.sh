#!/usr/bin/env bash
# The one command that runs every check and test of the project:
# formatting, clippy, all Rust tests (unit, scenario, property, store on
# PostgreSQL and SQLite, real-socket server tests, crash recovery), the
# browser tests of the web front end, and a small load/fault smoke run.
#
# Needs: the Rust toolchain of rust-toolchain.toml with rustfmt and clippy;
# PostgreSQL reachable at DATABASE_URL (default
# postgres://postgres@127.0.0.1:5432/postgres); node + npm and Chromium at
# /usr/bin/chromium for the browser tests. `.ci/run` installs what a fresh
# machine lacks and then calls this script.
#
# Every stage must exist and pass: a stage script that is missing is a
# failure, never a silent skip. The browser tests and the fuzzers run in
# the background beside the stages after the build (see below); every
# other stage runs in turn. Each
# stage's wall time and the total are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

started=$SECONDS
timings=()

# stage NAME COMMAND...: runs one stage and records how long it took.
stage() {
  local name=$1
  shift
  echo "== $name"
  local t=$SECONDS
  "$@"
  timings+=("$(printf '%5d s  %s' $((SECONDS - t)) "$name")")
}

# A stage script that is not there fails the run.
require() {
  if [ ! -f "$1" ]; then
    echo "test.sh: the stage script $1 is missing" >&2
    exit 1
  fi
}

# require_built FILE...: fails unless each FILE is an executable.
require_built() {
  local f
  for f in "$@"; do
    if [ ! -x "$f" ]; then
      echo "test.sh: $f was not built" >&2
      return 1
    fi
  done
}

check_examples() {
  for f in crates/catan-core/tests/scenarios/examples/*.json; do
    ./target/debug/catan check "$f" > /dev/null
  done
}

browser_tests() {
  # A fresh embedded SQLite store per run, so no earlier run's games are
  # recovered into this one.
  local web_data rc=0
  web_data="$(mktemp -d)"
  env -u DATABASE_URL CATAN_DATA_DIR="$web_data" bash scripts/web-test.sh || rc=$?
  rm -rf "$web_data"
  return "$rc"
}

# background NAME TITLE COMMAND...: starts a stage beside the others, its output
# in target/test-logs/NAME.log; `wait_for NAME` waits for it, prints the
# log's tail (the whole log if it failed, and then fails the run) and
# records its wall time.
declare -A bg_pid bg_title
background() {
  local name=$1 title=$2
  shift 2
  mkdir -p target/test-logs
  echo "== $title (in the background, log target/test-logs/$name.log)"
  (
    t=$SECONDS
    # The stage runs in a shell of its own with -e in force: run as the
    # left side of `||`, a function's failing command other than its last
    # was ignored, and a failed browser run followed by a cleanup passed.
    set +e
    (
      set -e
      "$@"
    ) > "target/test-logs/$name.log" 2>&1
    rc=$?
    echo "$((SECONDS - t))" > "target/test-logs/$name.secs"
    exit "$rc"
  ) &
  bg_pid[$name]=$!
  bg_title[$name]=$title
}
wait_for() {
  local name=$1 rc=0
  echo "== ${bg_title[$name]} (waiting for the background run)"
  wait "${bg_pid[$name]}" || rc=$?
  unset "bg_pid[$name]"
  if [ "$rc" -ne 0 ]; then
    cat "target/test-logs/$name.log"
    echo "test.sh: ${bg_title[$name]} failed (log above, target/test-logs/$name.log)" >&2
    exit "$rc"
  fi
  tail -n 4 "target/test-logs/$name.log"
  timings+=("$(printf '%5d s  %s (in the background)' \
    "$(cat "target/test-logs/$name.secs")" "${bg_title[$name]}")")
}
# A failed stage must not leave a background run (playwright, its
# browsers, a fuzzer, their servers) behind.
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
kill_background() {
  local pid
  for pid in "${bg_pid[@]}"; do kill_tree "$pid"; done
}
trap kill_background EXIT

# The command's own check, first: a background stage whose first command
# fails must fail the run (it once passed, which hid a failed browser run).
# Run in a shell of its own, as test.sh runs its stages.
failing_then_passing() {
  false
  true
}
background_stages_fail() {
  if TEST_SH_BACKGROUND_CHECK=1 bash scripts/test.sh > /dev/null 2>&1; then
    echo "test.sh: a background stage that failed passed" >&2
    return 1
  fi
}
if [ -n "${TEST_SH_BACKGROUND_CHECK:-}" ]; then
  background check "a stage that fails" failing_then_passing > /dev/null
  wait_for check
  exit 0
fi

# The browser tests get a copy of the server binary, so that no later
# build (a developer's, beside a run) can relink it under their server.
browser_tests_on_a_copy() {
  mkdir -p target/browser-server
  cp target/debug/catan-server target/browser-server/catan-server
  CATAN_SERVER_BIN="$PWD/target/browser-server/catan-server" browser_tests
}

# Both fuzzers run; either failing fails the stage.
fuzzing() {
  local rc=0
  bash scripts/fuzz.sh 30 || rc=$?
  bash scripts/api-fuzz.sh 30 || rc=$?
  return "$rc"
}

require scripts/web-test.sh
require scripts/loadtest-smoke.sh
require scripts/example-bot-test.sh
require bench/catanatron/smoke.sh
require scripts/fuzz.sh
require scripts/deny.sh
require scripts/api-fuzz.sh

stage "a failed background stage fails the run" background_stages_fail
stage "cargo fmt --check" cargo fmt --all -- --check
stage "cargo deny (licences, bans, sources, advisories)" bash scripts/deny.sh
# --all-features: the load tester (a feature of catan-cli) is linted, built
# and tested too.
stage "cargo clippy" cargo clippy --workspace --all-targets --all-features -- -D warnings
stage "cargo clippy (catan-cli without the load tester)" cargo clippy -p catan-cli --all-targets -- -D warnings
# One build of the tests and the binaries they run (`catan`, `catan-server`:
# their packages have integration tests, so cargo builds them with the
# tests' features). A `cargo build` of the binaries first compiled tokio,
# sqlx and the workspace twice, since the tests' dev-dependencies turn on
# more features of shared dependencies.
stage "cargo test (building the tests and the binaries)" cargo test --workspace --all-features --no-run
stage "the binaries the later stages run are built" require_built target/debug/catan target/debug/catan-server
# The browser tests mostly wait (on the page, the server, the turn timer),
# and so do the Rust tests: the browser tests and the fuzzers (their own
# build, then 30 s each) run beside every stage from here on.
background browser "browser tests" browser_tests_on_a_copy
background fuzzing "fuzzing the rules engine and the HTTP API against its OpenAPI document (30 s each)" fuzzing
# Four test threads, not one a core: most integration tests wait on
# sockets, child processes and PostgreSQL (a cluster test mostly waits for
# leases to run out), so two threads leave the cores idle. The server's
# tests are one binary (crates/catan-server/tests/server/) so that all of
# them share these threads.
# The load tester's end-to-end test drives the server binary this build
# made (a `cargo build` of it would resolve other features and compile
# much of the workspace again).
stage "cargo test" env CATAN_LOADTEST_SERVER="$PWD/target/debug/catan-server" \
  cargo test --workspace --all-features -- --test-threads 4
stage "catan check on the worked examples" check_examples
stage "the example external bot plays a whole game (examples/python-bot)" bash scripts/example-bot-test.sh
stage "our bots play a few games in Catanatron 3.2.1 (bench/catanatron)" sh bench/catanatron/smoke.sh
# The test build made both binaries with every feature, the load tester's
# included.
stage "load and fault smoke run" env LOADTEST_NO_BUILD=1 bash scripts/loadtest-smoke.sh
wait_for fuzzing
wait_for browser

echo
echo "stage times:"
printf '%s\n' "${timings[@]}"
printf '%5d s  total\n' $((SECONDS - started))
echo "all checks passed"
