"""Benchmark: does a campaign with years of history open and write as fast as a new one?

Run by hand:  .venv/bin/python bench/campaign.py [--events 100000]

Builds, side by side in one temporary folder, a new campaign and a big one (100,000
journal events, 200 legends, 50 outposts), then measures for each:
- open + status: open the file (lock, quick_check, backup check), read the society,
  the row counts and the last 50 journal events, close; median of repeated runs (the
  very first open, which also takes the automatic backup, is shown separately);
- a small operation: a transaction updating one row with its journal event; p50 and p99.
Prints each figure and the ratio big/new (the goal is <= 1.2).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--ops", type=int, default=300)
    args = parser.parse_args()
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
