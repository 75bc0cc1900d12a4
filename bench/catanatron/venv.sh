# Sourced (not run) by run.sh and smoke.sh: sets $here, $root and $venv, and
# makes the virtualenv bench/catanatron/.venv (git-ignored) with
# catanatron==3.2.1 from PyPI on first use, so that the benchmark and the
# smoke check always play the same pinned engine. `$0` is the caller's.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "catanatron==3.2.1"
fi
