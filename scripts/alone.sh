#!/usr/bin/env bash
# Each test of a folder run alone, one pytest process per test id: the promise that a
# scenario builds its state from a fixture, never from the test before it (issue 30).
# Usage: scripts/alone.sh PYTHON [FOLDER_OR_FILE...]   (make test-alone: tests/acceptance)
# Not part of make test: one process per test takes a few minutes for the acceptance
# folder alone.
set -uo pipefail
PY=${1:-.venv/bin/python}
shift || true
[ "$#" -gt 0 ] || set -- tests/acceptance
export QT_QPA_PLATFORM=offscreen

mapfile -t ids < <("$PY" -m pytest --collect-only -q -p no:cacheprovider "$@" | grep '::')
[ "${#ids[@]}" -gt 0 ] || { echo "no tests collected in $*" >&2; exit 1; }
failed=()
for id in "${ids[@]}"; do
    if "$PY" -m pytest -q -p no:cacheprovider "$id" >/dev/null 2>&1; then
        echo "alone, passes: $id"
    else
        echo "alone, FAILS:  $id"
        failed+=("$id")
    fi
done
echo "${#ids[@]} tests run alone, ${#failed[@]} failed"
[ "${#failed[@]}" -eq 0 ]
