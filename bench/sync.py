"""Benchmark: one campaign on two machines through a shared folder (issue 38).

Run by hand:  QT_QPA_PLATFORM=offscreen .venv/bin/python bench/sync.py [--evening 500]

Side by side in one temporary folder, Ana shares the demo campaign and Bryn joins it:
- merging another machine's evening: Bryn plays ``--evening`` operations (journal entries,
  lore and unrest, no conflicts) while Ana plays nothing; Ana's one ``sync`` that merges
  them is timed against Bryn playing the same operations locally, and against the same
  operations on a campaign not shared (goal: <= 2x the smaller);
- picking up changes after a file lands: Ana's campaign is open in the main window; Bryn
  makes one change (its file renamed into place in the folder) and the time until Ana's
  window has applied it, through the window's file watcher and poll, is measured
  ``--landings`` times (goal: <= 2 s);
- the cost of shared play: ``--play`` operations on a campaign not shared, on a shared
  one publishing each operation as it commits (as before batching), and on a shared
  one as the window and the CLI play it (goal: <= 1.3x not shared), with the load;
- the shared folder's size at several lengths (``--lengths``) side by side: one
  snapshot per machine (replaced whole), each machine's segments pruned once its
  snapshot holds them and the other machines have taken them in, so the size per
  1,000 operations stays flat as the campaign grows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import operations  # noqa: E402
from companion.operations import Campaign, sharing  # noqa: E402


def evening(campaign: Campaign, count: int, start: int = 0) -> None:
    """``count`` operations of an evening's play that touch different things each."""
    plays: list[Callable[[int], object]] = [
        lambda i: operations.add_journal_entry(campaign, text=f"Evening note {i}"),
        lambda i: operations.gain_lore(campaign, amount=1, reason=f"a song {i}"),
        lambda i: operations.change_unrest(campaign, amount=1 if i % 8 < 4 else -1,
                                           reason=f"the camp's mood {i}"),
        lambda i: operations.add_journal_entry(campaign, text=f"Who fished where, {i}"),
    ]
    for i in range(start, start + count):
        plays[i % len(plays)](i)


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def merge_vs_local(root: Path, count: int) -> tuple[float, float, float]:
    """(Bryn's local play, Ana's merge, the same play on a campaign not shared) in s."""
    folder = root / "merge-shared"
    folder.mkdir()
    (root / "merge-ana").mkdir()
    ana = operations.create_demo_campaign(root / "merge-ana" / "demo.stonesaga")
    sharing.share(ana, folder, machine_name="Ana's laptop")
    bryn = sharing.join(folder, root / "merge-bryn" / "demo.stonesaga",
                        machine_name="Bryn's laptop")
    alone = operations.create_demo_campaign(root / "alone.stonesaga")
    try:
        started = time.perf_counter()
        evening(alone, count)
        unshared = time.perf_counter() - started
        started = time.perf_counter()
        evening(bryn, count)
        sharing.publish_now(bryn)  # what waited in the last seconds, as the window would
        local = time.perf_counter() - started
        started = time.perf_counter()
        report = sharing.sync(ana)
        merged = time.perf_counter() - started
        assert report.applied == {"Bryn's laptop": count}, report
        assert report.conflicts == 0
    finally:
        for campaign in (ana, bryn, alone):
            campaign.close()
    return local, merged, unshared


def pick_up(root: Path, landings: int) -> list[float]:
    """Seconds from Bryn's file landing to Ana's window having applied it."""
    from PySide6.QtWidgets import QApplication

    from companion.ui.main_window import MainWindow
    from companion.ui.sync_keeper import keeper

    app = QApplication.instance() or QApplication([])
    folder = root / "watch-shared"
    folder.mkdir()
    (root / "watch-ana").mkdir()
    ana = operations.create_demo_campaign(root / "watch-ana" / "demo.stonesaga")
    sharing.share(ana, folder, machine_name="Ana's laptop")
    bryn = sharing.join(folder, root / "watch-bryn" / "demo.stonesaga",
                        machine_name="Bryn's laptop")
    window = MainWindow()
    window.show()
    window.set_campaign(ana)
    sync = keeper(window)
    found: list[float] = []
    try:
        _until(app, lambda: sync.last_report is not None, 10)
        for n in range(landings):
            sync.last_report = None
            operations.add_journal_entry(bryn, text=f"A note from Bryn's table {n}")
            sharing.publish_now(bryn)  # Bryn's window publishes a moment after play
            landed = time.perf_counter()  # the segment is renamed into place by now
            _until(app, lambda: sync.last_report is not None and bool(
                sync.last_report.applied), 30)
            found.append(time.perf_counter() - landed)
            _until(app, lambda: False, 0.3)  # the watcher's burst is over
    finally:
        window.close()
        bryn.close()
    return found


def _until(app: object, done: Callable[[], bool], timeout: float) -> None:
    end = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > end:
            if timeout >= 1:
                raise SystemExit(f"nothing picked up within {timeout} s")
            return
        app.processEvents()  # type: ignore[attr-defined]
        time.sleep(0.005)


def play_cost(root: Path, count: int, rounds: int) -> tuple[float, float, float]:
    """Seconds for ``count`` operations on a campaign not shared, on a shared one
    publishing each operation as it commits (as before batching), and on a shared one as
    the window and the CLI play it (a few seconds' worth published together, the rest
    when play pauses: timed with that last publish). Played in ``rounds`` turns, each
    campaign in turn, so a machine busy with other work weighs on all three alike."""
    for name in ("play-shared", "play-each", "play-batched"):
        (root / name).mkdir()
    alone = operations.create_demo_campaign(root / "play-alone.stonesaga")
    each = operations.create_demo_campaign(root / "play-each" / "demo.stonesaga")
    batched = operations.create_demo_campaign(root / "play-batched" / "demo.stonesaga")
    sharing.share(each, root / "play-shared", machine_name="Each at once")
    sharing.share(batched, root / "play-shared", machine_name="Batched")
    each.file.publish_every = 0
    spent = [0.0, 0.0, 0.0]
    try:
        for turn in range(rounds):
            for n, campaign in enumerate((alone, each, batched)):
                started = time.perf_counter()
                evening(campaign, count // rounds, start=turn * count)
                sharing.publish_now(campaign)
                spent[n] += time.perf_counter() - started
    finally:
        for campaign in (alone, each, batched):
            campaign.close()
    return spent[0], spent[1], spent[2]


def folder_growth(root: Path, lengths: list[int]) -> list[tuple[int, int, int]]:
    """(operations played, the shared campaign folder's bytes, of which segments) at each
    of ``lengths``: Bryn plays, both machines sync, Ana plays one operation (so Bryn
    knows what she has taken in) and Bryn syncs again, as two machines do over weeks."""
    folder = root / "size-shared"
    folder.mkdir()
    (root / "size-ana").mkdir()
    ana = operations.create_demo_campaign(root / "size-ana" / "demo.stonesaga")
    sharing.share(ana, folder, machine_name="Ana's laptop")
    bryn = sharing.join(folder, root / "size-bryn" / "demo.stonesaga",
                        machine_name="Bryn's laptop")
    sizes = []
    played = 0
    try:
        for length in lengths:
            evening(bryn, length - played, start=played)
            played = length
            sharing.sync(bryn)  # a snapshot when due, segments pruned
            sharing.sync(ana)
            operations.add_journal_entry(ana, text=f"Ana caught up after {played}")
            sharing.sync(ana)
            sharing.sync(bryn)
            segments = sum(p.stat().st_size for p in folder.rglob("ops-*.json"))
            sizes.append((played, folder_size(folder), segments))
    finally:
        ana.close()
        bryn.close()
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--evening", type=int, default=500)
    parser.add_argument("--play", type=int, default=400)
    parser.add_argument("--landings", type=int, default=5)
    parser.add_argument("--lengths", default="1000,2000,4000",
                        help="campaign lengths (operations) the folder is measured at")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        root = Path(tmp)
        alone, each, batched = play_cost(root, args.play, rounds=4)
        print(f"playing {args.play} operations: not shared {alone:.2f} s; shared, each "
              f"published as it commits {each:.2f} s ({each / alone:.2f}x); shared, "
              f"published a few seconds' worth together {batched:.2f} s "
              f"({batched / alone:.2f}x, goal <= 1.3x) "
              f"{'ok' if batched / alone <= 1.3 else 'OVER'}; load average "
              f"{os.getloadavg()[0]:.1f}")
        local, merged, unshared = merge_vs_local(root, args.evening)
        ratio = merged / min(local, unshared)  # the stricter of the two local figures
        print(f"evening of {args.evening} operations: played locally {local:.2f} s on "
              f"the shared campaign (each published as it runs), {unshared:.2f} s on one "
              f"not shared; merged by the other machine {merged:.2f} s; merge/local "
              f"{merged / local:.2f}x, merge/not shared {merged / unshared:.2f}x "
              f"(goal <= 2x) {'ok' if ratio <= 2 else 'OVER'}")
        landed = pick_up(root, args.landings)
        print(f"picked up after the file lands (watcher + poll, {args.landings} times): "
              f"median {statistics.median(landed):.2f} s, worst {max(landed):.2f} s "
              f"(goal <= 2 s) {'ok' if max(landed) <= 2 else 'OVER'}")
        lengths = [int(n) for n in args.lengths.split(",")]
        growth = folder_growth(root, lengths)
        print("shared folder (one snapshot per machine, segments pruned):  " + "  ".join(
            f"{played:>6} ops" for played, _size, _segments in growth))
        print("  KiB in all:                                               " + "  ".join(
            f"{size / 1024:>10.0f}" for _played, size, _segments in growth))
        print("  KiB of segments:                                          " + "  ".join(
            f"{segments / 1024:>10.0f}" for _played, _size, segments in growth))
        print("  KiB per 1,000 operations:                                 " + "  ".join(
            f"{size / played * 1000 / 1024:>10.0f}" for played, size, _segments in growth))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
