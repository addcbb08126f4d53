"""Benchmark: does a campaign with years of history open and write as fast as a new one?
And how long do its export and import take, in how much memory?

Run by hand:  .venv/bin/python bench/campaign.py [--events 100000]
              .venv/bin/python bench/campaign.py --portable [--sizes 10000 100000 1000000]

Builds, side by side in one temporary folder, a new campaign and a big one (100,000
journal events, 200 legends, 50 outposts), then measures for each:
- open + status: open the file (lock, quick_check, backup check), read the society,
  the row counts and the last 50 journal events, close; median of repeated runs (the
  very first open, which also takes the automatic backup, is shown separately);
- a small operation: a transaction updating one row with its journal event; p50 and p99.
Prints each figure and the ratio big/new (the goal is <= 1.2).

``--portable`` (issue 35 item 6) builds a campaign of each size of journal events (bulk
inserted, as the app writes them: dials, a character's energy and health, entries with no
change, legends added and dropped, procedure steps) and exports it, then imports the
export, each in a child process that reports its wall and processor time and its peak
memory (``ru_maxrss``). The goal: a million events either way in <= 30 s and <= 200 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import func, select  # noqa: E402

from companion.store import CampaignFile  # noqa: E402
from companion.store.campaign_file import Verify  # noqa: E402
from companion.store.models import (  # noqa: E402
    Character,
    Legend,
    Outpost,
    Society,
)


def build_big(path: Path, events: int, legends: int, outposts: int) -> None:
    """A campaign with a long history, written straight to SQLite for speed."""
    CampaignFile.create(path, backups=False).close()
    conn = sqlite3.connect(path)
    # What a typical operation records: two updated rows, changed columns only.
    change = {"table": "society", "id": 1,
              "before": {"id": 1, "unrest": 1, "activity": 2},
              "after": {"id": 1, "unrest": 2, "activity": 3}}
    character = {"table": "character", "id": 1,
                 "before": {"id": 1, "energy": 3, "health": ["wound", "blank", "blank"]},
                 "after": {"id": 1, "energy": 1, "health": ["wound", "wound", "blank"]}}
    changes = json.dumps([change, character])
    with conn:
        conn.executemany(
            "INSERT INTO journal_event (time, kind, text, author, payload, changes, undone, "
            "redoable) VALUES ('2026-01-01 10:00:00.000000', ?, ?, NULL, ?, ?, 0, 0)",
            ((("explore", "night", "note")[i % 3], f"Event {i}: Ash explored hex {i % 97}",
              json.dumps({"hex": i % 97, "roll": [3, 5]}), changes) for i in range(events)),
        )
        conn.executemany(
            "INSERT INTO legend (name, abilities, traits, marks, epoch) VALUES "
            "(?, '{\"might\": 3}', '[\"Brave\"]', '[\"spiral\"]', ?)",
            ((f"Legend {i}", 1 + i // 50) for i in range(legends)),
        )
        conn.executemany(
            "INSERT INTO outpost (name, category, status, epoch_built, materials, notes) "
            "VALUES (?, 'camp', 'active', 1, '[\"reed\"]', '')",
            ((f"Outpost {i}",) for i in range(outposts)),
        )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def read_status(cf: CampaignFile) -> None:
    """What the main window needs at start: society, counts, last 50 journal events."""
    with cf.read() as session:
        session.get(Society, 1)
        for model in (Character, Legend, Outpost):
            session.exec(select(func.count()).select_from(model)).one()
    cf.event_count()
    cf.journal(limit=50)


def open_and_status(path: Path, verify: Verify = "now") -> None:
    """Open, read what the main window needs at start (``read_status``), close."""
    with CampaignFile.open(path, verify=verify) as cf:
        read_status(cf)


def status_only(path: Path, verify: Verify) -> float:
    """Time open + status only (not close, which waits for a background check)."""
    start = time.perf_counter()
    cf = CampaignFile.open(path, verify=verify)
    read_status(cf)
    elapsed = time.perf_counter() - start
    cf.close()
    return elapsed


def timed(action: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def small_operations(path: Path, runs: int) -> list[float]:
    with CampaignFile.open(path) as cf:
        def op() -> None:
            with cf.transaction("dial", "Unrest +1") as session:
                society = session.get(Society, 1)
                assert society is not None
                society.unrest += 1
        return timed(op, runs)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- export and import (issue 35 item 6) ----------------------------------------------------


def played_events(count: int) -> Iterator[tuple[str, str, str, str, str]]:
    """``count`` journal events as the app writes them: (time, kind, text, payload,
    changes), the changes' images built from the tables' own models."""
    from companion.store.history import encode_row
    from companion.store.table_base import table_of

    legend = encode_row(table_of(Legend), Legend(id=0, name="", abilities={"might": 3},
                                                 traits=["Brave"], marks=["spiral"]))
    for i in range(count):
        step, who = i % 20, 1 + i % 4
        if step < 8:
            kind, text = "society.dial", f"Unrest rose to {i % 5 + 1}"
            changes = [{"table": "society", "id": 1,
                        "before": {"id": 1, "unrest": i % 5, "activity": 2},
                        "after": {"id": 1, "unrest": i % 5 + 1, "activity": 3}}]
        elif step < 13:
            kind, text = "day.act", f"Ash explored hex {i % 97} (2 energy)"
            changes = [{"table": "character", "id": who,
                        "before": {"id": who, "energy": 3, "health": ["wound", "blank"]},
                        "after": {"id": who, "energy": 1, "health": ["wound", "wound"]}}]
        elif step < 15:
            kind, text, changes = "journal.entry", f"Kim thinks the lair is near hex {i % 97}", []
        elif step < 18:
            image = {**legend, "id": i, "name": f"Legend {i}", "epoch": 1 + i // 50_000}
            kind, text = ("legend.add", f"Legend {i} joined") if step < 17 else \
                ("legend.drop", f"Legend {i} was set aside")
            changes = [{"table": "legend", "id": i, "before": None, "after": image}
                       if step < 17 else {"table": "legend", "id": i, "before": image,
                                          "after": None}]
        else:
            kind, text = "procedure.step", "The Night: draw an event card"
            changes = [{"table": "procedure_state", "id": 1,
                        "before": {"id": 1, "state": {"step": "draw", "turn": i % 7}},
                        "after": {"id": 1, "state": {"step": "resolve", "turn": i % 7}}}]
        when = f"2026-{1 + i * 12 // count:02d}-{1 + i % 28:02d} {i % 24:02d}:{i % 60:02d}:00"
        yield (f"{when}.{i % 1_000_000:06d}", kind, text,
               json.dumps({"hex": i % 97, "roll": [3, 5]}), json.dumps(changes))


def build_played(path: Path, events: int) -> None:
    """A campaign holding ``events`` journal events, bulk inserted."""
    CampaignFile.create(path, backups=False).close()
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO journal_event (time, kind, text, author, payload, changes, undone, "
            "redoable) VALUES (?, ?, ?, NULL, ?, ?, 0, 0)", played_events(events))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def child(action: str, src: str, dest: str) -> None:
    """Run one export or import here and print its figures as JSON (a fresh process, so
    its peak memory is its own)."""
    from companion.store import export_campaign, import_campaign

    wall, cpu = time.perf_counter(), time.process_time()
    if action == "export":
        export_campaign(Path(src), Path(dest))
    else:
        import_campaign(Path(src), Path(dest)).close()
    print(json.dumps({"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def measured(action: str, src: Path, dest: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, "--child", action, str(src), str(dest)],
                          capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def portable(sizes: list[int]) -> None:
    """Export and import time and peak memory for each size, side by side."""
    rows: list[tuple[str, list[str]]] = [(name, []) for name in (
        "campaign file (MB)", "export file (MB)", "export wall (s)", "export cpu (s)",
        "export peak (MB)", "import wall (s)", "import cpu (s)", "import peak (MB)")]
    for size in sizes:
        with tempfile.TemporaryDirectory() as folder:
            campaign, out = Path(folder) / "played.stonesaga", Path(folder) / "played.json"
            build_played(campaign, size)
            exported = measured("export", campaign, out)
            imported = measured("import", out, Path(folder) / "back.stonesaga")
            figures = (campaign.stat().st_size / 1e6, out.stat().st_size / 1e6,
                       exported["seconds"], exported["cpu"], exported["peak_mb"],
                       imported["seconds"], imported["cpu"], imported["peak_mb"])
        for (_, cells), value in zip(rows, figures, strict=True):
            cells.append(f"{value:10.1f}")
        print(f"{size:,} events done", file=sys.stderr)
    print(f"{'journal events':20}" + "".join(f"{size:>10,}" for size in sizes))
    for name, cells in rows:
        print(f"{name:20}" + "".join(cells))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:5])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--ops", type=int, default=300)
    parser.add_argument("--portable", action="store_true",
                        help="export and import time and memory instead (issue 35)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    args = parser.parse_args()
    if args.portable:
        portable(args.sizes)
        return
    with tempfile.TemporaryDirectory() as folder:
        new, big = Path(folder) / "new.stonesaga", Path(folder) / "big.stonesaga"
        CampaignFile.create(new, backups=False).close()
        start = time.perf_counter()
        build_big(big, args.events, 200, 50)
        print(f"built big campaign in {time.perf_counter() - start:.1f}s: "
              f"{big.stat().st_size / 1e6:.1f} MB vs new {new.stat().st_size / 1e6:.2f} MB")
        rows = []
        first = {p: timed(lambda p=p: open_and_status(p), 1)[0] for p in (new, big)}
        rows.append(("first open + status (takes backup)", first[new], first[big]))
        for verify in ("now", "background"):
            status = {p: [status_only(p, verify) for _ in range(args.runs)] for p in (new, big)}
            rows.append((f"open + status, verify={verify}, median",
                         statistics.median(status[new]), statistics.median(status[big])))
        ops = {p: small_operations(p, args.ops) for p in (new, big)}
        rows.append(("small operation p50", pct(ops[new], 0.5), pct(ops[big], 0.5)))
        rows.append(("small operation p99", pct(ops[new], 0.99), pct(ops[big], 0.99)))
        print(f"{'':38} {'new':>10} {'big':>10} {'big/new':>8}")
        for name, a, b in rows:
            print(f"{name:38} {a * 1000:8.2f}ms {b * 1000:8.2f}ms {b / a:8.2f}")


if __name__ == "__main__":
    main()
