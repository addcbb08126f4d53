#!/usr/bin/env bash
# The whole test suite, headless and on every core (pytest-xdist: one worker per CPU; tests
# marked xdist_group share a worker, so a module's costly set-up is built once), then
# mypy --strict on the pure layers and mypy on the whole package (strict where
# pyproject.toml says so).
# Usage: scripts/test.sh PYTHON (make test passes the virtual environment's python).
set -uo pipefail
PY=${1:-.venv/bin/python}
export QT_QPA_PLATFORM=offscreen

"$PY" -m pytest -q -n auto --dist loadgroup
status=$?
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure, not a pass" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"

"$PY" -m mypy --strict companion/rules companion/content companion/store || exit 1
"$PY" -m mypy companion
