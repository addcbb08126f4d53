"""The tables no view reads when a campaign opens: declared when first used.

The journal's other sections (challenge log, looming challenges, goals, omens, deck
changes, cave wall, codes, Codex entries, note pages, the web journal's links), retained
supplies, the random state and save points. Creating a campaign, migrating, exporting,
importing, undoing and checking a file import this module, so they see every table
(:data:`ALL_TABLES`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Column, Index, LargeBinary
from sqlmodel import Field, SQLModel

from companion.store import shown_tables as shown
from companion.store.table_base import StoreTable, json_column, utcnow


class RetainedSupply(StoreTable, table=True):
    """Retaining Supplies: up to 5 items and 5 materials set aside with a character."""

    __tablename__ = "retained_supply"
    character_id: int = Field(foreign_key="character.id", index=True)
    items: list[str] = Field(default_factory=list, sa_column=json_column())
    materials: list[str] = Field(default_factory=list, sa_column=json_column())
    bequeathed_to_id: int | None = Field(default=None, foreign_key="character.id")


class ChallengeLogEntry(StoreTable, table=True):
    """Journal > Challenge Log: one challenge (one game) of an epoch."""

    __tablename__ = "challenge_log_entry"
    epoch: int = 1
    challenge_id: str = ""
    characters: list[str] = Field(default_factory=list, sa_column=json_column())
    outcome_entry: str | None = None
    finished: bool = False
    name: str = ""
    """The challenge's name as the group wrote it (when the pack does not know the card)."""
    notes: str = ""
    goals_completed: str = ""
    """The goals the group completed in this challenge, as written (web journal v5)."""


class LoomingChallenge(StoreTable, table=True):
    """A looming challenge set aside to choose from next."""

    __tablename__ = "looming_challenge"
    challenge_id: str = ""
    epoch: int = 1
    note: str = ""
    name: str = ""
    """The challenge's name as the group wrote it (when the pack does not know the card)."""
    prepare_by: int | None = None
    """The epoch the group means to be ready for it by."""
    position: int = 0
    """The group's order of the looming challenges (lowest first)."""


class GoalState(StoreTable, table=True):
    """An epoch goal: active, set aside between games, or completed."""

    __tablename__ = "goal_state"
    goal_id: str = ""
    state: str = "active"
    """'active', 'set_aside' or 'completed'."""
    epoch: int = 1


class OmenInvestigation(StoreTable, table=True):
    """An omen investigated: its id and the component id recorded with it."""

    __tablename__ = "omen_investigation"
    omen_id: str = ""
    component_id: str = ""
    epoch: int = 1
    note: str = ""


class DeckChange(StoreTable, table=True):
    """Journal > Decks: a persistent change to a deck (a card added, removed ...)."""

    __tablename__ = "deck_change"
    deck: str = Field(default="", index=True)
    card_id: str = ""
    change: str = ""
    """'added', 'removed', 'replaced' ..."""
    note: str = ""
    epoch: int = 1


class CaveWallIllustration(StoreTable, table=True):
    """The Primal Cave Wall: an illustration and the marks drawn with it."""

    __tablename__ = "cave_wall_illustration"
    title: str = ""
    marks: list[str] = Field(default_factory=list, sa_column=json_column())
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    note: str = ""
    epoch: int = 1
    strokes: list[dict[str, Any]] = Field(default_factory=list, sa_column=json_column())
    """A drawing as pen strokes (the web journal's cave wall): ``[{"c": pencil, "w":
    width, "pts": [x, y, ...]}]`` in a 1000 x 1000 space."""


class CodeRecord(StoreTable, table=True):
    """A crafting code the society found: a recipe, a null code, or a provisional one."""

    __tablename__ = "code_record"
    code: str = Field(default="", index=True)
    status: str = "recipe"
    """'recipe', 'null' or 'provisional'."""
    name: str = ""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())


class CodexEntryRead(StoreTable, table=True):
    """A Codex entry the group has read (Using the Codex): its number, and what sent
    them there. Spoiler-safe: the entry's text is never stored, only the group's notes."""

    __tablename__ = "codex_entry_read"
    entry: str = ""
    title: str = ""
    source_category: str = ""
    """What sent the group to the Codex ("Behemoth card", "Item card" ...)."""
    source_id: str = ""
    notes: str = ""
    epoch: int = 1


class WebJournalLink(StoreTable, table=True):
    """An entry of the web Campaign Journal and the row that is its home here: the
    Journal's id and ``updatedAt`` (so an export goes back under the same id and the
    Journal's merge updates the entry instead of adding it twice), the entry's fields
    no column holds, and a stamp of the entry as imported (an edit here changes it)."""

    __tablename__ = "web_journal_link"
    __table_args__ = (Index("ix_web_journal_link_section_web_id", "section", "web_id"),)
    section: str = ""
    """The Journal's section ("behemoths", "culture.outposts", "nullCodes" ...)."""
    web_id: str = ""
    """The entry's id (or, in a keyed section, its key "Blue 1234")."""
    row_table: str = ""
    """The table of its home ("" when the entry is only kept for the Journal)."""
    row_id: int | None = None
    updated_at: int | None = None
    """The Journal's ``updatedAt`` (milliseconds), as the file had it."""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """``keep``: fields without a column; ``as``: fields written otherwise in the file
    (``[ours, the file's]``); ``entry``: the whole entry, when it has no home."""
    stamp: str = ""


class NotePage(StoreTable, table=True):
    """A free page of notes (the web journal had these)."""

    __tablename__ = "note_page"
    title: str = ""
    text: str = ""
    position: int = 0


class RngState(StoreTable, table=True):
    """The seeded random generator's state, so a replay draws the same cards."""

    __tablename__ = "rng_state"
    name: str = Field(default="main", unique=True)
    seed: int = 0
    state: Any = Field(default=None, sa_column=json_column(nullable=True))


class SavePoint(StoreTable, table=True):
    """A named point in the history that ``undo_to`` can return to."""

    __tablename__ = "save_point"
    name: str
    event_id: int
    """The newest journal event when the point was made (0 for none)."""
    created: datetime = Field(default_factory=utcnow)


#: Tables whose changes the journal records (and undo reverts).
GAME_TABLES: tuple[type[SQLModel], ...] = (
    shown.Campaign, shown.Society, shown.CultureAbility, shown.MantlePower, shown.Character,
    shown.Legend, RetainedSupply, shown.ValleyTray, shown.ValleyHex, shown.Overlay,
    shown.HexToken, shown.Outpost, shown.OutpostStructure, ChallengeLogEntry, LoomingChallenge,
    GoalState, OmenInvestigation, shown.BehemothState, DeckChange, CaveWallIllustration,
    CodeRecord, NotePage, shown.DeckState, RngState, shown.ProcedureState, shown.OwnCard,
    CodexEntryRead, WebJournalLink,
)
#: The store's own history tables; never journalled themselves.
HISTORY_TABLES: tuple[type[SQLModel], ...] = (shown.JournalEvent, SavePoint)
ALL_TABLES: tuple[type[SQLModel], ...] = GAME_TABLES + HISTORY_TABLES
