#!/usr/bin/env bash
# Build the one-folder PyInstaller bundle of Stonesaga Companion, then smoke-test it.
#
#   packaging/build.sh            # build dist/stonesaga-companion/ and run its --smoke
#   SKIP_BUILD=1 packaging/build.sh   # only smoke-test (and time) an existing build
#
# Exits non-zero if the build fails or the built binary does not start (--smoke paints
# the main window offscreen on a temporary demo campaign and exits 0). PyInstaller is a
# build tool, not a runtime dependency: it is installed into the venv here, on demand.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
NAME=stonesaga-companion
DIST="$ROOT/dist/$NAME"
PYINSTALLER_SPEC="${PYINSTALLER_SPEC:-pyinstaller>=6.5,<7}"

if [ ! -x "$PY" ]; then
    echo "build.sh: no virtual environment at $VENV (run 'make venv' first)" >&2
    exit 2
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

if [ -z "${SKIP_BUILD:-}" ]; then
    if ! "$PY" -c "import PyInstaller" 2>/dev/null; then
        echo "== installing PyInstaller into $VENV (build tool only)"
        "$PY" -m pip install --quiet "$PYINSTALLER_SPEC"
    fi
    echo "== building $DIST"
    start=$(now)
    "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" \
        packaging/$NAME.spec
    build_seconds=$(elapsed "$start" "$(now)")
    # The desktop integration files travel with the folder (see packaging/README.md).
    cp packaging/linux/$NAME.desktop packaging/linux/$NAME-mime.xml "$DIST/"
    cp assets/app-icon-256.png "$DIST/$NAME.png"
    cp assets/app-icon.svg "$DIST/$NAME.svg"
    cp packaging/linux/install.sh "$DIST/install.sh"
    echo "   built in ${build_seconds}s"
fi

BIN="$DIST/$NAME"
if [ ! -x "$BIN" ]; then
    echo "build.sh: $BIN is missing" >&2
    exit 1
fi
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$DIST/$NAME.desktop"
fi

# --smoke in a throw-away user folder, offscreen: it must print "smoke ok" and exit 0.
export QT_QPA_PLATFORM=offscreen
export QT_LOGGING_RULES="qt.qpa.*=false"
HOME_DIR="$(mktemp -d)"
trap 'rm -rf "$HOME_DIR"' EXIT
export COMPANION_HOME="$HOME_DIR"

echo "== smoke test of the built binary"
set +e
out="$(timeout 120 "$BIN" --smoke 2>&1)"
code=$?
set -e
echo "$out"
if [ $code -ne 0 ] || ! grep -q "smoke ok" <<<"$out"; then
    echo "build.sh: SMOKE TEST FAILED (exit $code)" >&2
    exit 1
fi
"$BIN" --version
"$BIN" content check >/dev/null  # the shipped packs load from inside the bundle

# Start-up figures: built binary vs source, median of a few --smoke runs each.
echo "== timing --smoke (each run creates and opens a demo campaign, then paints)"
"$PY" packaging/time_smoke.py "${SMOKE_RUNS:-5}" "$BIN" -- "$PY" -m companion
size=$(du -sh "$DIST" | cut -f1)
echo "   bundle size:  $size ($DIST)"
echo "== ok: $BIN"
