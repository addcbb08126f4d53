"""Benchmark: does every click answer as fast as the operation itself, however long the
campaign? (issue 37)

Run by hand:  QT_QPA_PLATFORM=offscreen .venv/bin/python bench/clicks.py [--rounds 12]
              [--sizes 3000 100000] [--evenings 1]

Every evening runs in this one process, as a long evening at the table does (PySide6 6.12.0
lost a reference to None in every Qt call returning nothing and ended such a process after a
few hundred clicks; pyproject.toml excludes it, tests/ui/test_none_refcount.py guards it).

Side by side in one temporary folder, the demo campaign is copied twice for each size of
history (new, and with ``--sizes`` journal events bulk inserted before its evening): one
copy is open in the main window (offscreen, shown, every view built, as after a player
has visited each tab), the other is only open. The same scripted evening is played on
both, one operation at a time in turn (``--tabs first``: only the Valley's view built, as
the campaign opens): on the window's copy as a click
(``MainWindow.run_operation``, Edit ▸ Undo/Redo through their actions) with the events
processed after it, on the other by calling the operation alone. Each round is a move
(an explore, undone), undo and redo, a journal entry, lore, an activity's steps (fishing
begun and a step drawn, undone), the Day passed and a Night's steps (begun and a step
drawn, undone), so every round starts where the last one did.

Prints p50/p95 for each kind of click, through the window against alone, the long
campaigns against the new one, the load average, and whether each goal is met:
a click <= 1.3x the operation alone at p50 and <= 1.5x at p95; a year-long campaign's
click <= 1.1x the new one's (p50).

Measured (2 shared cores, ``--rounds 4 --processes 3``, now ``--evenings 3``, every view
built, the Valley in front), every click, p50 alone / through the window (ratio), p95
through the window:
- before issue 37 (load 4.8 rising to 8.6): new 14.8 / 220 ms (14.9x), p95 492 ms;
  3,000 events 10.9 / 178 ms (16.3x), p95 591 ms; 100,000 events 23.5 / 381 ms (16.2x),
  p95 1114 ms; against the new campaign 0.81 and 1.73.
- after (load 4.4): new 11.5 / 26.2 ms (2.3x), p95 46.9 ms; 3,000 events 9.7 / 28.7 ms
  (3.0x), p95 62.1 ms; 100,000 events 11.0 / 29.8 ms (2.7x), p95 60.0 ms; against the
  new campaign 1.10 and 1.14.
SQL statements of one click (tests/ui/test_click_statements.py counts them): lore 234 ->
51, a journal entry 24 -> 7, a move 254 -> 73, Undo 499 -> 58.
- second round (``--rounds 4 --processes 2``; the hidden tabs all wait, the map reads
  again only the rows a click wrote, Undo/Redo carry their labels), before (load 2.7) /
  after (load 2.8): new 5.8 / 16.8 ms (2.91x) -> 6.0 / 8.7 ms (1.46x), p95 27.5 -> 16.5
  ms (2.69x -> 1.33x); 3,000 events 3.63x -> 1.52x, p95 37.1 -> 16.2 ms (3.29x -> 1.21x);
  100,000 events 3.39x -> 1.40x, p95 32.0 -> 18.0 ms (3.46x -> 1.28x); against the new
  campaign 1.27 / 1.09 -> 0.92 / 0.95. Statements: lore 51 -> 28, a journal entry 7 -> 4,
  a move 73 -> 40, Undo 58 -> 22. What is left of a move or an Undo is mostly painting
  the map's changed hexes and the panel (offscreen, ~2-4 ms) and a few reads by key.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from companion import operations  # noqa: E402
from companion.operations import Campaign, procedures  # noqa: E402
from companion.ui.main_window import MainWindow  # noqa: E402
from companion.ui.views import VIEWS  # noqa: E402

GOAL_P50, GOAL_P95, GOAL_HISTORY = 1.3, 1.5, 1.1

NEXT = "the first option"
"""A step's choice, resolved before it is timed: the app draws on a chance step, the
players take the first option on theirs."""

Step = tuple[str, Callable[..., Any] | str, dict[str, Any]]
"""(kind of click, the operation or "undo"/"redo", its arguments)."""


def evening_round(i: int) -> list[Step]:
    """One round of the evening's clicks on the demo campaign; it ends where it began
    (but for the journal entry and the lore, which stay, as at the table)."""
    undo: Step = ("undo", "undo", {})
    return [
        ("move", operations.move, {"name": "Ash", "to_hex": "E09"}),
        undo,
        ("redo", "redo", {}),
        undo,
        ("journal entry", operations.add_journal_entry, {"text": f"Round {i}: Kim fished"}),
        ("lore", operations.gain_lore, {"amount": 1, "reason": f"a song {i}"}),
        ("activity step", procedures.start_fishing, {"name": "Ash", "feature": "river"}),
        ("activity step", procedures.advance, {"choice": NEXT}),
        undo,
        undo,
        ("pass", operations.pass_turn, {"name": "Ash"}),
        ("pass", operations.pass_turn, {"name": "Bryn"}),
        ("night step", procedures.start_night, {}),
        ("night step", procedures.advance, {"choice": NEXT}),
        undo,
        undo,
        undo,
        undo,
    ]


def add_history(path: Path, events: int) -> None:
    """``events`` journal events of past play, bulk inserted before the evening's."""
    from bench.campaign import played_events

    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO journal_event (time, kind, text, author, payload, changes, undone, "
            "redoable) VALUES (?, ?, ?, NULL, ?, ?, 0, 0)", played_events(events))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def resolved(campaign: Campaign, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with a choice of :data:`NEXT` made (read before the timing starts)."""
    if kwargs.get("choice") is not NEXT:
        return kwargs
    from companion.rules.procedure import Decider

    view = procedures.in_progress(campaign)
    assert view is not None and view.step is not None
    step = view.step
    if step.decider is Decider.PLAYER:
        return {"choice": step.options[0]}
    return {"choice": None}


def click(window: MainWindow, app: QApplication, operation: Callable[..., Any] | str,
          kwargs: dict[str, Any]) -> float:
    """One click through the window, its events processed; seconds."""
    start = time.perf_counter()
    if operation == "undo":
        window.undo_action.trigger()
    elif operation == "redo":
        window.redo_action.trigger()
    else:
        assert callable(operation)
        if window.run_operation(operation, **kwargs) is None:
            raise SystemExit(f"the click was refused: {operation} {kwargs}")
    app.processEvents()
    return time.perf_counter() - start


def alone(campaign: Campaign, operation: Callable[..., Any] | str,
          kwargs: dict[str, Any]) -> float:
    """The same operation called alone; seconds."""
    start = time.perf_counter()
    if operation == "undo":
        operations.undo(campaign)
    elif operation == "redo":
        operations.redo(campaign)
    else:
        assert callable(operation)
        operation(campaign, **kwargs)
    return time.perf_counter() - start


def evening(folder: Path, demo: Path, events: int, rounds: int, app: QApplication,
            tabs: str = "all") -> dict[str, dict[str, list[float]]]:
    """The evening on a window's copy and a bare copy of the demo with ``events`` of
    history: {"window"|"alone": {kind: [seconds]}}."""
    paths = []
    for side in ("window", "alone"):
        path = folder / f"{side}-{events}.stonesaga"
        shutil.copy(demo, path)
        if events:
            add_history(path, events)
        paths.append(path)
    shown = operations.open_campaign(paths[0])
    bare = operations.open_campaign(paths[1])
    shown.file.wait_verified()
    bare.file.wait_verified()
    window = MainWindow()
    window.show()
    window.set_campaign(shown)
    for key, *_ in VIEWS if tabs == "all" else ():  # every tab visited, the Valley in front
        window.view(key)
    window.show_view("valley")
    for _ in range(5):
        app.processEvents()
    samples: dict[str, dict[str, list[float]]] = {"window": {}, "alone": {}}
    try:
        for i in range(rounds):
            for kind, operation, kwargs in evening_round(i):
                assert window.campaign is not None
                timed = (click(window, app, operation, resolved(window.campaign, kwargs)),
                         alone(bare, operation, resolved(bare, kwargs)))
                if i == 0:  # the first round warms up (imports, caches)
                    continue
                samples["window"].setdefault(kind, []).append(timed[0])
                samples["alone"].setdefault(kind, []).append(timed[1])
    finally:
        window.close()
        window.deleteLater()  # gone before the next campaign's window, and before exit
        app.processEvents()
        bare.close()
    return samples


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def every(figures: dict[str, list[float]]) -> list[float]:
    return [s for samples in figures.values() for s in samples]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(results: dict[int, dict[str, dict[str, list[float]]]], load: tuple[float, ...],
           tabs: str) -> dict[str, Any]:
    """Print the table and the goals; returns the figures (for --json)."""
    out: dict[str, Any] = {"load_average": load}
    sizes = sorted(results)
    kinds = list(results[sizes[0]]["window"])
    print(f"tabs built: {tabs}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"(1, 5, 15 min; {os.cpu_count()} cores)")
    header = f"{'':16}{'history':>9}{'alone p50':>11}{'click p50':>11}{'ratio':>7}" \
             f"{'alone p95':>11}{'click p95':>11}{'ratio':>7}"
    print(header)
    for kind in [*kinds, "every click"]:
        for size in sizes:
            pick = (every if kind == "every click" else lambda f, k=kind: f[k])
            a, w = pick(results[size]["alone"]), pick(results[size]["window"])
            row = (pct(a, .5), pct(w, .5), pct(a, .95), pct(w, .95))
            out[f"{kind}@{size}"] = row
            print(f"{kind:16}{size:>9,}{row[0] * 1e3:9.1f}ms{row[1] * 1e3:9.1f}ms"
                  f"{row[1] / row[0]:7.2f}{row[2] * 1e3:9.1f}ms{row[3] * 1e3:9.1f}ms"
                  f"{row[3] / row[2]:7.2f}")
    print()
    new = sizes[0]
    for size in sizes:
        a50, w50, a95, w95 = out[f"every click@{size}"]
        print(f"{size:>7,} events: click/alone p50 {w50 / a50:.2f} (goal <= {GOAL_P50}: "
              f"{verdict(w50 / a50 <= GOAL_P50)}), p95 {w95 / a95:.2f} (goal <= {GOAL_P95}: "
              f"{verdict(w95 / a95 <= GOAL_P95)}); click p95 {w95 * 1e3:.1f} ms")
        if size != new:
            ratio = w50 / out[f"every click@{new}"][1]
            print(f"{'':15} click p50 against the new campaign's: {ratio:.2f} "
                  f"(goal <= {GOAL_HISTORY}: {verdict(ratio <= GOAL_HISTORY)})")
    after = os.getloadavg()
    print(f"load average at the end: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
    return out


def played(size: int, rounds: int, tabs: str,
           app: QApplication) -> dict[str, dict[str, list[float]]]:
    """One evening on a fresh copy of the demo with ``size`` events of history."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        demo = folder / "demo.stonesaga"
        operations.create_demo_campaign(demo).close()
        return evening(folder, demo, size, rounds, app, tabs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12,
                        help="rounds of the evening (18 clicks each; the first warms up)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[3000, 100_000],
                        help="journal events of the long campaigns (the new one always runs)")
    parser.add_argument("--evenings", type=int, default=1,
                        help="evenings of --rounds each, each on a fresh copy, per size")
    parser.add_argument("--tabs", choices=("all", "first"), default="all",
                        help="every tab's view built (a player who visited each), or only "
                             "the first (the Valley, as the campaign opens)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)

    def refused(*args: Any, **_: Any) -> None:  # a refusal would wait in a modal box
        raise SystemExit(f"refused: {args[2:]}")

    QMessageBox.warning = refused  # type: ignore[method-assign,assignment]
    load = os.getloadavg()
    results: dict[int, dict[str, dict[str, list[float]]]] = {}
    for size in [0, *args.sizes]:
        results[size] = {"window": {}, "alone": {}}
        for _ in range(args.evenings):
            for side, kinds in played(size, args.rounds, args.tabs, app).items():
                for kind, samples in kinds.items():
                    results[size][side].setdefault(kind, []).extend(samples)
        print(f"{size:,} events done", file=sys.stderr)
    figures = report(results, load, args.tabs)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
