#!/usr/bin/env bash
# The app in a real window under a virtual X display (Xvfb), on a fresh demo campaign:
# saves docs/screenshots/xvfb-main-window.png. Needs: apt-get install xvfb
# libxcb-icccm4 libxcb-keysyms1 (see README), and the venv from `make run` or `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
unset QT_QPA_PLATFORM
COMPANION_HOME="$home" xvfb-run -a -s "-screen 0 1280x800x24" \
    .venv/bin/companion --screenshot docs/screenshots/xvfb-main-window.png
