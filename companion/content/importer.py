"""Import the community crafting-code files into a user pack.

Existing Stonesaga tools share one CSV per pip colour (the colour in the file name,
e.g. ``Crafting - Red.csv``), ``;``-separated, header ``Code;Flavor Text;Game Text;Item
Name``. Each row becomes a crafting entry marked ``verified: false`` (the companion
shows it as unconfirmed until the group checks it against their Codex). A row without
an item name is a known dead end.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from companion.content import yamlio
from companion.content.schema.base import PipColour
from companion.content.schema.world import CraftingEntry

HEADER = ("Code", "Flavor Text", "Game Text", "Item Name")
IMPORT_FILE = "crafting-imported.yaml"


@dataclass
class ImportReport:
    """What an import did."""

    written: Path
    """The pack file the entries were written to."""
    imported: int = 0
    """Rows written as (unverified) entries."""
    kept_verified: int = 0
    """Rows skipped because the pack already has a verified entry for that code."""
    problems: list[str] = field(default_factory=list)
    """Rows or files that could not be imported, as ``file.csv:LINE: message``."""
    created_manifest: bool = False
    """Whether ``pack.yaml`` was created."""


def _colour_of(path: Path) -> PipColour | None:
    words = set(re.findall(r"[a-z]+", path.stem.lower()))
    found = [colour for colour in PipColour if colour.value in words]
    return found[0] if len(found) == 1 else None


def _existing(target: Path) -> dict[tuple[str, str], dict[str, Any]]:
    if not target.is_file():
        return {}
    data, _node = yamlio.parse(target.read_text(encoding="utf-8"))
    rows = data.get("crafting", []) if isinstance(data, dict) else []
    result: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        if isinstance(row, dict):
            result[(str(row.get("colour")), str(row.get("code")))] = row
    return result


def import_crafting_csv(csv_paths: Sequence[Path], pack_dir: Path,
                        extends: str = "sample") -> ImportReport:
    """Import community crafting CSV files into the pack in ``pack_dir``.

    Creates the folder and a ``pack.yaml`` (extending ``extends``) if needed, and
    (re)writes ``crafting-imported.yaml`` there; entries already confirmed
    (``verified: true``) in that file are kept. Rows that cannot be read are reported
    in ``ImportReport.problems`` and skipped.
    """
    pack_dir = Path(pack_dir)
    target = pack_dir / IMPORT_FILE
    report = ImportReport(written=target)
    try:
        entries = _existing(target)
    except (OSError, yaml.YAMLError) as exc:
        report.problems.append(f"{target.name}: cannot read the existing file: {exc}")
        return report
    for csv_path in map(Path, csv_paths):
        colour = _colour_of(csv_path)
        if colour is None:
            report.problems.append(f"{csv_path.name}: the file name names no single pip "
                                   f"colour ({', '.join(c.value for c in PipColour)})")
            continue
        try:
            with csv_path.open(encoding="utf-8-sig", newline="") as handle:
                reader = csv.reader(handle, delimiter=";")
                header = next(reader, None)
                if header is None or tuple(h.strip() for h in header) != HEADER:
                    report.problems.append(f"{csv_path.name}:1: the header is not "
                                           f"{';'.join(HEADER)}")
                    continue
                for row in reader:
                    _import_row(report, entries, colour, csv_path, reader.line_num, row)
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            report.problems.append(f"{csv_path.name}: cannot read the file: {exc}")
    pack_dir.mkdir(parents=True, exist_ok=True)
    manifest = pack_dir / "pack.yaml"
    if not manifest.exists():
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", pack_dir.name).strip("-.") or "my-pack"
        manifest.write_text(yaml.safe_dump({
            "id": slug, "name": f"{pack_dir.name} (imported crafting codes)",
            "version": "1", "extends": extends,
            "description": "Crafting codes imported from community files; unverified.",
        }, sort_keys=False, allow_unicode=True), encoding="utf-8")
        report.created_manifest = True
    rows = sorted(entries.values(), key=lambda r: (
        [c.value for c in PipColour].index(r["colour"]) if r.get("colour") in list(PipColour)
        else 99, str(r.get("code"))))
    banner = ("# Crafting codes imported from community files. 'verified: false' until\n"
              "# confirmed at the table; set 'verified: true' (or link 'item:') to confirm.\n")
    target.write_text(banner + yaml.safe_dump({"crafting": rows}, sort_keys=False,
                                              allow_unicode=True, width=100),
                      encoding="utf-8")
    return report


def _import_row(report: ImportReport, entries: dict[tuple[str, str], dict[str, Any]],
                colour: PipColour, csv_path: Path, line: int, row: list[str]) -> None:
    if not any(cell.strip() for cell in row):
        return
    if len(row) != len(HEADER):
        report.problems.append(f"{csv_path.name}:{line}: expected {len(HEADER)} fields "
                               f"separated by ';', found {len(row)}")
        return
    code, flavor, text, name = (cell.strip() for cell in row)
    entry: dict[str, Any] = {"colour": colour.value, "code": code}
    if name:
        entry["item_name"] = name
    else:
        entry["dead_end"] = True
    if text:
        entry["text"] = text
    if flavor:
        entry["flavor"] = flavor
    entry["verified"] = False
    try:
        CraftingEntry.model_validate(entry)
    except ValidationError as exc:
        message = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
        report.problems.append(f"{csv_path.name}:{line}: code {code!r}: {message}")
        return
    old = entries.get((colour.value, code))
    if old is not None and old.get("verified", True) is True:
        report.kept_verified += 1
        return
    entries[(colour.value, code)] = entry
    report.imported += 1
