#!/usr/bin/env bash
# Fuzzes the rules engine (fuzz/fuzz_targets/actions.rs) with cargo-fuzz for
# a bounded time: `scripts/fuzz.sh [seconds]` (default 60). Needs a nightly
# toolchain (cargo-fuzz builds with a sanitizer) and cargo-fuzz itself, which
# `.ci/run` installs when missing. A crash leaves its input in
# fuzz/artifacts/actions/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
corpus=corpus/actions
mkdir -p "$corpus"
cargo +nightly fuzz run actions "$corpus" -- \
  -max_total_time="$seconds" -max_len=4096 -print_final_stats=1
