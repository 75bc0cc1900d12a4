#!/usr/bin/env bash
# Fuzzes the live HTTP API against its own OpenAPI document with
# schemathesis (PyPI, pinned, installed into its own virtualenv under
# target/ on first use): generated and mutated requests to every operation,
# checking that none gets a 5xx and every answer has a declared status,
# content type and a body inside its schema. The WebSocket upgrade is left
# out (the WebSocket messages have their own schemas, tested by
# crates/catan-protocol/tests/schema.rs). Needs python3 and a built
# `target/debug/catan-server`. `scripts/api-fuzz.sh [seconds]` (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

venv=target/schemathesis-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"
fi

. scripts/lib/test-server.sh
# Generous limits: the fuzzer makes many lobbies and POSTs from one address.
test_server_start CATAN_HTTP_RATE_PER_SEC=100000 CATAN_HTTP_RATE_BURST=100000 \
  CATAN_MAX_LOBBIES_PER_CLIENT=100000 CATAN_MAX_LOBBIES=100000

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
