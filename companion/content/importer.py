"""Import the community crafting-code files into a user pack.

Existing Stonesaga tools share one file per pip colour (the colour in the file name,
e.g. ``Crafting - Red.csv`` or ``gray codes.csv``), ``;``-separated, header
``Code;Flavor Text;Game Text;Item Name`` (matched without regard to case). Each row
becomes a crafting entry marked ``verified: false`` (the companion shows it as
unconfirmed until the group checks it against their Codex).

How the community writes a row, and how it is read:

- the game text may hold ``;`` without quotes: the game text is everything between the
  second and the last separator (a quoted field is read as quoted);
- an item name ``None`` (or no name) is a dead end; the community's dead ends say to
  return the materials, so the entry says so (``dead_end_materials: returned``) unless
  its text says they are lost;
- item card ids the game text names ("search the Item Card deck for IT29") are recorded
  with the entry (``item_cards``);
- a row repeated in the files is written once and reported once.

The report lists every row imported, updated, left unchanged or skipped, and why.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from companion.content import yamlio
from companion.content.schema.base import PipColour
from companion.content.schema.world import CraftingEntry, item_cards_in

HEADER = ("Code", "Flavor Text", "Game Text", "Item Name")
IMPORT_FILE = "crafting-imported.yaml"

_DEAD_END_NAMES = ("", "none")
_LOST = re.compile(r"\b(discard|lose|lost|destroy|used up|consumed?)\b", re.IGNORECASE)
_RETURNED = re.compile(r"\breturn", re.IGNORECASE)


@dataclass(frozen=True)
class ImportedRow:
    """One row of a community file and what the import did with it."""

    where: str
    """``file.csv:LINE``."""
    code: str
    """The code as the community writes it ("R1410", "Gn2301"), or the raw text."""
    action: str
    """"new", "updated", "unchanged" (all three written) or "skipped"."""
    why: str
    """What the entry is ("dead end, materials returned", "Stone Knife (IT29)") or why
    the row was skipped."""


@dataclass
class ImportReport:
    """What an import did."""

    written: Path
    """The pack file the entries were written to."""
    imported: int = 0
    """Entries of these files written (new, updated or unchanged): the count written."""
    new: int = 0
    """Codes the pack did not have."""
    updated: int = 0
    """Unverified codes whose entry changed."""
    kept_verified: int = 0
    """Rows skipped because the pack already has a verified entry for that code."""
    repeated: int = 0
    """Rows skipped because the same code came earlier in these files."""
    problems: list[str] = field(default_factory=list)
    """Rows or files that could not be imported, as ``file.csv:LINE: message``."""
    rows: list[ImportedRow] = field(default_factory=list)
    """Every row, in file order, with what was done and why."""
    created_manifest: bool = False
    """Whether ``pack.yaml`` was created."""
    saved: bool = False
    """Whether the pack file was (re)written; not when no file could be read or the
    folder cannot be written."""

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (``--json``)."""
        return {
            "written": str(self.written), "imported": self.imported, "new": self.new,
            "updated": self.updated, "kept_verified": self.kept_verified,
            "repeated": self.repeated, "problems": list(self.problems),
            "created_manifest": self.created_manifest, "saved": self.saved,
            "rows": [vars(row) for row in self.rows],
        }


def colour_of_file(path: Path) -> PipColour | None:
    """The pip colour a file name names ("Crafting - Grey.csv", "gray.csv",
    "RedCodes.csv"); None when it names none or more than one."""
    stem = path.stem.lower().replace("gray", "grey")
    words = set(re.findall(r"[a-z]+", stem))
    found = [colour for colour in PipColour if colour.value in words]
    if not found:  # run together with other words ("redcodes")
        found = [colour for colour in PipColour if colour.value in stem]
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


def _read_text(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:  # saved by a spreadsheet in the Windows code page
        return raw.decode("cp1252")


@dataclass
class _Run:
    report: ImportReport
    entries: dict[tuple[str, str], dict[str, Any]]
    seen: dict[tuple[str, str], tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """Codes met in this import: where first, and the entry read there."""
    repeats: dict[tuple[str, str], list[str]] = field(default_factory=dict)


def import_crafting_csv(csv_paths: Sequence[Path], pack_dir: Path,
                        extends: str = "sample") -> ImportReport:
    """Import community crafting CSV files into the pack in ``pack_dir``.

    Creates the folder and a ``pack.yaml`` (extending ``extends``) if needed, and
    (re)writes ``crafting-imported.yaml`` there; entries already confirmed
    (``verified: true``) in that file are kept. Rows that cannot be read are reported
    in ``ImportReport.problems`` and skipped; nothing is written when no file could
    be read at all.
    """
    pack_dir = Path(pack_dir)
    target = pack_dir / IMPORT_FILE
    report = ImportReport(written=target)
    try:
        entries = _existing(target)
    except (OSError, yaml.YAMLError) as exc:
        report.problems.append(f"{target.name}: cannot read the existing file: {exc}")
        return report
    run = _Run(report, entries)
    for csv_path in map(Path, csv_paths):
        _import_file(run, csv_path)
    for key, lines in run.repeats.items():
        first, _entry = run.seen[key]
        code = PipColour(key[0]).letter + key[1]
        report.repeated += len(lines)
        # reported once, where the code first came back
        at = next((i for i, row in enumerate(report.rows) if _after(row.where, lines[0])),
                  len(report.rows))
        report.rows.insert(at, ImportedRow(
            lines[0], code, "skipped",
            f"repeats {first} ({len(lines)} time(s): {', '.join(lines)}); written once"))
    if not run.seen and report.problems:
        return report
    try:
        _write(report, pack_dir, target, entries, extends)
    except OSError as exc:
        report.problems.append(f"{pack_dir}: cannot write the pack: "
                               f"{exc.strerror or exc}")
        return report
    report.saved = True
    return report


def _after(where: str, other: str) -> bool:
    """Whether ``where`` (file:line) comes after ``other`` in the same file."""
    name, _, line = where.rpartition(":")
    other_name, _, other_line = other.rpartition(":")
    return name == other_name and int(line) > int(other_line)


def _import_file(run: _Run, csv_path: Path) -> None:
    report = run.report
    colour = colour_of_file(csv_path)
    if colour is None:
        report.problems.append(f"{csv_path.name}: the file name names no single pip "
                               f"colour ({', '.join(c.value for c in PipColour)})")
        return
    try:
        text = _read_text(csv_path)
    except OSError as exc:
        report.problems.append(f"{csv_path.name}: cannot read the file: {exc.strerror}")
        return
    except UnicodeDecodeError:
        report.problems.append(f"{csv_path.name}: cannot read the file: it is not text "
                               "(neither UTF-8 nor the Windows code page)")
        return
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    header_seen = False
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if not header_seen:
                header_seen = True
                if [c.strip().lower() for c in row] == [h.lower() for h in HEADER]:
                    continue
                if not re.fullmatch(r"\s*[A-Za-z]*\s*\d+\s*", row[0]):
                    report.problems.append(f"{csv_path.name}:{line}: the header is not "
                                           f"{';'.join(HEADER)}")
                    return
                # no header: the file starts with its first code
            _import_row(run, colour, f"{csv_path.name}:{line}", row)
    except csv.Error as exc:
        report.problems.append(f"{csv_path.name}:{reader.line_num}: cannot read: {exc}")


def _fields(row: list[str]) -> tuple[str, str, str, str] | None:
    """Code, flavor, game text, item name. Unquoted ``;`` in the game text split it
    into more fields: the game text is everything between the second and last."""
    if len(row) < len(HEADER):
        return None
    return (row[0].strip(), row[1].strip(), ";".join(row[2:-1]).strip(), row[-1].strip())


def _code_digits(text: str, colour: PipColour) -> str:
    """The digits of a code cell ("1410", or "R1410" / "Red 1410" in the file's
    colour); ValueError for another colour's code."""
    match = re.fullmatch(r"([A-Za-z]*)[\s-]*(\d+)", text)
    if match is None or not match[1]:
        return text
    word = match[1].lower()
    named = next((c for c in PipColour if c.letter.lower() == word), None)
    if named is None:
        try:
            named = PipColour(word)
        except ValueError:
            raise ValueError(f"{match[1]!r} is not a pip colour") from None
    if named != colour:
        raise ValueError(f"a {named.value} code in the {colour.value} file")
    return match[2]


def _entry(colour: PipColour, digits: str, flavor: str, text: str,
           name: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"colour": colour.value, "code": digits}
    if name.lower() in _DEAD_END_NAMES:
        entry["dead_end"] = True
        lost = _LOST.search(text) and not _RETURNED.search(text)
        entry["dead_end_materials"] = "used up" if lost else "returned"
    else:
        entry["item_name"] = name
        cards = item_cards_in(text)
        if cards:
            entry["item_cards"] = list(cards)
    if text:
        entry["text"] = text
    if flavor:
        entry["flavor"] = flavor
    entry["verified"] = False
    return entry


def _describe(entry: dict[str, Any]) -> str:
    if entry.get("dead_end"):
        return f"dead end, materials {entry.get('dead_end_materials', 'as the rules say')}"
    cards = entry.get("item_cards") or []
    return str(entry.get("item_name")) + (f" ({', '.join(cards)})" if cards else "")


def _import_row(run: _Run, colour: PipColour, where: str, row: list[str]) -> None:
    report = run.report
    fields = _fields(row)
    if fields is None:
        report.problems.append(f"{where}: expected {len(HEADER)} fields separated by ';' "
                               f"({';'.join(HEADER)}), found {len(row)}")
        report.rows.append(ImportedRow(where, row[0].strip(), "skipped",
                                       f"only {len(row)} field(s)"))
        return
    code, flavor, text, name = fields
    try:
        digits = _code_digits(code, colour)
        entry = _entry(colour, digits, flavor, text, name)
        CraftingEntry.model_validate(entry)
    except (ValueError, ValidationError) as exc:
        if isinstance(exc, ValidationError):
            message = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
        else:
            message = str(exc)
        report.problems.append(f"{where}: code {code!r}: {message}")
        report.rows.append(ImportedRow(where, code, "skipped", message))
        return
    key = (colour.value, digits)
    shown = colour.letter + digits
    if key in run.seen:
        first, first_entry = run.seen[key]
        if first_entry == entry:
            run.repeats.setdefault(key, []).append(where)
        else:
            report.rows.append(ImportedRow(where, shown, "skipped",
                                           f"differs from {first}, which was kept"))
            report.problems.append(f"{where}: {shown} differs from {first}; kept {first}")
        return
    run.seen[key] = (where, entry)
    old = run.entries.get(key)
    if old is not None and (old.get("verified", True) is True or old.get("item")):
        report.kept_verified += 1
        why = "already confirmed at the table; kept" if old.get("verified", True) is True \
            else "linked to its item card; kept"
        report.rows.append(ImportedRow(where, shown, "skipped", why))
        return
    action = "new" if old is None else "unchanged" if old == entry else "updated"
    run.entries[key] = entry
    report.imported += 1
    report.new += action == "new"
    report.updated += action == "updated"
    report.rows.append(ImportedRow(where, shown, action, _describe(entry)))


def _write(report: ImportReport, pack_dir: Path, target: Path,
           entries: dict[tuple[str, str], dict[str, Any]], extends: str) -> None:
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
    order = [c.value for c in PipColour]
    rows = sorted(entries.values(), key=lambda r: (
        order.index(r["colour"]) if r.get("colour") in order else 99, str(r.get("code"))))
    banner = ("# Crafting codes imported from community files. 'verified: false' until\n"
              "# confirmed at the table; set 'verified: true' (or link 'item:') to confirm.\n")
    target.write_text(banner + yaml.safe_dump({"crafting": rows}, sort_keys=False,
                                              allow_unicode=True, width=100),
                      encoding="utf-8")
