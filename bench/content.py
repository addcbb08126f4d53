"""Content loading benchmark (run by hand: ``.venv/bin/python bench/content.py``).

Times ``load_content`` (parse + validate + merge + cross-check) for the sample pack and
for a generated pack ten times its size, side by side with a bare ``yaml.load`` of the
same files with the C loader, and prints the ratio (goal: at most 1.5). The loader
pauses the garbage collector while it runs, so the ratio to a bare parse with the
collector paused too is printed as well: that one isolates what validation costs.
"""

from __future__ import annotations

import copy
import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.content import load_content  # noqa: E402
from companion.content.yamlio import USING_C_LOADER, parse  # noqa: E402
from companion.paths import shipped_content_dir  # noqa: E402

SAMPLE = shipped_content_dir() / "sample"
BARE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# These kinds' entries point at the replicated copy of what they belong to.
FOLLOW = {"hexes": "region", "instinct_cards": "behemoth", "secret_cards": "behemoth",
          "reaction_cards": "behemoth", "mantle_powers": "mantle"}


def _grow(entries: list[Any], kind: str, copies: int, taken: set[Any]) -> list[Any]:
    grown = list(entries)
    for n in range(1, copies):
        for entry in entries:
            new = copy.deepcopy(entry)
            if kind == "crafting":
                code = 1000
                while (new["colour"], str(code)) in taken:
                    code += 1
                new["code"] = str(code)
                taken.add((new["colour"], str(code)))
            elif kind == "codex_outcomes":
                number = 0
                while f"{number:03d}" in taken:
                    number += 1
                new["number"] = f"{number:03d}"
                taken.add(new["number"])
            elif kind == "codex_omen_entries":
                new["component"] = f"{new['component']}-x{n}"
            elif "id" in new and kind not in ("abilities", "omens"):
                new["id"] = f"{new['id']}-x{n}"
                if kind in FOLLOW:
                    new[FOLLOW[kind]] = f"{new[FOLLOW[kind]]}-x{n}"
            else:
                continue
            grown.append(new)
    return grown


def make_big_pack(root: Path, copies: int = 10) -> Path:
    """A pack ``copies`` times the sample's size (IDs suffixed), written under ``root``."""
    pack = root / "bench-big"
    pack.mkdir(parents=True)
    shutil.copy(SAMPLE.parent / "rules" / "rules.yaml", pack / "rules.yaml")  # the one rules file
    (pack / "pack.yaml").write_text("id: bench-big\nname: Bench\nversion: '1'\n",
                                    encoding="utf-8")
    taken: set[Any] = set()
    docs = {f.name: parse(f.read_text(encoding="utf-8"))[0] for f in sorted(SAMPLE.glob("*.yaml"))
            if f.name not in ("pack.yaml", "rules.yaml")}
    for doc in docs.values():
        for row in doc.get("crafting", []):
            taken.add((row["colour"], str(row["code"])))
        for row in doc.get("codex_outcomes", []):
            taken.add(row["number"])
    for name, doc in docs.items():
        big = {kind: _grow(entries, kind, copies, taken) for kind, entries in doc.items()}
        (pack / name).write_text(yaml.safe_dump(big, sort_keys=False, width=120),
                                 encoding="utf-8")
    return pack


def bare_parse(folder: Path) -> None:
    for file in sorted(folder.glob("*.yaml")):
        yaml.load(file.read_text(encoding="utf-8"), Loader=BARE_LOADER)


def bare_parse_gc_paused(folder: Path) -> None:
    """The bare parse with the collector paused, as ``load_content`` does: the fair
    baseline for how much validation itself adds."""
    gc.disable()
    try:
        bare_parse(folder)
    finally:
        gc.enable()


def best_of(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"C YAML loader: {'yes' if USING_C_LOADER else 'NO (pure Python)'}")
    with tempfile.TemporaryDirectory() as tmp:
        big = make_big_pack(Path(tmp))
        cases = [("sample", "sample", SAMPLE, []), ("10x sample", "bench-big", big, [big])]
        for label, pack_id, folder, extra in cases:
            content = load_content(pack_id, extra_dirs=extra)
            entries = sum(content.counts().values())
            size = sum(f.stat().st_size for f in folder.glob("*.yaml")) / 1024
            repeat = 15 if pack_id == "sample" else 5
            load = best_of(lambda p=pack_id, e=extra: load_content(p, extra_dirs=e), repeat)
            bare = best_of(lambda f=folder: bare_parse(f), repeat)
            paused = best_of(lambda f=folder: bare_parse_gc_paused(f), repeat)
            print(f"{label:>11}: {entries:5d} entries, {size:4.0f} KiB | load+validate "
                  f"{load * 1000:6.1f} ms | bare YAML parse {bare * 1000:6.1f} ms "
                  f"(gc paused {paused * 1000:6.1f} ms) | ratio {load / bare:4.2f} "
                  f"(vs paused {load / paused:4.2f}; goal <= 1.5)")


if __name__ == "__main__":
    main()
