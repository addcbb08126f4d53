"""Move a campaign from the web app "Stonesaga Campaign Journal", and back.

Every field of the web app's file has a home here (``companion.store.webjournal`` reads
the file):

======================  ==============================================================
web journal             campaign
======================  ==============================================================
recipe codes            a ``code_record`` per code (status ``recipe``), named after the
                        item; ``data``: item card, material pairs, alternative pairs,
                        notes
null codes              ``code_record`` status ``null`` (a dead end), with its materials
provisional codes       ``code_record`` status ``provisional`` (unverified): card, name,
                        flavour and game text, source
culture.tribeName       the society's name
structures, knowledge   the Culture page's lists (``note_page`` ``culture:<list>``):
cards, taboos, pigments "ST02 Fire Pit — notes"
behemoths               ``behemoth_state``: card, name, lair hex, demeanor (the dial; a
                        demeanor in words opens the notes "Demeanor: ..."), secrets, notes
challengeRecord         the Challenge Log by epoch: card, name, outcome, notes ("Fled"
                        is an outcome, not a finished challenge)
loomingChallenges       ``looming_challenge`` in the group's order: card, name,
                        prepare-by epoch (in words: "Prepare by: ..." opens the notes),
                        notes
investigations          omens investigated: omen, component (card) ID, notes
notePages               the journal's Note pages
customMaterials         materials of the user's own pack (``<pack>-mine``, Content ▸ My
                        Cards), written by :func:`add_custom_materials`; what the pack
                        schema has no field for (image, notes, the processed form's
                        name) and materials that cannot be pack materials yet wait in
                        a side file (:func:`materials_file`). Undo does not take pack
                        cards back: the report and the journal say so.
culture.mantlePowers    a kept note (they are the group's words, not the pack's mantle
                        powers); the export puts them back
anything else           a note page "From the web journal: ..." with its original text
======================  ==============================================================

Importing is one journalled operation (kind ``import.web_journal``): undo takes all of
it back. Into an existing campaign, :func:`preview` first says per section what would
be added, what conflicts and what is already there; the user picks per section.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from sqlmodel import Session, SQLModel, col, select

from companion import paths
from companion.content.schema.base import Edge
from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.journal import CULTURE_PREFIX, DEMEANOR_LINE
from companion.rules.crafting import CraftingCode
from companion.rules.errors import IllegalAction
from companion.store import backups_dir, models
from companion.store import webjournal as fmt
from companion.store.campaign_file import build_new
from companion.store.errors import CampaignFileError

#: Sections of an import, in the order the preview lists them: key -> title.
SECTIONS: dict[str, str] = {
    "codes": "Crafting codes",
    "culture": "Culture",
    "behemoths": "Behemoths",
    "challenges": "Challenge Log",
    "looming": "Looming challenges",
    "investigations": "Omens investigated",
    "notes": "Note pages",
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
    "materials": "materials of your own pack",
    "kept": "note pages with the original text",
}

#: A section's choice in the preview.
CHOICES: dict[str, str] = {
    "add": "Add new, keep ours where they differ",
    "theirs": "Add new, take the file's where they differ",
    "skip": "Leave out",
}

CULTURE_KINDS = {"structures": "structures", "knowledgeCards": "knowledge",
                 "taboos": "taboos", "pigments": "pigments"}
"""Web culture lists -> the Culture page's lists."""
KEPT_PREFIX = "From the web journal: "
WEB_MATERIALS_DIR = "web-journal"
FINISHED_OUTCOMES = ("won", "lost", "resolved", "success", "failure", "complete", "completed")
"""Outcomes of a challenge that was played to its end ("fled" is not one)."""


# --- the plan: what goes where --------------------------------------------------------


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


@dataclass
class SectionSummary:
    key: str
    title: str
    home: str
    added: int = 0
    conflicts: int = 0
    already: int = 0
    choice: str = "add"

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.key, "title": self.title, "home": self.home,
                "added": self.added, "conflicts": self.conflicts,
                "already_there": self.already, "choice": self.choice}


@dataclass
class ImportPlan:
    """What importing a web-journal file would do (the preview)."""

    source: Path
    document: fmt.WebDocument
    items: list[Planned]
    tribe_name: str = ""
    tribe_conflict: str = ""

    def summary(self, choices: Mapping[str, str] | None = None) -> list[SectionSummary]:
        out = []
        for key, title in SECTIONS.items():
            s = SectionSummary(key, title, HOMES[key], choice=(choices or {}).get(key, "add"))
            for item in self.items:
                if item.section != key:
                    continue
                if item.state == "added":
                    s.added += 1
                elif item.state == "conflict":
                    s.conflicts += 1
                else:
                    s.already += 1
            out.append(s)
        return out

    def conflicts(self) -> list[Planned]:
        return [i for i in self.items if i.state == "conflict"]

    def not_imported(self) -> list[str]:
        """What of the file is deliberately not imported, in words."""
        notes = []
        if self.document.deleted:
            notes.append(f"{self.document.deleted} entries the web journal had deleted")
        if self.document.skipped_sync:
            notes.append("the web journal's own Google Drive sync settings")
        return notes

    def to_dict(self, choices: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {
            "source": str(self.source), "shape": self.document.shape,
            "sections": [s.to_dict() for s in self.summary(choices)],
            "conflicts": [{"section": i.section, "label": i.label, "detail": i.detail}
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

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "shape": self.shape, "campaign": self.campaign,
                "sections": [s.to_dict() for s in self.sections],
                "kept_as_notes": list(self.kept_as_notes),
                "not_imported": list(self.not_imported),
                "materials_file": self.materials_file,
                "materials_waiting": list(self.materials_waiting),
                "materials_added": list(self.materials_added),
                "materials_already_there": list(self.materials_already),
                "materials_pack": self.materials_pack}

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
                taken = "the file's taken" if s.choice == "theirs" else "ours kept"
                parts.append(f"{s.conflicts} differing ({taken})")
            if s.already:
                parts.append(f"{s.already} already there")
            out.append(f"  {s.title}: {', '.join(parts)} -> {s.home}")
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


# --- codes ------------------------------------------------------------------------------


def code_text(code: fmt.WebCode) -> str:
    """The campaign's text of a web code: ``"Y1111"`` when this program knows the colour,
    else the web app's own ``"Grey 1234"`` (kept as written until the colour is known)."""
    try:
        return str(CraftingCode.parse(f"{code.color} {code.digits}"))
    except (IllegalAction, KeyError, ValueError):
        return code.key


def web_code(text: str) -> dict[str, str]:
    """The web app's ``{color, digits}`` of a campaign code text."""
    try:
        code = CraftingCode.parse(text)
        return {"color": code.colour.value.capitalize(), "digits": code.digits}
    except (IllegalAction, KeyError, ValueError):
        colour, _, digits = text.partition(" ")
        return {"color": colour, "digits": digits}


def _pair_data(pair: fmt.WebPair) -> dict[str, Any]:
    data: dict[str, Any] = {"left": pair.left, "right": pair.right}
    if pair.left_category:
        data["left_category"] = pair.left_category
    if pair.right_category:
        data["right_category"] = pair.right_category
    if pair.inferred:
        data["inferred"] = True
    return data


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                      default=str)


def _plan_codes(doc: fmt.WebDocument, existing: dict[str, models.CodeRecord],
                items: list[Planned]) -> None:
    seen: dict[str, str] = {}

    def plan(text: str, status: str, name: str, data: dict[str, Any], label: str) -> None:
        if text in seen:
            items.append(_kept_item(f"{label} (the file also has {text}: {seen[text]})",
                                    json.dumps({"code": text, "name": name, **data},
                                               ensure_ascii=False, indent=2)))
            return
        seen[text] = _status_words(f"{status} {name}".strip())
        row = existing.get(text)
        if row is None:
            items.append(Planned("codes", label, "added", new_rows=[models.CodeRecord(
                code=text, status=status, name=name, data=data)]))
        elif row.status == status and row.name == name and all(
                _same(row.data.get(k), v) for k, v in data.items()):
            items.append(Planned("codes", label, "already there"))
        elif row.status == status and row.name in ("", name):
            # Same finding; the file knows more (materials, notes): nothing to choose.
            def merge(session: Session, row_id: int = row.id or 0,
                      extra: dict[str, Any] = data, name_: str = name) -> None:
                target = session.get(models.CodeRecord, row_id)
                if target is not None:
                    target.name = name_
                    target.data = {**target.data, **extra}
            differing = sorted(k for k, v in data.items() if not _same(row.data.get(k), v))
            items.append(Planned("codes", label, "conflict",
                                 "the file's " + (", ".join(_DATA_WORDS.get(k, k)
                                                            for k in differing) or "name")
                                 + " differ",
                                 replace=merge))
        else:
            ours = f"{row.status} {row.name}".strip()

            def take(session: Session, row_id: int = row.id or 0) -> None:
                target = session.get(models.CodeRecord, row_id)
                if target is not None:
                    target.status, target.name, target.data = status, name, dict(data)
            items.append(Planned("codes", label, "conflict",
                                 f"ours: {_status_words(ours)}; the file: "
                                 f"{_status_words(f'{status} {name}'.strip())}",
                                 replace=take))

    for recipe in doc.recipes:
        if not recipe.codes:
            items.append(_kept_item(f"Recipe {recipe.name or recipe.item_id} (no code)",
                                    json.dumps(_recipe_json(recipe), ensure_ascii=False,
                                               indent=2)))
            continue
        for code in recipe.codes:
            data: dict[str, Any] = {"materials": [_pair_data(p) for p in recipe.pairs]}
            if recipe.item_id:
                data["item_id"] = recipe.item_id
            if recipe.notes:
                data["notes"] = recipe.notes
            if recipe.extra:
                data["web"] = recipe.extra
            text = code_text(code)
            plan(text, "recipe", recipe.name, data, f"{text} {recipe.name}".strip())
    for null in doc.null_codes:
        text = code_text(null.code)
        plan(text, "null", "", {"materials": [_pair_data(null.pair)]} if null.pair else {},
             f"{text} (dead end)")
    for prov in doc.provisional:
        text = code_text(prov.code)
        data = {k: v for k, v in (("card_id", prov.card_id), ("flavor", prov.flavor),
                                  ("game_text", prov.game_text), ("source", prov.source))
                if v}
        if prov.dead_end:
            data["dead_end"] = True
        if prov.revealed:
            data["revealed"] = True
        if text in seen:  # verified already: the unverified entry adds nothing
            items.append(Planned("codes", f"{text} (unverified)", "already there"))
            continue
        plan(text, "provisional", prov.name, data, f"{text} (unverified)")


_DATA_WORDS = {"item_id": "item card", "game_text": "game text", "card_id": "card",
               "dead_end": "dead end", "web": "other fields"}


def _status_words(text: str) -> str:
    status, _, name = text.partition(" ")
    word = {"recipe": "crafts", "null": "a dead end", "provisional": "unverified"}.get(
        status, status)
    return f"{word} {name}".strip()


def _recipe_json(recipe: fmt.WebRecipe) -> dict[str, Any]:
    return {"id": recipe.item_id, "name": recipe.name,
            "materials": [_pair_data(p) for p in recipe.pairs], "notes": recipe.notes,
            **recipe.extra}


# --- the journal's sections -----------------------------------------------------------


def _kept_item(label: str, text: str) -> Planned:
    return Planned("kept", label, "added", new_rows=[models.NotePage(
        title=KEPT_PREFIX + label, text=text, position=0)])


def culture_text(entry: fmt.WebCultureEntry) -> str:
    """A web culture entry as one line of the Culture page: "ST02 Fire Pit — notes"."""
    text = f"{entry.card_id} {entry.text}" if entry.card_id else entry.text
    return f"{text} — {entry.notes}" if entry.notes else text


_CARD_AT_START = re.compile(r"([A-Z]{2}\d+[A-Za-z]?)\s+")
_SPACE = re.compile(r"\s")
NOTES_DASH = "\u2014"
"""The em dash that separates a Culture line's name from its notes ("name — notes")."""


def split_notes(text: str) -> tuple[str, str | None]:
    """(name, notes) of "name — notes": split at the first dash with whitespace on both
    sides, the whitespace going with the dash; (text, None) when there is none.

    One pass over the text (each character looked at a bounded number of times): the
    earlier regular expression backtracked over every run of whitespace and took
    seconds on a long line (issue 24).
    """
    length = len(text)
    at = text.find(NOTES_DASH)
    while at != -1:
        if 0 < at < length - 1 and _SPACE.match(text, at - 1) and _SPACE.match(text, at + 1):
            start = at - 1
            while start > 0 and _SPACE.match(text, start - 1):
                start -= 1
            end = at + 1
            while end < length and _SPACE.match(text, end):
                end += 1
            return text[:start], text[end:]
        at = text.find(NOTES_DASH, at + 1)
    # Without notes, a line's one final newline is not part of the name.
    return (text[:-1] if text.endswith("\n") else text), None


def parse_culture_text(kind: str, text: str) -> dict[str, str]:
    """The web app's entry of one Culture line (the inverse of :func:`culture_text`).

    A line beginning with a card ID ("ST02 ...") reads as that card; a structure whose
    name itself began with one would come back split (none of the game's do). Linear in
    the line's length.
    """
    if kind in ("taboos", "pigments"):
        return {"text" if kind == "taboos" else "name": text}
    card = _CARD_AT_START.match(text)
    rest = text[card.end():] if card else text
    name, notes = split_notes(rest)
    entry = {"cardId": card[1] if card else "", "name": name}
    if kind == "structures":
        entry["notes"] = notes or ""
    elif notes:
        entry["name"] = f"{name} — {notes}"
    return entry


def _culture_key(kind: str, text: str) -> str:
    """What names one Culture line: a structure or knowledge card by its card ID (else
    its name), a taboo or pigment by its text."""
    entry = parse_culture_text(kind, text)
    return _fold(entry.get("cardId") or entry.get("name") or entry.get("text") or text)


def _plan_culture(doc: fmt.WebDocument, session: Session, items: list[Planned]) -> None:
    pages = session.exec(select(models.NotePage).where(
        col(models.NotePage.title).startswith(CULTURE_PREFIX))).all()
    web_kind = {v: k for k, v in CULTURE_KINDS.items()}
    have: dict[tuple[str, str], models.NotePage | None] = {}
    positions: dict[str, int] = {}
    for page in pages:
        positions[page.title] = max(positions.get(page.title, 0), page.position)
        kind = web_kind.get(page.title[len(CULTURE_PREFIX):])
        if kind:
            have[(page.title, _culture_key(kind, page.text))] = page
    for entry in doc.culture:
        title = CULTURE_PREFIX + CULTURE_KINDS[entry.kind]
        text = culture_text(entry)
        label = f"{fmt._words(entry.kind)}: {text}"
        key = (title, _culture_key(entry.kind, text))
        if key not in have:
            have[key] = None
            positions[title] = positions.get(title, 0) + 1
            items.append(Planned("culture", label, "added", new_rows=[models.NotePage(
                title=title, text=text, position=positions[title])]))
            continue
        old = have[key]
        if old is None or old.text == text:
            items.append(Planned("culture", label, "already there"))
            continue

        def take(s: Session, row_id: int = old.id or 0, new_text: str = text) -> None:
            target = s.get(models.NotePage, row_id)
            if target is not None:
                target.text = new_text
        items.append(Planned("culture", label, "conflict",
                             f"ours: {old.text}; the file: {text}", replace=take))


PREPARE_LINE = "Prepare by: "
"""A "prepare by" the web journal gives in words opens the looming challenge's notes."""


def with_line(prefix: str, words: str, notes: str) -> str:
    """``notes`` opened by the line ``prefix + words`` (nothing added without words)."""
    if not words:
        return notes
    return f"{prefix}{words}\n{notes}" if notes else f"{prefix}{words}"


def split_line(prefix: str, notes: str) -> tuple[str, str]:
    """(words, the rest of the notes) when ``notes`` opens with ``prefix`` (the inverse
    of :func:`with_line`); ("", notes) otherwise."""
    if not notes.startswith(prefix):
        return "", notes
    first, _, rest = notes.partition("\n")
    return first[len(prefix):].strip(), rest


def _behemoth_row(b: fmt.WebBehemoth) -> models.BehemothState:
    return models.BehemothState(
        behemoth_id=b.card_id, name=b.name, lair_hex=b.lair_hex, demeanor=b.demeanor,
        secrets=[{"card_id": s.card_id, "name": s.name, "description": s.description}
                 for s in b.secrets], note=with_line(DEMEANOR_LINE, b.demeanor_text, b.notes))


def secret_text(secret: Mapping[str, Any]) -> str:
    """A revealed secret as the web journal's version 3 keeps it: one line of text."""
    text = " ".join(str(secret.get(k) or "") for k in ("card_id", "name")).strip()
    description = str(secret.get("description") or "")
    return f"{text} — {description}" if text and description else text or description


_BEHEMOTH_FIELDS = ("behemoth_id", "name", "lair_hex", "demeanor", "secrets", "note")


def _plan_rows(section: str, rows: Iterable[tuple[str, SQLModel]], table: type[SQLModel],
               key: Any, fields: Sequence[str], session: Session,
               items: list[Planned]) -> None:
    """Match each new row to an existing one by ``key(row)``; compare ``fields``."""
    existing = {key(r): r for r in session.exec(select(table)).all()}
    for label, row in rows:
        old = existing.get(key(row))
        if old is None:
            existing[key(row)] = row
            items.append(Planned(section, label, "added", new_rows=[row]))
            continue
        differing = [f for f in fields if not _same(getattr(old, f), getattr(row, f))]
        if not differing:
            items.append(Planned(section, label, "already there"))
            continue
        if any(old is i.new_rows[0] for i in items if i.new_rows):
            # Twice in the same file: the first one stands; the second is kept as a note.
            items.append(_kept_item(f"{SECTIONS[section]}: {label} (second entry)",
                                    json.dumps(row.model_dump(exclude={"id"}),
                                               ensure_ascii=False, indent=2, default=str)))
            continue

        def take(s: Session, row_id: int = getattr(old, "id", 0) or 0,
                 new: SQLModel = row, names: Sequence[str] = differing) -> None:
            target = s.get(table, row_id)
            if target is not None:
                for name in names:
                    setattr(target, name, getattr(new, name))
        detail = "; ".join(f"{_field_words(f)}: ours {_show(getattr(old, f))}, the file "
                           f"{_show(getattr(row, f))}" for f in differing)
        items.append(Planned(section, label, "conflict", detail, replace=take))


def _field_words(name: str) -> str:
    return {"note": "notes", "behemoth_id": "card", "challenge_id": "card",
            "outcome_entry": "outcome", "component_id": "card", "omen_id": "omen",
            "prepare_by": "prepare by epoch", "position": "order", "text": "text"}.get(
        name, name.replace("_", " "))


def _show(value: Any) -> str:
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, list):
        return ", ".join(v.get("name", "") if isinstance(v, dict) else str(v) for v in value)
    return str(value)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _challenge_row(c: fmt.WebChallenge, content_challenges: Mapping[str, Any]
                   ) -> models.ChallengeLogEntry:
    outcome = c.outcome or None
    if outcome is not None and outcome.casefold() == "current":
        outcome = None
    finished = outcome is not None and outcome.casefold() in FINISHED_OUTCOMES
    notes = c.notes
    if c.goals_completed:
        notes = (notes + "\n\n" if notes else "") + f"Goals completed: {c.goals_completed}"
    return models.ChallengeLogEntry(
        epoch=c.epoch or 1, challenge_id=_challenge_id(c.card_id, c.name, content_challenges),
        name=c.name, outcome_entry=outcome, finished=finished, notes=notes)


def _challenge_id(card_id: str, name: str, content_challenges: Mapping[str, Any]) -> str:
    """The pack's challenge for a web card ID or name (so ``challenge start`` knows it);
    the card ID as written when the pack does not know it."""
    if card_id in content_challenges:
        return card_id
    for cid, card in content_challenges.items():
        if (card_id and cid.casefold() == card_id.casefold()) or (
                not card_id and name and _fold(getattr(card, "name", "")) == _fold(name)):
            return str(cid)
    return card_id


def preview(campaign: Campaign, src: Path, document: fmt.WebDocument | None = None
            ) -> ImportPlan:
    """What importing ``src`` into ``campaign`` would add, what conflicts and what is
    already there. Raises :class:`Refused` (naming the field) for a bad file."""
    doc = document if document is not None else read(src)
    items: list[Planned] = []
    challenges = campaign.content.challenges
    with campaign.file.read() as session:
        _plan_codes(doc, {r.code: r for r in session.exec(select(models.CodeRecord)).all()},
                    items)
        row = session.get(models.Campaign, 1)
        ours = row.society_name if row else ""
        tribe_conflict = ""
        if doc.tribe_name:
            if not ours:
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}", "added"))
            elif ours == doc.tribe_name:
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}",
                                     "already there"))
            else:
                tribe_conflict = f"ours: {ours}, the file: {doc.tribe_name}"
                items.append(Planned("culture", f"Tribe name: {doc.tribe_name}", "conflict",
                                     tribe_conflict, replace=_set_tribe(doc.tribe_name)))
        _plan_culture(doc, session, items)
        _plan_rows("behemoths", ((b.name or b.card_id, _behemoth_row(b)) for b in doc.behemoths),
                   models.BehemothState,
                   lambda r: _fold(r.behemoth_id or r.name), _BEHEMOTH_FIELDS, session, items)
        _plan_rows("challenges", ((f"Epoch {c.epoch or 1}: {c.name or c.card_id}",
                                   _challenge_row(c, challenges)) for c in doc.challenges),
                   models.ChallengeLogEntry,
                   lambda r: (r.epoch, _fold(r.challenge_id or r.name)),
                   ("name", "outcome_entry", "finished", "notes"), session, items)
        base = max((r.position for r in session.exec(select(models.LoomingChallenge)).all()),
                   default=-1) + 1
        _plan_rows("looming", ((e.name or e.card_id, models.LoomingChallenge(
            challenge_id=_challenge_id(e.card_id, e.name, challenges), name=e.name,
            prepare_by=e.prepare_by, note=with_line(PREPARE_LINE, e.prepare_by_text, e.notes),
            position=base + i,
            epoch=_epoch(session))) for i, e in enumerate(doc.looming)),
            models.LoomingChallenge, lambda r: _fold(r.challenge_id or r.name),
            ("name", "prepare_by", "note"), session, items)
        _plan_rows("investigations", ((f"{i.omen} {i.card_id}".strip(),
                                       models.OmenInvestigation(
                                           omen_id=i.omen, component_id=i.card_id,
                                           note=i.notes, epoch=_epoch(session)))
                                      for i in doc.investigations),
                   models.OmenInvestigation, lambda r: (_fold(r.omen_id), _fold(r.component_id)),
                   ("note",), session, items)
        _plan_rows("notes", ((n.title or "Untitled", models.NotePage(
            title=n.title, text=n.body)) for n in doc.notes), models.NotePage,
            lambda r: r.title, ("text",), session, items)
        kept_titles = {(p.title, p.text) for p in session.exec(select(models.NotePage).where(
            col(models.NotePage.title).startswith(KEPT_PREFIX))).all()}
    for left in doc.leftovers:
        item = _kept_item(left.label, left.text)
        page = item.new_rows[0]
        assert isinstance(page, models.NotePage)
        if (page.title, page.text) in kept_titles:
            item.state, item.new_rows = "already there", []
        items.append(item)
    for item in items:  # kept notes planned above (codes without a home) too
        if item.section == "kept" and item.state == "added":
            page = item.new_rows[0]
            if isinstance(page, models.NotePage) and (page.title, page.text) in kept_titles:
                item.state, item.new_rows = "already there", []
    have = {m["name"].casefold() for m in read_custom_materials(_pack_id(campaign))}
    have |= {m.name.casefold() for m in campaign.content.materials.values()}
    ids = set(campaign.content.materials)
    for material in doc.materials:
        state = "already there" if material.name.casefold() in have \
            or _material_id(material.name) in ids else "added"
        items.append(Planned("materials", material.name, state, material=material))
    return ImportPlan(src, doc, items, doc.tribe_name, tribe_conflict)


def _set_tribe(name: str) -> Any:
    def take(session: Session) -> None:
        row = session.get(models.Campaign, 1)
        if row is not None:
            row.society_name = name
    return take


def _epoch(session: Session) -> int:
    row = session.get(models.Campaign, 1)
    return row.epoch if row is not None else 1


def read(src: Path) -> fmt.WebDocument:
    """Read and check a web-journal file; :class:`Refused` names the field at fault."""
    try:
        return fmt.read_document(Path(src))
    except CampaignFileError as exc:
        raise Refused(str(exc)) from None


# --- applying ---------------------------------------------------------------------------


def apply(campaign: Campaign, plan: ImportPlan, choices: Mapping[str, str] | None = None
          ) -> Changes:
    """Import ``plan`` into ``campaign`` as one undoable operation.

    ``choices`` maps a section key to a key of :data:`CHOICES` (default "add").
    Custom materials are written into the user's own pack in the same operation (the
    campaign records the pack versions it now uses); undo does not take them back out
    of the pack, and the journal says so.
    """
    choices = dict(choices or {})
    bad = {k: v for k, v in choices.items() if k not in SECTIONS or v not in CHOICES}
    if bad:
        raise Refused("Unknown import choice " + ", ".join(f"{k}={v}" for k, v in bad.items())
                      + f": sections are {', '.join(SECTIONS)}; choices "
                      f"{', '.join(CHOICES)}.")
    counts = {key: 0 for key in SECTIONS}
    with campaign.write("import.web_journal",
                        f"Imported the web journal {plan.source.name}",
                        source="web-journal", shape=plan.document.shape) as session:
        for item in plan.items:
            choice = choices.get(item.section, "add")
            if choice == "skip" or item.section == "materials":
                continue
            if item.state == "added":
                if item.label.startswith("Tribe name: "):
                    _set_tribe(plan.tribe_name)(session)
                for row in item.new_rows:
                    session.add(row)
                counts[item.section] += 1
            elif item.state == "conflict" and choice == "theirs" and item.replace:
                item.replace(session)
                counts[item.section] += 1
        wanted = [i.material for i in plan.items if i.section == "materials"
                  and i.state == "added" and i.material is not None]
        outcome = MaterialsOutcome()
        text = f"Imported the web journal {plan.source.name}"
        if wanted and choices.get("materials", "add") != "skip":
            outcome = add_custom_materials(campaign, session, wanted)
            if outcome.added:
                text += (f"; custom materials added to {outcome.pack}: "
                         f"{', '.join(outcome.added)}. {MATERIALS_STAY}")
                session.info["journal_text"] = text
    report = report_of(campaign, plan, choices, outcome)
    return Changes(summary=text, everything=True, detail=report)


def report_of(campaign: Campaign, plan: ImportPlan, choices: Mapping[str, str],
              outcome: MaterialsOutcome | None = None) -> ImportReport:
    """Describe what the import did (``outcome``: what became of the custom materials)."""
    outcome = outcome or MaterialsOutcome()
    return ImportReport(
        source=str(plan.source), shape=plan.document.shape,
        sections=tuple(plan.summary(choices)),
        kept_as_notes=tuple(i.label for i in plan.items if i.section == "kept"
                            and i.state == "added" and choices.get("kept") != "skip"),
        not_imported=tuple(plan.not_imported()), materials_file=outcome.file,
        campaign=campaign.title, materials_waiting=outcome.waiting,
        materials_added=outcome.added, materials_already=outcome.already,
        materials_pack=outcome.pack)


def import_into(campaign: Campaign, src: Path, choices: Mapping[str, str] | None = None
                ) -> ImportReport:
    """Import ``src`` into the open ``campaign`` (one undoable operation)."""
    changes = apply(campaign, preview(campaign, src), choices)
    assert isinstance(changes.detail, ImportReport)
    return changes.detail


def import_new(src: Path, dest: Path, *, extra_content: Sequence[Path] = ()
               ) -> tuple[Campaign, ImportReport]:
    """Create campaign ``dest`` from the web-journal file ``src`` and open it.

    The file is read and checked before anything is created: a refused file leaves no
    campaign file and no backups folder behind.
    """
    src, dest = Path(src), Path(dest).absolute()
    if dest.exists():
        raise Refused(f"{dest} already exists; choose a new file name.")
    document = read(src)
    if not dest.parent.is_dir():
        raise Refused(f"There is no folder {dest.parent} to save the campaign in.")
    try:
        build_new(dest)
    except CampaignFileError as exc:
        raise Refused(str(exc)) from None
    except (OSError, sqlite3.Error) as exc:
        raise Refused(f"Could not create {dest}: {exc}") from None
    try:
        campaign = Campaign.open(dest, extra_content=extra_content)
    except BaseException:
        _remove_campaign(dest)
        raise
    try:
        with campaign.file.transaction("setup", "A campaign from the web journal") as session:
            row = session.get(models.Campaign, 1)
            if row is not None:
                if not document.tribe_name:
                    row.society_name = src.stem
                # The campaign goes on in the latest epoch the record reached.
                row.epoch = max((c.epoch or 1 for c in document.challenges), default=1)
        report = _import_doc(campaign, src, document)
    except BaseException:
        campaign.close()
        _remove_campaign(dest)
        raise
    return campaign, report


def _import_doc(campaign: Campaign, src: Path, document: fmt.WebDocument) -> ImportReport:
    changes = apply(campaign, preview(campaign, src, document))
    assert isinstance(changes.detail, ImportReport)
    return changes.detail


def _remove_campaign(dest: Path) -> None:
    for leftover in (dest, dest.with_name(dest.name + "-wal"),
                     dest.with_name(dest.name + "-shm")):
        leftover.unlink(missing_ok=True)
    shutil.rmtree(backups_dir(dest), ignore_errors=True)


# --- custom materials: the user's own pack ---------------------------------------------


def _pack_id(campaign: Campaign, session: Session | None = None) -> str:
    """The campaign's own pack, under the user's pack that extends it (the side file of
    custom materials is named after it, whether or not the user's pack exists yet)."""
    from companion.operations.cards import _is_users

    if session is None:
        with campaign.file.read() as reading:
            return _pack_id(campaign, reading)
    row = session.get(models.Campaign, 1)
    packs = [str(p["id"]) for p in (row.content_packs if row else [])]
    while len(packs) > 1 and _is_users(packs[-1]):
        packs.pop()
    return packs[-1] if packs else "sample"


def materials_file(pack_id: str) -> Path:
    """The side file of the web journal's custom materials for the user's pack extending
    ``pack_id``: ``<user data>/web-journal/<pack>-mine-materials.yaml``.

    ``web_journal:`` lists the web app's entries. One that became a material of the
    user's own pack keeps only what the pack schema has no field for (picture, notes,
    the name of its processed form) with ``material: <id>``; the entry of a processed
    form keeps ``side_of: <id>``; the export takes names, categories and pips from the
    pack. One that cannot be a pack material (yet) is kept whole.
    """
    return paths.user_data_dir() / WEB_MATERIALS_DIR / f"{pack_id}-mine-materials.yaml"


def _side_file(pack_id: str) -> dict[str, Any]:
    file = materials_file(pack_id)
    if not file.is_file():
        return {}
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def read_custom_materials(pack_id: str) -> list[dict[str, Any]]:
    """The web journal's custom materials kept for ``pack_id``'s user pack: whole web
    entries (``{name, cat, processed, image, marks, notes}``) or, for those in the pack,
    ``{name, material | side_of, processed, image, notes}``."""
    data = _side_file(pack_id)
    if "web_journal" not in data:  # the first form of this file: the web entries only
        return [_first_form(m) for m in data.get("materials", []) or []
                if isinstance(m, dict) and isinstance(m.get("name"), str)
                and "unprocessed" not in m]
    entries = data["web_journal"]
    return [m for m in entries if isinstance(m, dict) and isinstance(m.get("name"), str)] \
        if isinstance(entries, list) else []


def _first_form(m: Mapping[str, Any]) -> dict[str, Any]:
    marks = m.get("marks")
    return {"name": m["name"], "cat": m.get("category") or "unknown",
            "processed": m.get("processed"), "image": m.get("image"),
            "marks": [marks.get(k) for k in ("left", "right", "top", "bottom")]
            if isinstance(marks, dict) else None, "notes": m.get("notes")}


def _in_pack(entry: Mapping[str, Any]) -> bool:
    return bool(entry.get("material") or entry.get("side_of"))


def materials_waiting(pack_id: str) -> list[tuple[str, str]]:
    """(name, what it needs) of each kept custom material that is not a pack material
    (nor another token's processed side) and cannot be one yet."""
    kept = read_custom_materials(pack_id)
    sides = {str(m["processed"]).casefold() for m in kept if m.get("processed")}
    waiting = []
    for entry in kept:
        if _in_pack(entry) or entry["name"].casefold() in sides:
            continue
        material, why = pack_material(entry, kept)
        if material is None:
            waiting.append((entry["name"], why))
    return waiting


def _material_id(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return slug or "material"


def pack_material(entry: Mapping[str, Any], others: Sequence[Mapping[str, Any]]
                  ) -> tuple[dict[str, Any] | None, str]:
    """A web custom material as a pack material (``Material``), checked by the pack
    schema; (None, what it needs) when it cannot be one yet.

    The web app keeps each side of a token as its own material ("Glowing Moss" and its
    ``processed`` form "Glowing Moss (dried)"): the processed one's marks become the
    processed side. It does not record a token's size: a custom material is taken as a
    small token.
    """
    from pydantic import ValidationError

    from companion.content.schema.world import Material, MaterialCategory, MaterialSide

    name = str(entry["name"])
    try:
        category = MaterialCategory(str(entry.get("cat") or "unknown"))
    except ValueError:
        return None, (f"its category is {entry.get('cat') or 'not given'!r}; give it "
                      f"one of animal, mineral, plant or rare to use it in crafting")
    processed_name = str(entry.get("processed") or "")
    processed = next((o for o in others if processed_name
                      and str(o.get("name", "")).casefold() == processed_name.casefold()),
                     None)
    try:
        material = Material(
            id=_material_id(name), name=name, category=category, size="small",
            unprocessed=MaterialSide.from_marks(entry.get("marks")),
            processed=MaterialSide.from_marks(processed.get("marks") if processed else None))
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        return None, f"its marks cannot be read as pips ({first})"
    return material.model_dump(mode="json", exclude_defaults=True), ""


@dataclass(frozen=True)
class MaterialsOutcome:
    """What became of an import's custom materials."""

    added: tuple[str, ...] = ()
    already: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    """``"name: why"`` of each that could not be made a material."""
    pack: str = ""
    file: str | None = None


def _web_entry(m: fmt.WebMaterial) -> dict[str, Any]:
    return {"name": m.name, "cat": m.category or "unknown", "processed": m.processed or None,
            "image": m.image or None, "marks": list(m.marks) if m.marks else None,
            "notes": m.notes or None}


def _link(entry: dict[str, Any], material_id: str, kept: Sequence[dict[str, Any]]) -> None:
    """The side file keeps, of a material now in the pack, what the pack has no field
    for; and of its processed form, which token it is the processed side of."""
    processed = entry.get("processed")
    rest = {"name": entry["name"], "material": material_id, "processed": processed,
            "image": entry.get("image"), "notes": entry.get("notes")}
    entry.clear()
    entry.update(rest)
    for other in kept:
        if processed and other is not entry and not _in_pack(other) and \
                str(other["name"]).casefold() == str(processed).casefold():
            side = {"name": other["name"], "side_of": material_id,
                    "image": other.get("image"), "notes": other.get("notes")}
            other.clear()
            other.update(side)


def add_custom_materials(campaign: Campaign, session: Session,
                         materials: Iterable[fmt.WebMaterial]) -> MaterialsOutcome:
    """Write the web journal's custom materials into the campaign's own pack (created on
    first use, extending the campaign's pack), skipping those the content already has
    (by id or name); reload the content and record the pack versions in ``session``.

    A material the pack schema refuses (no category, unreadable marks) is kept whole in
    the side file, and the outcome says why. Pack cards are files of the user's, not
    rows of the campaign: undoing the import does not remove them.
    """
    from companion.content import user_pack as packs
    from companion.content.errors import ContentError
    from companion.operations.cards import _load, _record_packs

    base = _pack_id(campaign, session)
    kept = read_custom_materials(base)
    names = {m["name"].casefold() for m in kept}
    this_import = set()
    for m in materials:
        this_import.add(m.name.casefold())
        if m.name.casefold() not in names:
            names.add(m.name.casefold())
            kept.append(_web_entry(m))
    sides = {str(m["processed"]).casefold() for m in kept if m.get("processed")}
    content = campaign.content.materials
    ids = set(content)
    have = {m.name.casefold() for m in content.values()}
    added: list[str] = []
    already: list[str] = []
    waiting: list[str] = []
    own = None
    for entry in kept:  # entries kept by an earlier import are tried again
        name = str(entry["name"])
        mine = name.casefold() in this_import
        if _in_pack(entry) or name.casefold() in sides:
            continue
        material, why = pack_material(entry, kept)
        if material is None:
            if mine:
                waiting.append(f"{name}: {why}")
            continue
        if material["id"] in ids or name.casefold() in have:
            if mine:
                already.append(name)
            continue
        try:
            own = own or packs.own_pack_for(campaign.content.packs)
            packs.add_card(own.folder, "materials", material,
                           extra_dirs=campaign.extra_content)
        except ContentError as exc:
            waiting.append(f"{name}: your own pack refused it ("
                           + "; ".join(i.message for i in exc.issues) + ")")
            continue
        except OSError as exc:
            waiting.append(f"{name}: it could not be written into your own pack ({exc})")
            continue
        ids.add(material["id"])
        added.append(name)
        _link(entry, str(material["id"]), kept)
    file = _write_side_file(base, kept)
    if own is not None and added:
        campaign.content = _load(campaign, own.manifest.id)
        _record_packs(session, campaign.content)
    return MaterialsOutcome(tuple(added), tuple(already), tuple(waiting),
                            own.manifest.name if own is not None else "", str(file))


def _write_side_file(pack_id: str, kept: Sequence[dict[str, Any]]) -> Path:
    file = materials_file(pack_id)
    file.parent.mkdir(parents=True, exist_ok=True)
    header = ("# Materials the group added in the web Campaign Journal, for the user pack "
              f"extending '{pack_id}'.\n# Those with 'material' (or 'side_of', a processed "
              "form) are in that pack (Content > My Cards);\n# kept here is only what the "
              "pack has no field for. Others are the web app's entries as it wrote them.\n")
    file.write_text(header + yaml.safe_dump(
        {"pack": f"{pack_id}-mine", "extends": pack_id, "web_journal": list(kept)},
        sort_keys=False, allow_unicode=True), encoding="utf-8")
    return file


# --- export -------------------------------------------------------------------------------


def export_document(campaign: Campaign) -> dict[str, Any]:
    """The campaign as the web app's version 3 file (crafting discoveries and journal)."""
    with campaign.file.read() as session:
        row = session.get(models.Campaign, 1)
        codes = session.exec(select(models.CodeRecord).order_by(
            col(models.CodeRecord.id))).all()
        recipes = _export_recipes(campaign, [c for c in codes if c.status == "recipe"])
        null_codes = {_key(c.code): _null_json(c) for c in codes if c.status == "null"}
        provisional = {_key(c.code): _provisional_json(c) for c in codes
                       if c.status == "provisional"}
        culture: dict[str, Any] = {"tribeName": row.society_name if row else "",
                                   "structures": [], "mantlePowers": [],
                                   "knowledgeCards": [], "taboos": [], "pigments": []}
        by_list = {v: k for k, v in CULTURE_KINDS.items()}
        pages = session.exec(select(models.NotePage).order_by(
            col(models.NotePage.position), col(models.NotePage.id))).all()
        notes = []
        cave_wall: list[dict[str, Any]] = []
        restored = {KEPT_PREFIX + MANTLE_POWERS: ("mantle", culture["mantlePowers"]),
                    KEPT_PREFIX + CAVE_WALL: ("cave", cave_wall)}
        for page in pages:
            if page.title.startswith(CULTURE_PREFIX):
                kind = by_list.get(page.title[len(CULTURE_PREFIX):])
                if kind:
                    culture[kind].append({"id": f"sc-culture-{page.id}",
                                          **parse_culture_text(kind, page.text)})
            elif page.title in restored and _json_list(page.text):
                # Version 3's mantle powers and cave wall drawings have no home here:
                # kept as notes, they go back to their place (with ids to merge by).
                word, target = restored[page.title]
                target.extend({"id": f"sc-{word}-{page.id}-{n}", **entry}
                              for n, entry in enumerate(_json_list(page.text)))
            else:
                notes.append({"id": f"sc-note-{page.id}", "title": page.title,
                              "body": page.text})
        tiles = {h.id: h.tile_id or "" for h in session.exec(select(models.ValleyHex)).all()}
        behemoths = [_behemoth_json(campaign, b, tiles)
                     for b in session.exec(select(models.BehemothState).order_by(
                         col(models.BehemothState.id))).all()]
        challenges = [{
            "id": f"sc-challenge-{c.id}", "epoch": str(c.epoch),
            "name": c.name or _content_name(campaign.content.challenges, c.challenge_id),
            "cardId": c.challenge_id, "outcome": c.outcome_entry or "", "notes": c.notes}
            for c in session.exec(select(models.ChallengeLogEntry).order_by(
                col(models.ChallengeLogEntry.epoch), col(models.ChallengeLogEntry.id))).all()]
        looming = [_looming_json(campaign, e, i) for i, e in enumerate(
            session.exec(select(models.LoomingChallenge).order_by(
                col(models.LoomingChallenge.position), col(models.LoomingChallenge.id))).all())]
        investigations = [{"id": f"sc-omen-{i.id}", "omen": i.omen_id, "cardId": i.component_id,
                           "notes": i.note}
                          for i in session.exec(select(models.OmenInvestigation).order_by(
                              col(models.OmenInvestigation.id))).all()]
    materials = [_material_json(m, campaign.content.materials)
                 for m in read_custom_materials(_pack_id(campaign))]
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"app": fmt.WRITTEN_APP, "version": fmt.WRITTEN_VERSION,
            "exportedAt": now, "lastUpdated": now,
            "recipes": recipes, "nullCodes": null_codes, "customMaterials": materials,
            "culture": culture, "behemoths": behemoths, "challengeRecord": challenges,
            "loomingChallenges": looming, "investigations": investigations,
            "notePages": notes, "provisionalCodes": provisional,
            **({"caveWall": cave_wall} if cave_wall else {}), "driveFileId": None}


MANTLE_POWERS = fmt._words("mantlePowers")
"""The kept note's name for version 3's mantle powers (``culture.mantlePowers``)."""
CAVE_WALL = fmt._words("caveWall")
"""The kept note's name for the later version 3's cave wall drawings (``caveWall``)."""


def _json_list(text: str) -> list[dict[str, Any]]:
    """The entries of a kept note holding a web list as JSON ([] when it is not one)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return []
    return value


def _behemoth_json(campaign: Campaign, b: models.BehemothState,
                   tiles: Mapping[int | None, str]
                   ) -> dict[str, Any]:
    """A behemoth as version 3 writes it: secrets as text, the demeanor in words when
    the group wrote words (the dial's number otherwise)."""
    words, notes = split_line(DEMEANOR_LINE, b.note)
    return {"id": f"sc-behemoth-{b.id}", "cardId": b.behemoth_id,
            "name": b.name or _content_name(campaign.content.behemoths, b.behemoth_id),
            "lairHex": b.lair_hex or tiles.get(b.lair_hex_id, ""),
            "demeanor": b.demeanor if b.demeanor is not None else words,
            "secrets": [secret_text(s) for s in b.secrets], "notes": notes}


def _looming_json(campaign: Campaign, e: models.LoomingChallenge, order: int
                  ) -> dict[str, Any]:
    words, notes = split_line(PREPARE_LINE, e.note)
    return {"id": f"sc-looming-{e.id}",
            "name": e.name or _content_name(campaign.content.challenges, e.challenge_id),
            "cardId": e.challenge_id,
            "prepareBy": words if e.prepare_by is None else str(e.prepare_by),
            "notes": notes, "order": order}


def _content_name(cards: Mapping[str, Any], card_id: str | None) -> str:
    card = cards.get(card_id or "")
    return str(getattr(card, "name", "")) if card is not None else ""


def _key(text: str) -> str:
    code = web_code(text)
    return f"{code['color']} {code['digits']}"


def _web_pair(pair: Mapping[str, Any]) -> dict[str, Any]:
    out = {"mat1Name": pair.get("left", ""), "mat1Cat": pair.get("left_category", ""),
           "mat2Name": pair.get("right", ""), "mat2Cat": pair.get("right_category", "")}
    if pair.get("inferred"):
        out["inferred"] = True
    return out


def _export_recipes(campaign: Campaign, records: Sequence[models.CodeRecord]
                    ) -> list[dict[str, Any]]:
    items_by_name = {_fold(i.name): i.id for i in campaign.content.items.values()} \
        if hasattr(campaign.content, "items") else {}
    recipes: dict[str, dict[str, Any]] = {}
    for record in records:
        data = record.data or {}
        item_id = str(data.get("item_id") or items_by_name.get(_fold(record.name), "")
                      or f"sc-{record.code}")
        recipe = recipes.get(item_id)
        if recipe is None:
            pairs = [p for p in data.get("materials", []) if isinstance(p, dict)]
            first = _web_pair(pairs[0]) if pairs else {"mat1Name": "", "mat1Cat": "",
                                                       "mat2Name": "", "mat2Cat": ""}
            recipe = {"id": item_id, "name": record.name, "codes": [], **first,
                      "altPairs": [_web_pair(p) for p in pairs[1:]],
                      "notes": str(data.get("notes", "")), **dict(data.get("web", {}))}
            recipes[item_id] = recipe
        recipe["codes"].append(web_code(record.code))
    return list(recipes.values())


def _null_json(record: models.CodeRecord) -> dict[str, Any]:
    pairs = [p for p in (record.data or {}).get("materials", []) if isinstance(p, dict)]
    return {"mat1": pairs[0].get("left", ""), "mat2": pairs[0].get("right", "")} if pairs \
        else {}


def _provisional_json(record: models.CodeRecord) -> dict[str, Any]:
    data = record.data or {}
    return {"cardId": data.get("card_id") or None, "name": record.name or None,
            "isNothing": bool(data.get("dead_end")), "flavor": data.get("flavor", ""),
            "gameText": data.get("game_text", ""), "source": data.get("source", ""),
            "revealed": bool(data.get("revealed"))}


def _material_json(m: Mapping[str, Any], materials: Mapping[str, Any]) -> dict[str, Any]:
    """A kept custom material as the web app writes it; one in the user's pack takes its
    category and pips from the pack (as My Cards may have changed them)."""
    if not _in_pack(m):
        return {"name": m["name"], "cat": m.get("cat") or "unknown",
                "processed": m.get("processed"), "image": m.get("image"),
                "marks": m.get("marks"), "notes": m.get("notes")}
    token = materials.get(str(m.get("material") or m.get("side_of")))
    side = None if token is None else (token.processed if m.get("side_of") else
                                       token.unprocessed)
    marks = None
    if side is not None and any(side.pip(e) for e in Edge):
        marks = [_mark(side.pip(Edge(e))) for e in ("left", "right", "top", "bottom")]
    cat = "unknown" if token is None else str(token.category.value)
    return {"name": m["name"], "cat": "plant" if cat == "vegetable" else cat,
            "processed": m.get("processed"), "image": m.get("image"), "marks": marks,
            "notes": m.get("notes")}


def _mark(pip: Any) -> str | None:
    """A pip as the web app writes a mark: "Green 2"."""
    return None if pip is None else f"{str(pip.colour.value).title()} {pip.count}"


def export_web_journal(campaign: Campaign, dest: Path) -> dict[str, int]:
    """Write the campaign as a web-journal version 3 file; returns counts per section."""
    document = export_document(campaign)
    try:
        Path(dest).write_text(json.dumps(document, ensure_ascii=False, indent=2),
                              encoding="utf-8")
    except OSError as exc:
        raise Refused(f"Could not write {dest}: {exc.strerror or exc}") from None
    culture = document["culture"]
    return {"recipes": len(document["recipes"]), "null codes": len(document["nullCodes"]),
            "unverified codes": len(document["provisionalCodes"]),
            "custom materials": len(document["customMaterials"]),
            "culture entries": sum(len(culture[k]) for k in CULTURE_KINDS),
            "behemoths": len(document["behemoths"]),
            "challenges": len(document["challengeRecord"]),
            "looming challenges": len(document["loomingChallenges"]),
            "investigations": len(document["investigations"]),
            "note pages": len(document["notePages"])}
