"""Start-up benchmark: the app against a bare PySide6 window and against "the floor".

Run by hand (``make bench``). Each program is a fresh process; the programs are run in
turn, RUNS times (alternating, so a busy machine slows them alike), and the medians and
ratios are printed:

- **bare**: a bare ``QMainWindow`` paints for the first time;
- **floor**: the same bare window paints, then imports sqlmodel, opens the campaign file
  and shows one row read through a sqlmodel ``Session`` (the least any sqlmodel app
  must do before a campaign is on screen);
- **companion**: ``python -m companion`` with ``COMPANION_STARTUP_PROBE`` set, which
  prints its first paint and the moment the campaign is shown (the last campaign);
  With issue 37's first view, "shown" is its paint, and the app also prints when the
  real views have taken its place ("ready": clicks act from then on), printed beside;
- **companion PATH**: the same, the campaign opened by its path (``python -m companion
  FILE.stonesaga``), as a double-click on the file does.

Goals (not tests): companion first paint <= 1.3 x bare; campaign shown <= 1.2 x floor,
for the last campaign and for one opened by its path (issue 37). The last lines put the
start-up ratios side by side, each with whether its goal is met, and the load average.
The floor and the app also print their own CPU time when the campaign is shown: on a
machine shared with other work, wall-clock medians swing with the load, CPU time much
less, so that ratio is printed too.

Memory: the peak resident set size of ``companion --smoke`` (which opens a demo
campaign, paints the main window once and exits) against that of the bare window,
each a fresh process (``os.wait4``'s ``ru_maxrss``). Goals (not tests): <= 2 x the bare
window's and <= 1.2 x the floor's. The floor's own peak is printed beside it: importing
sqlmodel (SQLAlchemy, pydantic) alone about doubles a bare window's.

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

RUNS = int(os.environ.get("BENCH_RUNS", "9"))
MEMORY_RUNS = int(os.environ.get("BENCH_MEMORY_RUNS", "3"))

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

# The floor: the bare window paints, then sqlmodel is imported, the campaign file is
# opened, and one row read through a sqlmodel Session is shown in the window.
FLOOR = r"""
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
class Probe(QObject):
    def eventFilter(self, w, e):
        if e.type() == QEvent.Type.Paint:
            print(f"first_paint={time.time():.6f}", flush=True)
            w.removeEventFilter(self)
            QTimer.singleShot(0, show_row)
        return False
def show_row():
    from sqlmodel import Field, Session, SQLModel, create_engine, select
    class Campaign(SQLModel, table=True):
        id: int | None = Field(default=None, primary_key=True)
        society_name: str = ""
    engine = create_engine(f"sqlite:///{sys.argv[1]}")
    with Session(engine) as session:
        row = session.exec(select(Campaign)).one()
    w.setCentralWidget(QLabel(f"{row.society_name}"))
    w.repaint()
    print(f"campaign_shown={time.time():.6f}", flush=True)
    print(f"campaign_shown_cpu={time.process_time():.6f}", flush=True)
    app.quit()
app = QApplication([])
w = QMainWindow(); w.resize(1180, 760); p = Probe(); w.installEventFilter(p); w.show()
app.exec()
"""


def run(cmd: list[str], env: dict[str, str]) -> dict[str, float]:
    """Run ``cmd``; the wall-clock marks it printed, in seconds after its start."""
    start = time.time()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    out, err = proc.communicate(timeout=120)
    if proc.returncode:
        raise SystemExit(f"{cmd} failed ({proc.returncode}):\n{err}")
    marks = {}
    for line in out.splitlines():
        key, _, value = line.partition("=")
        if value:
            try:
                # *_cpu marks are the process's own CPU seconds, not wall-clock times
                marks[key] = float(value) - (0 if key.endswith("_cpu") else start)
            except ValueError:
                continue
    return marks


def peak_rss(cmd: list[str], env: dict[str, str]) -> float:
    """The peak resident set size of ``cmd`` (a fresh process), in MiB."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{cmd} failed ({proc.returncode}):\n{err}")
    return usage.ru_maxrss / 1024  # KiB on Linux


def demo_campaign(home: str) -> Path:
    found = sorted(Path(home).rglob("*.stonesaga"))
    if not found:
        raise SystemExit(f"no demo campaign was made in {home}")
    return found[0]


def met(ratio: float, goal: float = 1.2) -> str:
    """Whether a ratio meets its goal, in words."""
    return "goal met" if ratio <= goal else "goal NOT met"


def main() -> None:
    load_before = os.getloadavg()
    home = tempfile.mkdtemp(prefix="bench-startup-")
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               COMPANION_HOME=home, COMPANION_STARTUP_PROBE="1",
               PYTHONPYCACHEPREFIX=str(Path(home) / "pycache"))
    # Byte code is cached, as in an installed app (pip compiles it), in a folder of the
    # bench's own: a source checkout run with PYTHONDONTWRITEBYTECODE would otherwise
    # compile the whole app on every start (and none of the floor, whose modules are
    # installed).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    app_cmd = [sys.executable, "-m", "companion"]
    run(app_cmd, env)  # first start creates the demo campaign; not measured
    run(app_cmd, env)  # and the second warms the caches a first start fills
    campaign = demo_campaign(home)
    floor_cmd = [sys.executable, "-c", FLOOR, str(campaign)]
    bare_cmd = [sys.executable, "-c", BARE]
    run(floor_cmd, env)  # fills the byte-code cache of its modules; not measured
    path_cmd = [*app_cmd, str(campaign)]
    bare, floor, app_paint, app_shown, floor_cpu, app_cpu = [], [], [], [], [], []
    path_shown, path_cpu, app_ready, path_ready = [], [], [], []
    for _ in range(RUNS):
        bare.append(run(bare_cmd, env)["first_paint"])
        marks = run(floor_cmd, env)
        floor.append(marks["campaign_shown"])
        floor_cpu.append(marks["campaign_shown_cpu"])
        marks = run(app_cmd, env)
        app_paint.append(marks["first_paint"])
        app_shown.append(marks["campaign_shown"])
        app_cpu.append(marks["campaign_shown_cpu"])
        app_ready.append(marks.get("campaign_ready", marks["campaign_shown"]))
        marks = run(path_cmd, env)
        path_shown.append(marks["campaign_shown"])
        path_cpu.append(marks["campaign_shown_cpu"])
        path_ready.append(marks.get("campaign_ready", marks["campaign_shown"]))
    b, f, a, s, ps = (statistics.median(x)
                      for x in (bare, floor, app_paint, app_shown, path_shown))
    fc, ac, pc = (statistics.median(x) for x in (floor_cpu, app_cpu, path_cpu))

    smoke_env = {k: v for k, v in env.items() if k != "COMPANION_STARTUP_PROBE"}
    bare_mem, floor_mem, smoke_mem, path_mem = [], [], [], []
    for _ in range(MEMORY_RUNS):
        bare_mem.append(peak_rss(bare_cmd, smoke_env))
        floor_mem.append(peak_rss(floor_cmd, smoke_env))
        smoke_mem.append(peak_rss([*app_cmd, "--smoke"], smoke_env))
        # --smoke makes a throw-away demo and shows no first view: the campaign opened
        # by its path, up to the real views ready (the probe quits then), shows it too.
        path_mem.append(peak_rss(path_cmd, env))
    bm, fm, sm, pm = (statistics.median(x) for x in (bare_mem, floor_mem, smoke_mem, path_mem))

    load = os.getloadavg()
    print(f"runs: {RUNS} each, alternating; platform {env['QT_QPA_PLATFORM']}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"bare QMainWindow first paint   median {b * 1000:7.1f} ms")
    print(f"floor (bare + sqlmodel row)    median {f * 1000:7.1f} ms")
    print(f"companion first paint          median {a * 1000:7.1f} ms   "
          f"{a / b:.2f} x bare   (goal <= 1.3)")
    print(f"companion campaign shown       median {s * 1000:7.1f} ms   "
          f"{s / f:.2f} x floor  (goal <= 1.2)")
    print(f"companion PATH campaign shown  median {ps * 1000:7.1f} ms   "
          f"{ps / f:.2f} x floor  (goal <= 1.2; opened by its path)")
    ar, pr = statistics.median(app_ready), statistics.median(path_ready)
    print(f"real views ready (clicks act)  median {ar * 1000:7.1f} ms   {ar / f:.2f} x floor, "
          f"by path {pr * 1000:.1f} ms   {pr / f:.2f} x floor  (no goal: after the first view)")
    print(f"CPU to shown: floor {fc * 1000:.0f} ms, companion {ac * 1000:.0f} ms   "
          f"{ac / fc:.2f} x floor, by path {pc * 1000:.0f} ms   {pc / fc:.2f} x floor  "
          "(the process's own CPU time: steadier on a busy machine)")
    print(f"peak RSS, bare window shown    median {bm:7.1f} MiB")
    print(f"peak RSS, floor                median {fm:7.1f} MiB   {fm / bm:.2f} x bare")
    print(f"peak RSS, companion --smoke    median {sm:7.1f} MiB   "
          f"{sm / bm:.2f} x bare   (goal <= 2)   {sm / fm:.2f} x floor")
    print(f"peak RSS, companion PATH ready median {pm:7.1f} MiB   {pm / bm:.2f} x bare   "
          f"{pm / fm:.2f} x floor  (first view, then the real views)")
    print(f"ratios (goal <= 1.2 each): campaign shown / floor {s / f:.2f} ({met(s / f)}), "
          f"opened by its path {ps / f:.2f} ({met(ps / f)}), "
          f"--smoke peak RSS / floor's {sm / fm:.2f} ({met(sm / fm)}); load average "
          f"{load_before[0]:.2f} before, {load[0]:.2f} after")
    print(f"(demo campaign in {Path(home)})")


if __name__ == "__main__":
    main()
