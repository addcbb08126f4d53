"""Time ``--smoke`` runs of the built binary and of the source checkout, side by side.

    python packaging/time_smoke.py RUNS BINARY -- SOURCE_COMMAND...

Prints, for each, the median wall-clock time and the median CPU time (user + system of
the child). Wall time suffers when the machine is busy; CPU time much less so. Runs
alternate between the two so a burst of load hits both alike. Exits non-zero if any run
fails or exceeds the time limit.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

LIMIT_SECONDS = 120


def one(command: list[str]) -> tuple[float, float]:
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command + ["--smoke"], check=True, timeout=LIMIT_SECONDS,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)
    return wall, cpu


def probe(command: list[str]) -> tuple[float, float]:
    """(first paint, campaign shown) in seconds from launch, with the start-up probe of
    companion.cli.gui (COMPANION_STARTUP_PROBE): the demo campaign in the user folder."""
    env = dict(os.environ, COMPANION_STARTUP_PROBE="1")
    start = time.time()
    out = subprocess.run(command, check=True, timeout=LIMIT_SECONDS, env=env,
                         capture_output=True, text=True).stdout
    marks = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return float(marks["first_paint"]) - start, float(marks["campaign_shown"]) - start


def medians(measure: Callable[[list[str]], tuple[float, float]], runs: int,
            binary: list[str], source: list[str]) -> dict[str, tuple[float, float]]:
    """The median of each of the two numbers ``measure`` gives, for the built binary and
    for the source, over ``runs`` runs that alternate between the two."""
    results: dict[str, list[tuple[float, float]]] = {"built binary": [], "from source": []}
    for _ in range(runs):
        results["built binary"].append(measure(binary))
        results["from source"].append(measure(source))
    return {name: (statistics.median(v[0] for v in values),
                   statistics.median(v[1] for v in values))
            for name, values in results.items()}


def main() -> int:
    runs = int(sys.argv[1])
    binary = [sys.argv[2]]
    source = sys.argv[sys.argv.index("--") + 1:]
    one(binary)  # warm the file cache for both
    one(source)
    for name, (wall, cpu) in medians(one, runs, binary, source).items():
        print(f"   {name:13s} --smoke: median wall {wall:5.2f} s, CPU {cpu:5.2f} s "
              f"({runs} runs)")
    probe(binary)  # creates the demo campaign in the user folder once
    for name, (paint, campaign) in medians(probe, runs, binary, source).items():
        print(f"   {name:13s} start-up: first paint {paint:5.2f} s, campaign shown "
              f"{campaign:5.2f} s (median wall, reopening the demo)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
