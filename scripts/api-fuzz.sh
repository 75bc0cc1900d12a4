#!/usr/bin/env bash
# Fuzzes the live HTTP API against its own OpenAPI document with
# schemathesis (PyPI, pinned, installed into its own virtualenv under
# target/ on first use): generated and mutated requests to every operation,
# checking that none gets a 5xx and every answer has a declared status,
# content type and a body inside its schema. The WebSocket upgrade is left
# out (the WebSocket messages have their own schemas, tested by
# crates/catan-server/tests/schema.rs). Needs python3 and a built
# `target/debug/catan-server`. `scripts/api-fuzz.sh [seconds]` (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

venv=target/schemathesis-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"
fi

data="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
# Generous limits: the fuzzer makes many lobbies and POSTs from one address.
env -u DATABASE_URL CATAN_DATA_DIR="$data" CATAN_BIND="127.0.0.1:$port" RUST_LOG=warn \
  CATAN_HTTP_RATE_PER_SEC=100000 CATAN_HTTP_RATE_BURST=100000 \
  CATAN_MAX_LOBBIES_PER_CLIENT=100000 CATAN_MAX_LOBBIES=100000 \
  ./target/debug/catan-server > "$data/server.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT

for _ in $(seq 1 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz')" 2>/dev/null && break
  sleep 0.1
done

# A host token, so that the host-only operations are reached too (on the
# lobbies the fuzzer finds; on others they are refused as not the host's).
host_token="$(python3 - "$port" <<'PY'
import json, sys, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/api/lobbies", method="POST",
                             data=json.dumps({"name": "fuzz"}).encode(),
                             headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req))["host_token"])
PY
)"

"$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/openapi.json" \
  --exclude-path-regex '/ws$' \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  -H "Authorization: Bearer $host_token" \
  --max-time "$seconds" --workers 1 --no-color 2>&1 | tail -n 60
