"""The journal's sections (Rulebook: Using the Journal; Continuing Play): what each one
holds, the operations that write them, and one search over everything.

Sections and their rows:

- **Challenge Log**: ``challenge_log_entry`` (per epoch: challenge, characters, the
  outcome entry read at the end);
- **Culture**: the society's lore, ``culture_ability`` and ``mantle_power`` rows, and
  three free lists. The free lists are ``note_page`` rows whose ``title`` is
  ``"culture:<list>"`` (``culture:taboos``, ``culture:pigments``, ``culture:knowledge``),
  one entry per row, ``text`` the entry and ``position`` its order. They are *not*
  ``culture_ability`` rows: the rules read every culture ability as one the society has;
- **Outposts**: ``outpost`` + ``outpost_structure``;
- **Valley Map**: the journal grid of hex IDs (``rules.exploration.journal_grid``);
- **Behemoths**: ``behemoth_state``;
- **Decks**: ``deck_change`` (persistent additions and removals);
- **Primal Cave Wall**: ``cave_wall_illustration`` (a PNG and its marks);
- **Legends**: ``legend`` (``succeeded_by_id`` makes the lineage);
- **Entries**: free-text journal events (kind ``journal.entry``/``note``) with author;
- **History**: every other journal event.

Every write is one ``Campaign.write`` (one transaction, one journal event), so undo
reverts it like any operation.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, or_
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from companion.operations.changes import Changes, Refused
from companion.operations.core import Campaign
from companion.operations.webjournal_entries import CULTURE_PREFIX as CULTURE_PREFIX
from companion.operations.webjournal_entries import DEMEANOR_LINE as DEMEANOR_LINE
from companion.store import models

#: The Culture page's free lists: key -> title.
CULTURE_LISTS: dict[str, str] = {
    "structures": "Structures known",
    "taboos": "Taboos",
    "pigments": "Pigments",
    "knowledge": "Knowledge cards",
    "mantle_powers": "Mantle powers (the group's words)",
}
ENTRY_KINDS = ("journal.entry", "note")
"""Journal kinds that are free-text entries (the Entries section)."""
HISTORY_HIDDEN = ("undo", "redo", "save_point")

#: Searchable sections, in the book's order: key -> title.
SECTIONS: dict[str, str] = {
    "history": "History",
    "entries": "Entries",
    "challenges": "Challenge Log",
    "culture": "Culture",
    "outposts": "Outposts",
    "valley": "Valley Map",
    "behemoths": "Behemoths",
    "decks": "Decks",
    "cave_wall": "Primal Cave Wall",
    "legends": "Legends",
    "omens": "Omens investigated",
    "codes": "Crafting codes",
    "notes": "Note pages",
}

MAX_IMAGE_BYTES = 20 * 1024 * 1024
"""A cave-wall image file larger than this is refused before it is decoded."""
MAX_IMAGE_SIDE = 1024
"""Imported cave-wall images are scaled down to fit this many pixels a side."""


# --- what the sections show -------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeLine:
    """One challenge (one game) of the Challenge Log."""

    id: int
    epoch: int
    challenge_id: str
    challenge_name: str
    characters: tuple[str, ...]
    outcome_entry: str | None
    """The Codex outcome read at the end ("104"), if recorded."""
    finished: bool
    notes: str = ""
    goals_completed: str = ""
    """The goals the group completed in it, as written (the web journal's)."""

    @property
    def notes_shown(self) -> str:
        """The Notes column: the notes, then the goals completed."""
        goals = f"Goals completed: {self.goals_completed}" if self.goals_completed else ""
        return " ".join(x for x in (self.notes, goals) if x)


@dataclass(frozen=True)
class CultureEntry:
    """One line of the Culture page: an ability, a mantle power, or a free-list entry."""

    id: int
    kind: str
    """'ability', 'mantle_power', 'mantle_power_words' (the group's own words, no pack
    card), or a key of :data:`CULTURE_LISTS`."""
    text: str
    epoch: int | None = None


@dataclass(frozen=True)
class CulturePage:
    """The Culture page: lore, abilities, mantle powers and the free lists."""

    lore: int
    abilities: tuple[CultureEntry, ...]
    mantle_powers: tuple[CultureEntry, ...]
    lists: dict[str, tuple[CultureEntry, ...]]
    """Free lists by key (every key of :data:`CULTURE_LISTS`, possibly empty)."""


@dataclass(frozen=True)
class OutpostLine:
    """An outpost (or ruin) and its structures."""

    id: int
    name: str
    category: str
    status: str
    epoch_built: int
    overlay_id: str | None
    hex_id: str | None
    """The tile the outpost stands on."""
    structures: tuple[str, ...]
    materials: tuple[str, ...]


@dataclass(frozen=True)
class BehemothLine:
    """What the society knows about a behemoth."""

    id: int
    behemoth_id: str
    name: str
    hex_id: str | None
    lair_hex_id: str | None
    habits_learned: tuple[str, ...]
    secret_learned: bool
    note: str
    lair_hex: str = ""
    """The lair as written in the journal ("VV02"), before or without a placed tile."""
    demeanor: int | None = None
    secrets: tuple[str, ...] = ()
    """Revealed secrets in reveal order, as "BT01 Soft Belly: description"."""
    demeanor_words: str = ""
    """A demeanor the group wrote in words ("Restless": the web journal's), kept in the
    notes' first line "Demeanor: Restless" when the dial is not set."""

    lair_overlay: str = ""
    lair_zone: str = ""

    @property
    def lair_shown(self) -> str:
        """The Lair column: the tile placed (else the hex written), with the overlay
        tile and its zone when known ("VV02, overlay OG03 zone B")."""
        where = self.lair_hex_id or self.lair_hex or "—"
        overlay = " ".join(x for x in (f"overlay {self.lair_overlay}" if self.lair_overlay
                                       else "", f"zone {self.lair_zone}" if self.lair_zone
                                       else "") if x)
        return f"{where}, {overlay}" if overlay else where

    @property
    def demeanor_shown(self) -> str:
        """The Demeanor column: the dial, else the group's words, else "—"."""
        return str(self.demeanor) if self.demeanor is not None else \
            self.demeanor_words or "—"


@dataclass(frozen=True)
class NoteLine:
    """A page of free notes (the web Campaign Journal's note pages, and anything an
    import kept with its original text)."""

    id: int
    title: str
    text: str


@dataclass(frozen=True)
class DeckChangeLine:
    """A persistent change to a deck."""

    id: int
    deck: str
    card_id: str
    change: str
    note: str
    epoch: int


@dataclass(frozen=True)
class CaveWallLine:
    """An illustration of the Primal Cave Wall (the image is fetched separately)."""

    id: int
    title: str
    marks: tuple[str, ...]
    note: str
    epoch: int
    has_image: bool


@dataclass(frozen=True)
class LegendLine:
    """A legend and who followed them."""

    id: int
    name: str
    epoch: int
    character_id: int | None
    succeeded_by: str | None
    """The character who succeeded the legend, by name."""
    succeeded_by_id: int | None
    assigned_to: str | None
    marks: tuple[str, ...]
    traits: tuple[str, ...]


@dataclass(frozen=True)
class EntryLine:
    """A free-text journal entry."""

    id: int
    when: str
    author: str
    text: str
    undone: bool


@dataclass(frozen=True)
class SearchHit:
    """One thing the journal search found."""

    section: str
    """A key of :data:`SECTIONS`."""
    row_id: int
    title: str
    text: str
    epoch: int | None = None
    challenge_id: str | None = None
    when: str | None = None

    @property
    def section_title(self) -> str:
        return SECTIONS.get(self.section, self.section)


# --- reading the sections ---------------------------------------------------------------


def _name(mapping: Any, key: str | None) -> str:
    if not key:
        return ""
    item = mapping.get(key) if mapping is not None else None
    return str(getattr(item, "name", key)) if item is not None else key


def _tiles(session: Session) -> dict[int, str]:
    return {h.id or 0: h.tile_id or "?" for h in session.exec(select(models.ValleyHex)).all()}


def challenge_log(campaign: Campaign) -> list[ChallengeLine]:
    """The Challenge Log, oldest first (grouped by epoch by the caller)."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.ChallengeLogEntry).order_by(
            col(models.ChallengeLogEntry.epoch), col(models.ChallengeLogEntry.id))).all()
        return [ChallengeLine(
            id=r.id or 0, epoch=r.epoch, challenge_id=r.challenge_id,
            challenge_name=_name(campaign.content.challenges, r.challenge_id)
            if r.challenge_id in campaign.content.challenges or not r.name else r.name,
            characters=tuple(r.characters), outcome_entry=r.outcome_entry,
            finished=r.finished, notes=r.notes, goals_completed=r.goals_completed)
            for r in rows]


def culture(campaign: Campaign) -> CulturePage:
    """The Culture page."""
    with campaign.file.read() as session:
        society = session.get(models.Society, 1) or models.Society()
        abilities = tuple(
            CultureEntry(r.id or 0, "ability", r.name + (f": {r.text}" if r.text else ""),
                         r.epoch)
            for r in session.exec(select(models.CultureAbility).order_by(
                col(models.CultureAbility.id))).all())
        powers = []
        for r in session.exec(select(models.MantlePower).order_by(
                col(models.MantlePower.id))).all():
            card = campaign.content.mantle_powers.get(r.power_id)
            mantle = _name(campaign.content.mantles, r.mantle or (card.mantle if card else ""))
            name = card.name if card else r.power_id
            powers.append(CultureEntry(r.id or 0, "mantle_power",
                                       f"{name} ({mantle})" if mantle else name, r.epoch))
        powers += [CultureEntry(page_id, "mantle_power_words", text)
                   for page_id, text in _web_mantle_powers(session)]
        lists: dict[str, list[CultureEntry]] = {key: [] for key in CULTURE_LISTS}
        for page in session.exec(select(models.NotePage).where(
                col(models.NotePage.title).startswith(CULTURE_PREFIX)).order_by(
                col(models.NotePage.position), col(models.NotePage.id))).all():
            key = page.title[len(CULTURE_PREFIX):]
            if key in lists:
                lists[key].append(CultureEntry(page.id or 0, key, page.text))
        return CulturePage(lore=society.lore, abilities=abilities, mantle_powers=tuple(powers),
                           lists={k: tuple(v) for k, v in lists.items()})


WEB_WORDS = " (the group's words, from the web journal)"
"""Marks a mantle power the group wrote in the web journal: no pack card stands behind
it, so the rules never read it."""
KEPT_MANTLE_POWERS = "From the web journal: Mantle powers"
"""The note an import before schema 3 kept the web journal's mantle powers in (they now
go to the Culture page's list "mantle_powers", one line each)."""


def _web_mantle_powers(session: Session, pattern: str | None = None
                       ) -> list[tuple[int, str]]:
    """(note page id, "Name: description (the group's words ...)") of each mantle power
    the web journal's file had, kept as a note page by its import (a mantle power row
    needs the pack's id, which the web journal does not record)."""
    import json

    statement = select(models.NotePage).where(models.NotePage.title == KEPT_MANTLE_POWERS)
    if pattern is not None:
        statement = statement.where(_matches(pattern, models.NotePage.text))
    found = []
    for page in session.exec(statement.order_by(col(models.NotePage.id))).all():
        try:
            entries = json.loads(page.text)
        except ValueError:
            continue
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            name = str(entry.get("name") or "").strip()
            description = str(entry.get("description") or "").strip()
            text = f"{name}: {description}" if name and description else name or description
            if text:
                found.append((page.id or 0, text + WEB_WORDS))
    return found


def outposts(campaign: Campaign) -> list[OutpostLine]:
    """Every outpost and ruin, with its structures."""
    with campaign.file.read() as session:
        tiles = _tiles(session)
        structures: dict[int, list[str]] = {}
        for s in session.exec(select(models.OutpostStructure).order_by(
                col(models.OutpostStructure.id))).all():
            structures.setdefault(s.outpost_id, []).append(
                _name(campaign.content.structures, s.structure_id))
        return [OutpostLine(
            id=r.id or 0, name=r.name, category=r.category, status=r.status,
            epoch_built=r.epoch_built, overlay_id=r.overlay_id,
            hex_id=tiles.get(r.hex_id) if r.hex_id else None,
            structures=tuple(structures.get(r.id or 0, ())), materials=tuple(r.materials))
            for r in session.exec(select(models.Outpost).order_by(col(models.Outpost.id))).all()]


def valley_map(campaign: Campaign) -> list[list[str | None]]:
    """The Valley Map as the journal's hex grid: rows of tile IDs (None: no hex; "?": a
    face-down hex, not yet explored)."""
    from companion.operations.valley import load_valley
    from companion.rules.exploration import journal_grid

    with campaign.file.read() as session:
        valley = load_valley(session)
    # A face-down hex is in the grid as "?": its ID is read only when it is explored.
    known = {valley.tiles[cell] for cell in valley.explored if cell in valley.tiles}
    return [[(str(t) if t in known else "?") if t else None for t in row]
            for row in journal_grid(valley)]


def behemoths(campaign: Campaign) -> list[BehemothLine]:
    """What the society knows about each behemoth it has met."""
    with campaign.file.read() as session:
        tiles = _tiles(session)
        lines = []
        for r in session.exec(select(models.BehemothState).order_by(
                col(models.BehemothState.id))).all():
            words, note = _demeanor_words(r)
            lines.append(BehemothLine(
                id=r.id or 0, behemoth_id=r.behemoth_id,
                name=r.name or _name(campaign.content.behemoths, r.behemoth_id),
                hex_id=tiles.get(r.hex_id) if r.hex_id else None,
                lair_hex_id=tiles.get(r.lair_hex_id) if r.lair_hex_id else None,
                habits_learned=tuple(r.habits_learned), secret_learned=r.secret_learned,
                note=note, lair_hex=r.lair_hex, demeanor=r.demeanor,
                secrets=tuple(_secret_text(x) for x in r.secrets), demeanor_words=words,
                lair_overlay=r.lair_overlay, lair_zone=r.lair_zone))
        return lines




def _demeanor_words(r: models.BehemothState) -> tuple[str, str]:
    """(the demeanor in words, the rest of the notes) when the dial is not set and the
    notes open with "Demeanor: ..."; ("", the notes) otherwise."""
    if r.demeanor is not None or not r.note.startswith(DEMEANOR_LINE):
        return "", r.note
    first, _, rest = r.note.partition("\n")
    return first[len(DEMEANOR_LINE):].strip(), rest


def _secret_text(secret: dict[str, str]) -> str:
    head = " ".join(x for x in (secret.get("card_id", ""), secret.get("name", "")) if x)
    description = secret.get("description", "")
    return f"{head}: {description}" if head and description else head or description


def note_pages(campaign: Campaign) -> list[NoteLine]:
    """The journal's note pages, in order (the Culture page's lists are not among them)."""
    with campaign.file.read() as session:
        return [NoteLine(r.id or 0, r.title, r.text) for r in session.exec(
            select(models.NotePage).where(~col(models.NotePage.title).startswith(
                CULTURE_PREFIX)).order_by(col(models.NotePage.position),
                                         col(models.NotePage.id))).all()]


def deck_changes(campaign: Campaign) -> list[DeckChangeLine]:
    """The Decks section: persistent deck changes, by deck then in order."""
    with campaign.file.read() as session:
        return [DeckChangeLine(r.id or 0, r.deck, r.card_id, r.change, r.note, r.epoch)
                for r in session.exec(select(models.DeckChange).order_by(
                    col(models.DeckChange.deck), col(models.DeckChange.id))).all()]


def cave_wall(campaign: Campaign, *, mark: str | None = None) -> list[CaveWallLine]:
    """The Primal Cave Wall's illustrations, oldest first; ``mark`` keeps only those
    drawn with that mark (case-insensitive)."""
    with campaign.file.read() as session:
        t = models.CaveWallIllustration
        statement = select_columns(  # type: ignore[call-overload]
            t.id, t.title, t.marks, t.note, t.epoch, col(t.image).is_not(None)
        ).order_by(col(t.id))
        rows = session.execute(statement).all()  # never loads the images themselves
    lines = [CaveWallLine(int(r[0] or 0), r[1], tuple(r[2] or ()), r[3], r[4], bool(r[5]))
             for r in rows]
    if mark:
        wanted = mark.strip().casefold()
        lines = [line for line in lines if any(m.casefold() == wanted for m in line.marks)]
    return lines


def cave_wall_image(campaign: Campaign, illustration_id: int) -> bytes | None:
    """An illustration's PNG bytes, or None."""
    with campaign.file.read() as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        return bytes(row.image) if row is not None and row.image else None


def legends(campaign: Campaign) -> list[LegendLine]:
    """Every legend, oldest first."""
    with campaign.file.read() as session:
        names = {c.id: c.name for c in session.exec(select(models.Character)).all()}
        return [LegendLine(
            id=r.id or 0, name=r.name, epoch=r.epoch, character_id=r.character_id,
            succeeded_by=names.get(r.succeeded_by_id) if r.succeeded_by_id else None,
            succeeded_by_id=r.succeeded_by_id,
            assigned_to=names.get(r.assigned_to_id) if r.assigned_to_id else None,
            marks=tuple(r.marks), traits=tuple(r.traits))
            for r in session.exec(select(models.Legend).order_by(col(models.Legend.id))).all()]


def lineages(lines: Sequence[LegendLine]) -> list[list[str]]:
    """Legends as lineages across generations: each a list of names, first ancestor
    first, ending with the living successor (if any).

    A legend whose successor later became a legend continues into that legend's line.
    """
    by_character = {line.character_id: line for line in lines if line.character_id}
    successors = {line.succeeded_by_id for line in lines if line.succeeded_by_id}
    chains = []
    for line in lines:
        if line.character_id in successors:
            continue  # not a first ancestor
        chain, current, seen = [line.name], line, {line.id}
        while current.succeeded_by_id is not None:
            following = by_character.get(current.succeeded_by_id)
            if following is None or following.id in seen:
                chain.append(current.succeeded_by or f"#{current.succeeded_by_id}")
                break
            chain.append(following.name)
            seen.add(following.id)
            current = following
        chains.append(chain)
    return chains


def entries(campaign: Campaign, *, limit: int = 500) -> list[EntryLine]:
    """Free-text entries, newest first."""
    return [EntryLine(e.id or 0, e.time.strftime("%Y-%m-%d %H:%M"), e.author or "", e.text,
                      e.undone)
            for e in campaign.file.journal(limit=limit, kinds=ENTRY_KINDS)]


def history(campaign: Campaign, *, limit: int | None = None) -> list[EntryLine]:
    """Every journal event except undo/redo records, oldest first (for exports)."""
    with campaign.file.read() as session:
        statement = select(models.JournalEvent).where(
            col(models.JournalEvent.kind).not_in(HISTORY_HIDDEN)).order_by(
            col(models.JournalEvent.id).desc())
        if limit is not None:
            statement = statement.limit(limit)
        rows = session.exec(statement).all()
    return [EntryLine(e.id or 0, e.time.strftime("%Y-%m-%d %H:%M"), e.author or "", e.text,
                      e.undone) for e in reversed(rows)]


def omen_investigations(campaign: Campaign) -> list[tuple[int, str, str, str]]:
    """(epoch, omen, component ID, note) of every omen investigated, oldest first."""
    with campaign.file.read() as session:
        return [(r.epoch, r.omen_id, r.component_id, r.note) for r in session.exec(
            select(models.OmenInvestigation).order_by(col(models.OmenInvestigation.id))).all()]


def codex_entries_read(campaign: Campaign) -> list[tuple[str, str, str, str]]:
    """(entry, title, source, notes) of every Codex entry the group has read, by entry
    number (Using the Codex). Spoiler-safe: the entry's own text is never kept."""
    with campaign.file.read() as session:
        rows = session.exec(select(models.CodexEntryRead)).all()

    def number(entry: str) -> tuple[int, str]:
        digits = entry.strip()
        return (int(digits), "") if digits.isdigit() else (1 << 30, digits)
    return [(r.entry, r.title, " ".join(x for x in (r.source_category, r.source_id) if x),
             r.notes) for r in sorted(rows, key=lambda r: (number(r.entry), r.id or 0))]


def cave_wall_strokes(campaign: Campaign, illustration_id: int) -> list[dict[str, Any]]:
    """A drawing's pen strokes (``[{"c", "w", "pts"}]`` in a 1000 x 1000 space)."""
    with campaign.file.read() as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        return list(row.strokes) if row is not None else []


def crafting_codes(campaign: Campaign) -> list[tuple[str, str, str]]:
    """(code, status, name) of every crafting code the society has found."""
    with campaign.file.read() as session:
        return [(r.code, r.status, r.name) for r in session.exec(
            select(models.CodeRecord).order_by(col(models.CodeRecord.id))).all()]


def _epoch(session: Session) -> int:
    row = session.get(models.Campaign, 1)
    return row.epoch if row is not None else 1


# --- writing: challenge log ---------------------------------------------------------------


def record_outcome(campaign: Campaign, *, entry_id: int, outcome: str | None) -> Changes:
    """Record the Codex outcome entry a challenge ended with (Using the Journal: "record
    the entry number for the outcome"), or clear it with ``None``/``""``."""
    value = (outcome or "").strip() or None
    if value is not None:
        digits = value.removeprefix("entry").strip()
        if not re.fullmatch(r"\d{1,3}", digits):
            raise Refused(f"An outcome entry is a three-digit number, like 104; not {value!r}.")
        value = f"{int(digits):03d}"
    with campaign.write("journal.challenge_log", "Challenge Log") as session:
        row = session.get(models.ChallengeLogEntry, entry_id)
        if row is None:
            raise Refused(f"There is no challenge {entry_id} in the Challenge Log.")
        name = _name(campaign.content.challenges, row.challenge_id)
        row.outcome_entry = value
        session.info["journal_text"] = (
            f"Challenge Log: '{name}' ended with entry {value}" if value
            else f"Challenge Log: outcome of '{name}' cleared")
        text = session.info["journal_text"]
    return Changes(summary=text, challenge=True)


def set_challenge_characters(campaign: Campaign, *, entry_id: int,
                             characters: Iterable[str]) -> Changes:
    """Record the names of the characters used in a challenge (Using the Journal)."""
    names = [n.strip() for n in characters if n.strip()]
    with campaign.write("journal.challenge_log", "Challenge Log") as session:
        row = session.get(models.ChallengeLogEntry, entry_id)
        if row is None:
            raise Refused(f"There is no challenge {entry_id} in the Challenge Log.")
        row.characters = names
        text = (f"Challenge Log: '{_name(campaign.content.challenges, row.challenge_id)}' "
                f"played by {', '.join(names) or 'nobody recorded'}")
        session.info["journal_text"] = text
    return Changes(summary=text, challenge=True)


# --- writing: culture lists ---------------------------------------------------------------


def _culture_list(key: str) -> str:
    if key not in CULTURE_LISTS:
        raise Refused(f"The Culture page has no list '{key}': choose "
                      f"{', '.join(CULTURE_LISTS)}.")
    return CULTURE_LISTS[key]


def add_culture_entry(campaign: Campaign, *, category: str, text: str) -> Changes:
    """Add a taboo, a pigment or a knowledge card to the Culture page."""
    title = _culture_list(category)
    text = text.strip()
    if not text:
        raise Refused(f"An entry in {title} needs some text.")
    with campaign.write("journal.culture", f"Culture > {title}: {text}") as session:
        last = session.exec(select(models.NotePage.position).where(
            models.NotePage.title == CULTURE_PREFIX + category).order_by(
            col(models.NotePage.position).desc())).first()
        session.add(models.NotePage(title=CULTURE_PREFIX + category, text=text,
                                    position=(last or 0) + 1))
    return Changes(summary=f"Culture > {title}: {text}", society=True)


def _culture_row(session: Session, entry_id: int) -> models.NotePage:
    row = session.get(models.NotePage, entry_id)
    if row is None or not row.title.startswith(CULTURE_PREFIX):
        raise Refused(f"There is no Culture list entry {entry_id}.")
    return row


def edit_culture_entry(campaign: Campaign, *, entry_id: int, text: str) -> Changes:
    """Rewrite a Culture list entry."""
    text = text.strip()
    if not text:
        raise Refused("A Culture entry needs some text; remove it instead.")
    with campaign.write("journal.culture", "Culture entry changed") as session:
        row = _culture_row(session, entry_id)
        title = CULTURE_LISTS.get(row.title[len(CULTURE_PREFIX):], row.title)
        old, row.text = row.text, text
        summary = f"Culture > {title}: '{old}' is now '{text}'"
        session.info["journal_text"] = summary
    return Changes(summary=summary, society=True)


def remove_culture_entry(campaign: Campaign, *, entry_id: int) -> Changes:
    """Strike an entry from a Culture list."""
    with campaign.write("journal.culture", "Culture entry removed") as session:
        row = _culture_row(session, entry_id)
        title = CULTURE_LISTS.get(row.title[len(CULTURE_PREFIX):], row.title)
        summary = f"Culture > {title}: removed '{row.text}'"
        session.delete(row)
        session.info["journal_text"] = summary
    return Changes(summary=summary, society=True)


# --- writing: decks -------------------------------------------------------------------------


DECK_CHANGES = ("added", "removed", "replaced", "other")


def _check_deck_change(deck: str, card_id: str, change: str) -> tuple[str, str, str]:
    deck, card_id, change = deck.strip(), card_id.strip(), change.strip().lower()
    if not deck:
        raise Refused("Name the deck that changed (Encounter, Night ...).")
    if not card_id:
        raise Refused("A deck change needs the card's ID.")
    if change not in DECK_CHANGES:
        raise Refused(f"A deck change is one of {', '.join(DECK_CHANGES)}; not {change!r}.")
    return deck, card_id, change


def add_deck_change(campaign: Campaign, *, deck: str, card_id: str, change: str = "added",
                    note: str = "") -> Changes:
    """Record a persistent change to a deck (Continuing Play > Decks)."""
    deck, card_id, change = _check_deck_change(deck, card_id, change)
    summary = f"Decks: {card_id} {change} ({deck} deck)"
    with campaign.write("journal.deck", summary) as session:
        session.add(models.DeckChange(deck=deck, card_id=card_id, change=change,
                                      note=note.strip(), epoch=_epoch(session)))
    return Changes(summary=summary)


def edit_deck_change(campaign: Campaign, *, change_id: int, deck: str, card_id: str,
                     change: str, note: str = "") -> Changes:
    """Correct a recorded deck change."""
    deck, card_id, change = _check_deck_change(deck, card_id, change)
    summary = f"Decks: corrected to {card_id} {change} ({deck} deck)"
    with campaign.write("journal.deck", summary) as session:
        row = session.get(models.DeckChange, change_id)
        if row is None:
            raise Refused(f"There is no deck change {change_id}.")
        for name, value in (("deck", deck), ("card_id", card_id), ("change", change),
                            ("note", note.strip())):
            if getattr(row, name) != value:
                setattr(row, name, value)
    return Changes(summary=summary)


def remove_deck_change(campaign: Campaign, *, change_id: int) -> Changes:
    """Strike a deck change from the Decks section."""
    with campaign.write("journal.deck", "Deck change removed") as session:
        row = session.get(models.DeckChange, change_id)
        if row is None:
            raise Refused(f"There is no deck change {change_id}.")
        summary = f"Decks: struck out {row.card_id} {row.change} ({row.deck} deck)"
        session.delete(row)
        session.info["journal_text"] = summary
    return Changes(summary=summary)


# --- writing: the Primal Cave Wall -----------------------------------------------------------


def prepare_image(data: bytes, *, max_side: int = MAX_IMAGE_SIDE) -> bytes:
    """An image file (PNG, JPEG, ...) as PNG bytes no larger than ``max_side`` a side.

    Refuses files that are not images, too large, or decompression bombs.
    """
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_IMAGE_BYTES:
        raise Refused(f"That image is {len(data) // (1024 * 1024)} MB; "
                      f"the cave wall takes images up to {MAX_IMAGE_BYTES // (1024 * 1024)} MB.")
    try:
        with Image.open(io.BytesIO(data)) as opened:
            opened.load()
            image: Image.Image = opened
            if image.mode not in ("RGB", "RGBA", "L", "LA"):
                image = image.convert("RGBA")
            image.thumbnail((max_side, max_side))
            out = io.BytesIO()
            image.save(out, format="PNG", optimize=True)
    except Image.DecompressionBombError as exc:
        raise Refused(f"That image is too large to open safely: {exc}") from exc
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise Refused(f"That file is not an image the cave wall can take: {exc}") from exc
    return out.getvalue()


def _marks(marks: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for mark in marks:
        mark = mark.strip()
        if mark and mark.casefold() not in (m.casefold() for m in seen):
            seen.append(mark)
    return seen


def add_cave_wall_illustration(campaign: Campaign, *, title: str, marks: Iterable[str],
                               image: bytes | None = None, note: str = "") -> Changes:
    """Draw an illustration on the Primal Cave Wall with its marks (Continuing Play >
    The Primal Cave Wall). ``image`` is any image file's bytes (stored as PNG)."""
    title, mark_list = title.strip(), _marks(marks)
    if not title:
        raise Refused("An illustration needs a title (what it shows).")
    if not mark_list:
        raise Refused("An illustration of the cave wall carries at least one mark.")
    png = prepare_image(image) if image else None
    summary = f"Cave wall: '{title}' with {', '.join(mark_list)}"
    with campaign.write("journal.cave_wall", summary) as session:
        row = models.CaveWallIllustration(title=title, marks=mark_list, image=png,
                                          note=note.strip(), epoch=_epoch(session))
        session.add(row)
        session.flush()
        new_id = row.id
    return Changes(summary=summary, detail=new_id)


_KEEP: Any = object()


def edit_cave_wall_illustration(campaign: Campaign, *, illustration_id: int,
                                title: str | None = None, marks: Iterable[str] | None = None,
                                image: bytes | None = _KEEP, note: str | None = None
                                ) -> Changes:
    """Change an illustration's title, marks, note or image (``image=None`` erases it)."""
    png = _KEEP if image is _KEEP else (prepare_image(image) if image else None)
    with campaign.write("journal.cave_wall", "Cave wall illustration changed") as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        if row is None:
            raise Refused(f"There is no cave-wall illustration {illustration_id}.")
        if title is not None:
            if not title.strip():
                raise Refused("An illustration needs a title (what it shows).")
            if row.title != title.strip():
                row.title = title.strip()
        if marks is not None:
            mark_list = _marks(marks)
            if not mark_list:
                raise Refused("An illustration of the cave wall carries at least one mark.")
            if mark_list != list(row.marks):
                row.marks = mark_list
        if note is not None and row.note != note.strip():
            row.note = note.strip()
        if png is not _KEEP and row.image != png:
            row.image = png
        summary = f"Cave wall: '{row.title}' changed ({', '.join(row.marks)})"
        session.info["journal_text"] = summary
    return Changes(summary=summary)


def remove_cave_wall_illustration(campaign: Campaign, *, illustration_id: int) -> Changes:
    """Wipe an illustration from the cave wall (undo brings it back, image and all)."""
    with campaign.write("journal.cave_wall", "Cave wall illustration removed") as session:
        row = session.get(models.CaveWallIllustration, illustration_id)
        if row is None:
            raise Refused(f"There is no cave-wall illustration {illustration_id}.")
        summary = f"Cave wall: wiped '{row.title}'"
        session.delete(row)
        session.info["journal_text"] = summary
    return Changes(summary=summary)


# --- writing: free-text entries ----------------------------------------------------------------


def write_entry(campaign: Campaign, *, text: str, author: str | None = None) -> Changes:
    """A free-text entry with its time and author (the store stamps the time)."""
    from companion.operations.files import add_journal_entry

    return add_journal_entry(campaign, text=text, author=(author or "").strip() or None)


# --- search ---------------------------------------------------------------------------------------


def _like(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _matches(pattern: str, *columns: Any) -> Any:
    return or_(*(cast(c, String).like(pattern, escape="\\") for c in columns))


@dataclass(frozen=True)
class _ChallengeSpan:
    first_event: int
    challenge_id: str
    epoch: int


def _challenge_spans(session: Session) -> list[_ChallengeSpan]:
    """Where each challenge's events begin in the history (its 'challenge.start' event),
    read from the few start events through the (kind, id) index."""
    spans = []
    for event in session.exec(select(models.JournalEvent).where(
            models.JournalEvent.kind == "challenge.start",
            col(models.JournalEvent.undone).is_(False)).order_by(
            col(models.JournalEvent.id))).all():
        for change in event.changes:
            if change.get("table") == "challenge_log_entry" and change.get("after"):
                after = change["after"]
                spans.append(_ChallengeSpan(event.id or 0, str(after.get("challenge_id", "")),
                                            int(after.get("epoch", 1))))
                break
    return spans


def _event_ranges(spans: Sequence[_ChallengeSpan], *, epoch: int | None,
                  challenge: str | None) -> list[tuple[int, int | None]]:
    """Id ranges [first, next) of the events during the wanted challenges/epochs."""
    ranges: list[tuple[int, int | None]] = []
    bounds = [*spans]
    for number, span in enumerate(bounds):
        end = bounds[number + 1].first_event if number + 1 < len(bounds) else None
        if challenge is not None and span.challenge_id != challenge:
            continue
        if epoch is not None and span.epoch != epoch:
            continue
        ranges.append((span.first_event, end))
    if challenge is None and epoch == 1:
        # Before the first challenge: the founding of the society, in epoch 1.
        ranges.insert(0, (0, bounds[0].first_event if bounds else None))
    return ranges


def search(campaign: Campaign, query: str, *, sections: Iterable[str] | None = None,
           epoch: int | None = None, challenge: str | None = None,
           limit: int = 200) -> list[SearchHit]:
    """Everything in the journal that mentions ``query`` (text, marks, IDs), up to
    ``limit`` hits per section, sections in the book's order, newest first within one.

    ``sections`` limits the search to some keys of :data:`SECTIONS`; ``epoch`` to rows of
    that epoch (and history during it); ``challenge`` (a challenge ID) to the Challenge
    Log and the history during that challenge — sections with no challenge are left out.
    SQL ``LIKE`` (case-insensitive for ASCII) over indexed tables, with ``LIMIT``: the
    history is read newest first through its primary key, so 100,000 events stay quick.
    """
    query = query.strip()
    wanted = list(SECTIONS) if sections is None else [s for s in SECTIONS if s in set(sections)]
    unknown = set(sections or ()) - set(SECTIONS)
    if unknown:
        raise Refused(f"Unknown journal section {', '.join(sorted(unknown))}: choose from "
                      f"{', '.join(SECTIONS)}.")
    if not query:
        return []
    if challenge is not None:
        wanted = [s for s in wanted if s in ("challenges", "history", "entries")]
    pattern = _like(query)
    hits: list[SearchHit] = []
    with campaign.file.read() as session:
        for section in wanted:
            hits.extend(_SEARCHERS[section](campaign, session, pattern, epoch, challenge,
                                            limit))
    return hits


def _search_events(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                   challenge: str | None, limit: int, *, entries_only: bool) -> list[SearchHit]:
    event = models.JournalEvent
    statement = select(event).where(_matches(pattern, event.text, event.author))
    if entries_only:
        statement = statement.where(col(event.kind).in_(ENTRY_KINDS))
    else:
        statement = statement.where(col(event.kind).not_in((*ENTRY_KINDS, *HISTORY_HIDDEN)))
    if epoch is not None or challenge is not None:
        ranges = _event_ranges(_challenge_spans(session), epoch=epoch, challenge=challenge)
        if not ranges:
            return []
        statement = statement.where(or_(*(
            (col(event.id) >= first) & (col(event.id) < end) if end is not None
            else col(event.id) >= first for first, end in ranges)))
    rows = session.exec(statement.order_by(col(event.id).desc()).limit(limit)).all()
    section = "entries" if entries_only else "history"
    return [SearchHit(section, e.id or 0, (e.author or "Entry") if entries_only else
                      _kind_words(e.kind),
                      e.text + (" (undone)" if e.undone else ""),
                      when=e.time.strftime("%Y-%m-%d %H:%M")) for e in rows]


def _kind_words(kind: str) -> str:
    """A journal kind in words: 'journal.cave_wall' -> 'Cave wall'."""
    return kind.rpartition(".")[2].replace("_", " ").capitalize() or kind


def _search_history(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    return _search_events(campaign, session, pattern, epoch, challenge, limit,
                          entries_only=False)


def _search_entries(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    return _search_events(campaign, session, pattern, epoch, challenge, limit,
                          entries_only=True)


def _rows(session: Session, table: Any, pattern: str, columns: Sequence[Any],
          epoch_column: Any, epoch: int | None, limit: int) -> Sequence[Any]:
    statement = select(table).where(_matches(pattern, *columns))
    if epoch is not None:
        if epoch_column is None:
            return []
        statement = statement.where(epoch_column == epoch)
    return session.exec(statement.order_by(col(table.id).desc()).limit(limit)).all()


def _search_challenges(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                       challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.ChallengeLogEntry
    # The challenge's name lives in the content pack: match it there, then by ID.
    needle = (pattern[1:-1].replace("\\%", "%").replace("\\_", "_")
              .replace("\\\\", "\\").casefold())
    named = [c.id for c in campaign.content.challenges.values()
             if needle in c.name.casefold()]
    statement = select(t).where(or_(_matches(pattern, t.challenge_id, t.characters,
                                             t.outcome_entry, t.name, t.notes),
                                    col(t.challenge_id).in_(named)))
    if epoch is not None:
        statement = statement.where(t.epoch == epoch)
    if challenge is not None:
        statement = statement.where(t.challenge_id == challenge)
    rows = session.exec(statement.order_by(col(t.id).desc()).limit(limit)).all()
    return [SearchHit("challenges", r.id or 0,
                      _name(campaign.content.challenges, r.challenge_id),
                      f"Epoch {r.epoch}; characters: {', '.join(r.characters) or '—'}; "
                      f"outcome: {r.outcome_entry or '—'}", r.epoch, r.challenge_id)
            for r in rows]


def _search_culture(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    hits = [SearchHit("culture", r.id or 0, "Culture ability", r.name + (
        f": {r.text}" if r.text else ""), r.epoch)
        for r in _rows(session, models.CultureAbility, pattern,
                       (models.CultureAbility.name, models.CultureAbility.text,
                        models.CultureAbility.ability_id),
                       models.CultureAbility.epoch, epoch, limit)]
    hits += [SearchHit("culture", r.id or 0, "Mantle power",
                       _name(campaign.content.mantle_powers, r.power_id), r.epoch)
             for r in _rows(session, models.MantlePower, pattern,
                            (models.MantlePower.power_id, models.MantlePower.mantle),
                            models.MantlePower.epoch, epoch, limit)]
    if epoch is None:
        needle = (pattern[1:-1].replace("\\%", "%").replace("\\_", "_")
                  .replace("\\\\", "\\").casefold())
        hits += [SearchHit("culture", page_id, "Mantle power", text)
                 for page_id, text in _web_mantle_powers(session, pattern)
                 if needle in text.casefold()]
        page = models.NotePage
        statement = select(page).where(col(page.title).startswith(CULTURE_PREFIX),
                                       _matches(pattern, page.text))
        for r in session.exec(statement.order_by(col(page.id).desc()).limit(limit)).all():
            key = r.title[len(CULTURE_PREFIX):]
            hits.append(SearchHit("culture", r.id or 0, CULTURE_LISTS.get(key, key), r.text))
    return hits


def _search_outposts(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                     challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.Outpost
    hits = [SearchHit("outposts", r.id or 0, r.name or "Outpost",
                      f"{r.category} {r.status}, built in epoch {r.epoch_built}; overlay "
                      f"{r.overlay_id or '—'}", r.epoch_built)
            for r in _rows(session, t, pattern, (t.name, t.category, t.status, t.overlay_id,
                                                 t.materials), t.epoch_built, epoch, limit)]
    s = models.OutpostStructure
    if epoch is None:
        for r in _rows(session, s, pattern, (s.structure_id, s.materials), None, None, limit):
            hits.append(SearchHit("outposts", r.outpost_id, "Structure",
                                  _name(campaign.content.structures, r.structure_id)))
    return hits


def _search_valley(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                   challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    h, o = models.ValleyHex, models.Overlay
    hits = [SearchHit("valley", r.id or 0, f"Hex {r.tile_id}",
                      "explored" if r.explored else "not explored")
            for r in _rows(session, h, pattern, (h.tile_id,), None, None, limit)]
    tiles = _tiles(session)
    hits += [SearchHit("valley", r.id or 0, f"Overlay {r.overlay_id}",
                       f"{r.kind} on {tiles.get(r.hex_id, '?')}"
                       + (f" ({r.section})" if r.section else ""))
             for r in _rows(session, o, pattern, (o.overlay_id, o.kind), None, None, limit)]
    return hits


def _search_behemoths(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                      challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    t = models.BehemothState
    return [SearchHit("behemoths", r.id or 0, r.name or r.behemoth_id,
                      ", ".join(r.habits_learned) + (f" — {r.note}" if r.note else ""))
            for r in _rows(session, t, pattern, (t.behemoth_id, t.name, t.note,
                                                 t.habits_learned, t.lair_hex, t.secrets),
                           None, None, limit)]


def _search_notes(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    page = models.NotePage
    statement = select(page).where(~col(page.title).startswith(CULTURE_PREFIX),
                                   _matches(pattern, page.title, page.text))
    return [SearchHit("notes", r.id or 0, r.title or "Note page", r.text)
            for r in session.exec(statement.order_by(col(page.id).desc()).limit(limit)).all()]


def _search_decks(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.DeckChange
    return [SearchHit("decks", r.id or 0, f"{r.deck} deck",
                      f"{r.card_id} {r.change}" + (f" — {r.note}" if r.note else ""), r.epoch)
            for r in _rows(session, t, pattern, (t.deck, t.card_id, t.change, t.note),
                           t.epoch, epoch, limit)]


def _search_cave_wall(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                      challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.CaveWallIllustration
    statement = select_columns(t.id, t.title, t.marks, t.note, t.epoch).where(  # type: ignore[call-overload]
        _matches(pattern, t.title, t.marks, t.note))
    if epoch is not None:
        statement = statement.where(t.epoch == epoch)
    rows = session.execute(statement.order_by(col(t.id).desc()).limit(limit)).all()
    return [SearchHit("cave_wall", int(r[0] or 0), r[1], "Marks: " + ", ".join(r[2] or ())
                      + (f" — {r[3]}" if r[3] else ""), r[4]) for r in rows]


def _search_legends(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                    challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.Legend
    return [SearchHit("legends", r.id or 0, r.name,
                      f"Epoch {r.epoch}; marks: {', '.join(r.marks) or '—'}; traits: "
                      f"{', '.join(r.traits) or '—'}", r.epoch)
            for r in _rows(session, t, pattern, (t.name, t.marks, t.traits), t.epoch, epoch,
                           limit)]


def _search_omens(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    t = models.OmenInvestigation
    return [SearchHit("omens", r.id or 0, f"{r.omen_id.capitalize()} {r.component_id}",
                      r.note, r.epoch)
            for r in _rows(session, t, pattern, (t.omen_id, t.component_id, t.note), t.epoch,
                           epoch, limit)]


def _search_codes(campaign: Campaign, session: Session, pattern: str, epoch: int | None,
                  challenge: str | None, limit: int) -> list[SearchHit]:
    if epoch is not None:
        return []
    t = models.CodeRecord
    return [SearchHit("codes", r.id or 0, r.code, f"{r.status}: {r.name}")
            for r in _rows(session, t, pattern, (t.code, t.name, t.status), None, None, limit)]


_SEARCHERS: dict[str, Any] = {
    "history": _search_history,
    "entries": _search_entries,
    "challenges": _search_challenges,
    "culture": _search_culture,
    "outposts": _search_outposts,
    "valley": _search_valley,
    "behemoths": _search_behemoths,
    "decks": _search_decks,
    "cave_wall": _search_cave_wall,
    "legends": _search_legends,
    "omens": _search_omens,
    "codes": _search_codes,
    "notes": _search_notes,
}
