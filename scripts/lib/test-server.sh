# Sourced by test scripts: starts the built `target/debug/catan-server` on a
# free loopback port with a fresh embedded SQLite store, waits until it
# answers, and stops it (and removes its data) when the script exits.
# Extra `NAME=value` settings may be passed as arguments. Sets `port`.
# Needs python3.

test_server_start() {
  test_server_data="$(mktemp -d)"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  env -u DATABASE_URL CATAN_DATA_DIR="$test_server_data" CATAN_BIND="127.0.0.1:$port" RUST_LOG=warn "$@" \
    ./target/debug/catan-server > "$test_server_data/server.log" 2>&1 &
  test_server_pid=$!
  trap test_server_stop EXIT
  for _ in $(seq 1 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz')" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the test server did not answer; its log:" >&2
  cat "$test_server_data/server.log" >&2
  return 1
}

test_server_stop() {
  kill "$test_server_pid" 2>/dev/null || true
  wait "$test_server_pid" 2>/dev/null || true
  rm -rf "$test_server_data"
}
