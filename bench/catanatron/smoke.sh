#!/bin/sh
# A quick check of the Catanatron bridge for the test command: two games of
# our `normal` bot and two of a small `hard` search in Catanatron 3.2.1's
# engine, failing if any of our answers was not translatable. Needs PyPI
# (once, for the virtualenv) and a built target/debug/catan.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "catanatron==3.2.1"
fi
catan="$root/target/debug/catan"
"$venv/bin/python" "$here/bridge.py" --catan "$catan" --strict --games 2 --opponent weighted --kind normal
"$venv/bin/python" "$here/bridge.py" --catan "$catan" --strict --games 2 --opponent value --kind hard --playouts 20
