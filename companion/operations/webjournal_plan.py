"""What importing a web Campaign Journal file would do, item by item (the preview's
rows), the sections it lists and their choices, and the plan and report of a whole
import: shared by the import's planners (``webjournal``, ``webjournal_codes``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel

from companion.operations.webjournal_entries import KEPT_PREFIX
from companion.operations.webjournal_links import WebOrigin
from companion.store import models
from companion.store import webjournal as fmt


@dataclass
class Planned:
    """One thing of the file, and what importing it would do."""

    section: str
    label: str
    state: str
    """"added", "conflict" or "already there"."""
    detail: str = ""
    """For a conflict: ours against the file's."""
    new_rows: list[SQLModel] = field(default_factory=list)
    replace: Any = None
    """For a conflict: a callable (session) -> None taking the file's side."""
    material: fmt.WebMaterial | None = None
    origin: WebOrigin | None = None
    """The file's entry this comes from (linked to its row, for the export)."""
    row: Any = None
    """The row it lives in when that row is already in the campaign."""
    place: Any = None
    """For an addition that changes a row rather than adding one: a callable (session)
    -> the row."""
    newer: str = ""
    """For a conflict, the side the Journal's rule takes: "theirs" when the file's
    ``updatedAt`` is newer than ours, else "ours" (a tie keeps ours, as the Journal
    keeps its own)."""
    deletes: bool = False
    """A conflict whose file side is the Journal's deletion of the entry."""
    deleted_here: bool = False
    """A conflict whose campaign side is a deletion (the entry is a tombstone here)."""
    relink: bool = True
    """Whether the entry's link takes the file's copy when the file's side is not taken
    (no: ours is newer, and the export must go on writing ours)."""

    def takes_theirs(self, choice: str) -> bool:
        """Whether the section's ``choice`` takes the file's side of this conflict."""
        return self.state == "conflict" and self.replace is not None and (
            choice == "theirs" or (choice == "newer" and self.newer == "theirs"))

    def outcome(self, choice: str) -> str:
        """What importing with ``choice`` does to this conflict, in words."""
        why = "newer there" if choice == "newer" else "your choice"
        if self.takes_theirs(choice):
            return "deleted (as in the Journal)" if self.deletes else \
                f"taken from the Journal ({why})"
        if self.deleted_here:
            return "kept here (deleted here)"
        return "kept here (newer here)" if choice == "newer" else "kept here (your choice)"


def kept_item(label: str, text: str, origin: WebOrigin | None = None) -> Planned:
    return Planned("kept", label, "added", new_rows=[models.NotePage(
        title=KEPT_PREFIX + label, text=text, position=0)], origin=origin)


#: Sections of an import, in the order the preview lists them: key -> title.
SECTIONS: dict[str, str] = {
    "codes": "Crafting codes",
    "culture": "Culture",
    "behemoths": "Behemoths",
    "challenges": "Challenge Log",
    "looming": "Looming challenges",
    "investigations": "Omens investigated",
    "notes": "Note pages",
    "outposts": "Outposts",
    "codex": "Codex entries read",
    "drawings": "Cave wall drawings",
    "materials": "Custom materials",
    "kept": "Kept as notes",
}

#: Where each section goes, in the journal's words.
HOMES: dict[str, str] = {
    "codes": "crafting codes (recipes, dead ends, unverified)",
    "culture": "the society's name and the Culture page",
    "behemoths": "the Behemoths section",
    "challenges": "the Challenge Log",
    "looming": "the looming challenges",
    "investigations": "the omens investigated",
    "notes": "the journal's Note pages",
    "outposts": "the Outposts section, with the structures built in each",
    "codex": "the Codex entries read (numbers and your notes, never the text)",
    "drawings": "the Primal Cave Wall, drawn",
    "materials": "materials of your own pack",
    "kept": "note pages with the original text",
}

#: A section's choice in the preview ("newer" the default: the Journal's own rule).
CHOICES: dict[str, str] = {
    "newer": "Add new, the newer copy wins (as the Journal merges)",
    "add": "Add new, keep ours where they differ",
    "theirs": "Add new, take the file's where they differ",
    "skip": "Leave out",
}
DEFAULT_CHOICE = "newer"



# --- the plan: what goes where --------------------------------------------------------


@dataclass
class SectionSummary:
    key: str
    title: str
    home: str
    added: int = 0
    conflicts: int = 0
    already: int = 0
    choice: str = DEFAULT_CHOICE
    kept: int = 0
    """Of the conflicts: ours kept."""
    taken: int = 0
    """Of the conflicts: the file's taken (the Journal's deletions not counted)."""
    deleted: int = 0
    """Of the conflicts: entries deleted here as the Journal had deleted them."""

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.key, "title": self.title, "home": self.home,
                "added": self.added, "conflicts": self.conflicts,
                "already_there": self.already, "choice": self.choice,
                "kept_here": self.kept, "taken_from_the_journal": self.taken,
                "deleted": self.deleted}

    def differing_words(self) -> str:
        """What became of the differing entries: "2 kept here, 1 deleted"."""
        parts = [f"{n} {words}" for n, words in ((self.kept, "kept here"), (
            self.taken, "taken from the Journal"), (self.deleted, "deleted")) if n]
        return ", ".join(parts)


@dataclass
class ImportPlan:
    """What importing a web-journal file would do (the preview)."""

    source: Path
    document: fmt.WebDocument
    items: list[Planned]
    tribe_name: str = ""
    tribe_conflict: str = ""
    named_after_file: str = ""
    """A new campaign from a file without a tribe name is named after the file."""
    carried: list[WebOrigin] = field(default_factory=list)
    """The Journal's tombstones the campaign keeps (for entries it does not hold, or
    newer than its own): each goes back in the export as the Journal wrote it."""
    culture_relink: bool = True
    """Whether the tribe's name as the file has it is remembered (not when ours is
    newer and kept)."""

    def summary(self, choices: Mapping[str, str] | None = None) -> list[SectionSummary]:
        out = []
        for key, title in SECTIONS.items():
            choice = (choices or {}).get(key, DEFAULT_CHOICE)
            s = SectionSummary(key, title, HOMES[key], choice=choice)
            for item in self.items:
                if item.section != key:
                    continue
                if item.state == "added":
                    s.added += 1
                elif item.state == "conflict":
                    s.conflicts += 1
                    if item.takes_theirs(choice):
                        if item.deletes:
                            s.deleted += 1
                        else:
                            s.taken += 1
                    else:
                        s.kept += 1
                else:
                    s.already += 1
            out.append(s)
        return out

    def outcomes(self, choices: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
        """(entry, what importing does to it) of every differing entry, in words."""
        return [(i.label, i.outcome((choices or {}).get(i.section, DEFAULT_CHOICE)))
                for i in self.conflicts() if (choices or {}).get(i.section) != "skip"]

    def conflicts(self) -> list[Planned]:
        return [i for i in self.items if i.state == "conflict"]

    def not_imported(self) -> list[str]:
        """What of the file is deliberately not imported, in words."""
        notes = []
        if self.document.deleted:
            notes.append(f"{self.document.deleted} entries the web journal had deleted "
                         "(kept as deleted: they go back to the Journal with the export)")
        if self.document.skipped_sync:
            notes.append("the web journal's own Google Drive sync settings")
        return notes

    def to_dict(self, choices: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {
            "source": str(self.source), "shape": self.document.shape,
            "sections": [s.to_dict() for s in self.summary(choices)],
            "conflicts": [{"section": i.section, "label": i.label, "detail": i.detail,
                           "newer": i.newer, "outcome": i.outcome(
                               (choices or {}).get(i.section, DEFAULT_CHOICE))}
                          for i in self.conflicts()],
            "kept_as_notes": [i.label for i in self.items
                              if i.section == "kept" and i.state == "added"],
            "not_imported": self.not_imported(),
        }


@dataclass(frozen=True)
class ImportReport:
    """What an import did: per section, counts; plus what was kept as notes."""

    source: str
    shape: str
    sections: tuple[SectionSummary, ...]
    kept_as_notes: tuple[str, ...]
    not_imported: tuple[str, ...]
    materials_file: str | None
    campaign: str
    materials_waiting: tuple[str, ...] = ()
    """Custom materials kept for the user's pack that still need something (a category)
    before they can be pack materials, each with what it needs."""
    materials_added: tuple[str, ...] = ()
    """Custom materials this import wrote into the user's own pack (names)."""
    materials_already: tuple[str, ...] = ()
    """Custom materials the campaign's content already had (by id or name)."""
    materials_pack: str = ""
    """The user's own pack the materials went to (its name)."""
    outcomes: tuple[tuple[str, str], ...] = ()
    """(entry, what the merge did to it) of every entry that differed: "kept here
    (newer here)", "taken from the Journal (newer there)", "deleted (as in the
    Journal)"..."""

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "shape": self.shape, "campaign": self.campaign,
                "sections": [s.to_dict() for s in self.sections],
                "kept_as_notes": list(self.kept_as_notes),
                "not_imported": list(self.not_imported),
                "materials_file": self.materials_file,
                "materials_waiting": list(self.materials_waiting),
                "materials_added": list(self.materials_added),
                "materials_already_there": list(self.materials_already),
                "materials_pack": self.materials_pack,
                "outcomes": [{"entry": e, "outcome": o} for e, o in self.outcomes]}

    def lines(self) -> list[str]:
        """The report in words, one line each (the CLI prints these)."""
        out = [f"Imported the web journal {Path(self.source).name} ({self.shape}) "
               f"into {self.campaign}:"]
        for s in self.sections:
            if s.choice == "skip":
                if s.added or s.conflicts or s.already:
                    out.append(f"  {s.title}: left out")
                continue
            if not (s.added or s.conflicts or s.already):
                continue
            parts = [f"{s.added} added"]
            if s.conflicts:
                parts.append(f"{s.conflicts} differing ({s.differing_words()})")
            if s.already:
                parts.append(f"{s.already} already there")
            out.append(f"  {s.title}: {', '.join(parts)} -> {s.home}")
        for label, outcome in self.outcomes:
            out.append(f"  {outcome}: {label}")
        for label in self.kept_as_notes:
            out.append(f"  kept as a note page: {label}")
        for what in self.not_imported:
            out.append(f"  not imported: {what}")
        for line in self.material_lines():
            out.append(f"  {line[0].lower()}{line[1:]}")
        return out

    def material_lines(self) -> list[str]:
        """What became of the custom materials, in words (the CLI and the GUI report)."""
        out = []
        if self.materials_added:
            out.append(f"Custom materials added to your own pack '{self.materials_pack}' "
                       f"(Content ▸ My Cards): {', '.join(self.materials_added)}. "
                       f"{MATERIALS_STAY}")
        if self.materials_already:
            out.append("Custom materials already in the campaign's content: "
                       + ", ".join(self.materials_already))
        for what in self.materials_waiting:
            out.append(f"Custom material {what}")
        if self.materials_file:
            out.append(f"Custom materials' pictures and notes kept for the web journal in "
                       f"{self.materials_file}")
        return out


MATERIALS_STAY = ("Undoing this import leaves them in My Cards (delete them there if "
                  "you want them gone).")
