#!/bin/sh
# A quick check of the Catanatron bridge for the test command: two games of
# our `normal` bot and two of a small `hard` search in Catanatron 3.2.1's
# engine, failing if any of our answers was not translatable. Needs PyPI
# (once, for the virtualenv) and a built target/debug/catan.
set -eu
. "$(dirname "$0")/venv.sh"
catan="$root/target/debug/catan"
"$venv/bin/python" "$here/bridge.py" --catan "$catan" --strict --games 2 --opponent weighted --kind normal
"$venv/bin/python" "$here/bridge.py" --catan "$catan" --strict --games 2 --opponent value --kind hard --playouts 20
