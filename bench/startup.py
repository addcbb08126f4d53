"""Start-up benchmark: the app's first paint vs a bare PySide6 window, side by side.

Run by hand (``make bench``). Alternates the two programs N times in one run, each a
fresh process, and measures wall-clock time from just before the process is started to
the first paint of its main window (and, for the app, until the campaign is shown).
Prints medians and ratios. Goal (not a test): app first paint <= 1.3 x bare window.

Each program watches one widget for its first Paint event (the bare window itself; the
app's opening page, which fills its window): a Python event filter on the whole
application would be called for every event of every widget and slow the start down.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))

BARE = r"""
import time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
class Probe(QObject):
    def eventFilter(self, w, e):
        if e.type() == QEvent.Type.Paint:
            print(f"first_paint={time.time():.6f}", flush=True)
            QTimer.singleShot(0, app.quit)
            w.removeEventFilter(self)
        return False
app = QApplication([])
w = QMainWindow(); w.resize(1180, 760); p = Probe(); w.installEventFilter(p); w.show()
app.exec()
"""


def run(cmd: list[str], env: dict[str, str]) -> dict[str, float]:
    start = time.time()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=True)
    marks = {}
    for line in out.stdout.splitlines():
        key, _, value = line.partition("=")
        if value:
            marks[key] = float(value) - start
    return marks


def main() -> None:
    home = tempfile.mkdtemp(prefix="bench-startup-")
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               COMPANION_HOME=home, COMPANION_STARTUP_PROBE="1")
    app_cmd = [sys.executable, "-m", "companion"]
    run(app_cmd, env)  # first start creates the demo campaign; not measured
    bare, app_paint, app_shown = [], [], []
    for _ in range(RUNS):
        bare.append(run([sys.executable, "-c", BARE], env)["first_paint"])
        marks = run(app_cmd, env)
        app_paint.append(marks["first_paint"])
        app_shown.append(marks["campaign_shown"])
    b, a, s = (statistics.median(x) for x in (bare, app_paint, app_shown))
    print(f"runs: {RUNS} each, alternating; platform {env['QT_QPA_PLATFORM']}")
    print(f"bare QMainWindow first paint   median {b * 1000:7.1f} ms")
    print(f"companion first paint          median {a * 1000:7.1f} ms   ratio {a / b:.2f} "
          "(goal <= 1.3)")
    print(f"companion campaign shown       median {s * 1000:7.1f} ms   ratio {s / b:.2f}")
    print(f"(demo campaign in {Path(home)})")


if __name__ == "__main__":
    main()
