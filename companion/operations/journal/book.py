"""The journal book's sections (Rulebook: Using the Journal): their names, the Culture
page's free lists, and the lines each section shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, or_
from sqlmodel import Session, col, select

from companion.operations.webjournal_entries import CULTURE_PREFIX
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


# --- what every section reads -----------------------------------------------------------


def card_name(mapping: Any, key: str | None) -> str:
    """The name of the card ``key`` of ``mapping`` (the key itself when the content lacks
    it; "" for no key)."""
    if not key:
        return ""
    item = mapping.get(key) if mapping is not None else None
    return str(getattr(item, "name", key)) if item is not None else key


def hex_tiles(session: Session) -> dict[int, str]:
    """Valley hex row id -> its tile id."""
    return {h.id or 0: h.tile_id or "?" for h in session.exec(select(models.ValleyHex)).all()}


def current_epoch(session: Session) -> int:
    """The campaign's epoch now."""
    row = session.get(models.Campaign, 1)
    return row.epoch if row is not None else 1


# --- matching typed words (the search, and the Culture page's kept mantle powers) --------------


def like_pattern(query: str) -> str:
    """``query`` as a LIKE pattern that matches it anywhere, its wildcards escaped."""
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def matching(pattern: str, *columns: Any) -> Any:
    """Where any of ``columns`` matches ``pattern`` (:func:`like_pattern`)."""
    return or_(*(cast(c, String).like(pattern, escape="\\") for c in columns))


def culture_list_page() -> Any:
    """Where a note page is an entry of one of the Culture page's free lists (titled
    ``culture:<list>``); ``~culture_list_page()`` for the journal's own note pages."""
    return col(models.NotePage.title).startswith(CULTURE_PREFIX)


def culture_list_key(title: str) -> str:
    """The free list (``taboos`` ...) a Culture list entry's title names."""
    return title[len(CULTURE_PREFIX):]
