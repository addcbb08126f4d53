"""The tables the campaign is shown from: declared when the store is first imported.

Opening a campaign and its first view read these (the campaign and the society, the
characters and legends, the valley and its outposts, the behemoths, the decks in play,
a procedure mid-way, the owner's cards, the journal's events); the others
(:mod:`companion.store.later_tables`) are declared when first used. Every foreign key
here points at a table of this module, so these tables stand on their own.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, text
from sqlmodel import Field

from companion.store.table_base import StoreTable, json_column, utcnow

# --- the campaign and the society -----------------------------------------------------


def new_campaign_uid() -> str:
    """A campaign's own identity: a random UUID (version 4) as 32 hex digits."""
    return uuid.uuid4().hex


class Campaign(StoreTable, table=True):
    """The campaign itself (a single row, id 1): set-up choices and settings."""

    __tablename__ = "campaign"
    uid: str = Field(default_factory=new_campaign_uid)
    """The campaign's identity (schema 4), set when it is made and never changed: a
    backup proves it belongs to this campaign by holding the same ``uid``."""
    society_name: str = ""
    epoch: int = 1
    created: datetime = Field(default_factory=utcnow)
    content_packs: list[dict[str, str]] = Field(default_factory=list, sa_column=json_column())
    """Content packs in use: ``[{"id": ..., "version": ...}]``."""
    players: list[str] = Field(default_factory=list, sa_column=json_column())
    character_count: int = 0
    solo_variant: str = "none"
    """'none', 'multi' (one player, several characters) or 'hardcore'."""
    delving_unlocked: bool = False
    odds_advisor: bool = True
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """Anything else the interface wants to keep with the campaign."""


class Society(StoreTable, table=True):
    """The society's dials (a single row, id 1). Unrest persists; activity resets."""

    __tablename__ = "society"
    unrest: int = 0
    activity: int = 0
    lore: int = 0
    current_challenge_id: str | None = None
    games_this_epoch: int = 0
    triggered_events: list[str] = Field(default_factory=list, sa_column=json_column())
    """Single activity events that fired this challenge (reading D7: once each)."""


class CultureAbility(StoreTable, table=True):
    """Journal > Culture: an ability added to the society by a game event."""

    __tablename__ = "culture_ability"
    ability_id: str | None = None
    name: str = ""
    text: str = ""
    epoch: int = 1


class MantlePower(StoreTable, table=True):
    """A mantle power the society has unlocked (Continuing Play > Mantle Power)."""

    __tablename__ = "mantle_power"
    power_id: str = Field(index=True)
    mantle: str = ""
    epoch: int = 1


# --- characters and legends -------------------------------------------------------------


class Character(StoreTable, table=True):
    """A character card and everything on it between and during games."""

    __tablename__ = "character"
    name: str
    player: str = ""
    age: str = "young"
    """'young' or 'old'."""
    might: int = 0
    dexterity: int = 0
    awareness: int = 0
    conviction: int = 0
    traits: list[str] = Field(default_factory=list, sa_column=json_column())
    mantle: str | None = None
    mantle_power: str | None = None
    """The mantle power slotted in the mantle, if any (Continuing Play > Mantle Power)."""
    marks: list[str] = Field(default_factory=list, sa_column=json_column())
    health: list[str] = Field(default_factory=list, sa_column=json_column())
    """Health tokens, in order."""
    energy: int = 0
    boosts: dict[str, list[int]] = Field(default_factory=dict, sa_column=json_column())
    """``{ability: [1|2, ...]}``."""
    items: list[dict[str, Any]] = Field(default_factory=list, sa_column=json_column())
    """``[{"item": id, "slot": ...}]``."""
    bag: list[dict[str, Any]] = Field(default_factory=list, sa_column=json_column())
    """Tokens in the bag: ``[{"kind": ..., "id": ..., "side": ...}]``."""
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    status: str = Field(default="active", index=True)
    """'active', 'incapacitated', 'legend' or 'retired'."""


class Legend(StoreTable, table=True):
    """A legend card: a character who became a legend, and who inherits it."""

    __tablename__ = "legend"
    character_id: int | None = Field(default=None, foreign_key="character.id")
    name: str
    abilities: dict[str, int] = Field(default_factory=dict, sa_column=json_column())
    traits: list[str] = Field(default_factory=list, sa_column=json_column())
    marks: list[str] = Field(default_factory=list, sa_column=json_column())
    epoch: int = 1
    succeeded_by_id: int | None = Field(default=None, foreign_key="character.id")
    assigned_to_id: int | None = Field(default=None, foreign_key="character.id")


# --- the valley ---------------------------------------------------------------------------


class ValleyTray(StoreTable, table=True):
    """A tray of the valley: where it sits and which region it is."""

    __tablename__ = "valley_tray"
    tray_number: int = 0
    region: str = ""
    placement: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """Where the tray sits: ``{"q": .., "r": .., "rotation": ..}`` or slot coordinates."""


class ValleyHex(StoreTable, table=True):
    """A hex slot of a tray and the tile placed in it (Journal > Valley Map)."""

    __tablename__ = "valley_hex"
    tray_id: int = Field(foreign_key="valley_tray.id", index=True)
    slot: str = ""
    tile_id: str | None = None
    explored: bool = False
    explored_at_event_id: int | None = Field(default=None, foreign_key="journal_event.id")


class Overlay(StoreTable, table=True):
    """An overlay placed on a hex (or on one section of it)."""

    __tablename__ = "overlay"
    hex_id: int = Field(foreign_key="valley_hex.id", index=True)
    section: str | None = None
    overlay_id: str = ""
    kind: str = "other"
    """'outpost', 'lair' or 'other'."""


class HexToken(StoreTable, table=True):
    """Fire, shelter or lore tokens on a hex during a game."""

    __tablename__ = "hex_token"
    hex_id: int = Field(foreign_key="valley_hex.id", index=True)
    kind: str = "fire"
    count: int = 1


class Outpost(StoreTable, table=True):
    """Journal > Outposts: an outpost (or ruin) and the materials stored in it."""

    __tablename__ = "outpost"
    name: str = ""
    category: str = ""
    status: str = "active"
    """'active' or 'ruin'."""
    epoch_built: int = 1
    overlay_id: str | None = None
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    section: str | None = None
    materials: list[str] = Field(default_factory=list, sa_column=json_column())
    notes: str = ""
    """The group's notes on the outpost (the web journal keeps them)."""


class OutpostStructure(StoreTable, table=True):
    """A structure card attached to an outpost."""

    __tablename__ = "outpost_structure"
    outpost_id: int = Field(foreign_key="outpost.id", index=True)
    structure_id: str = ""
    materials: list[str] = Field(default_factory=list, sa_column=json_column())


# --- the journal's other sections -----------------------------------------------------------


class BehemothState(StoreTable, table=True):
    """Journal > Behemoths: what the society knows about a behemoth, and where it is."""

    __tablename__ = "behemoth_state"
    behemoth_id: str = ""
    name: str = ""
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    lair_hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    target: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    instinct_card: str | None = None
    secret_card: str | None = None
    secret_learned: bool = False
    habits_learned: list[str] = Field(default_factory=list, sa_column=json_column())
    boosts: dict[str, list[int]] = Field(default_factory=dict, sa_column=json_column())
    reaction_deck: list[str] = Field(default_factory=list, sa_column=json_column())
    lair_hex: str = ""
    """The lair's hex as written in the journal ("VV02"), known before the tile is placed."""
    demeanor: int | None = None
    """The behemoth's demeanor dial (1-9), when the group tracks it."""
    secrets: list[dict[str, str]] = Field(default_factory=list, sa_column=json_column())
    """Revealed secrets in reveal order: ``[{"card_id", "name", "description"}]``."""
    """The reaction deck's order, top first."""
    note: str = ""
    lair_overlay: str = ""
    """The overlay tile the lair is on, as written ("OG03"), before it is placed."""
    lair_zone: str = ""
    """The zone of that overlay the lair is in: "A", "B" or "C" ("" when unknown)."""


class OwnCard(StoreTable, table=True):
    """A card of the owner's own pack (``<pack>-mine``, in the user's data folder) that
    the campaign plays with: entered at the table, or in the pack when the campaign used
    it. The copy travels with the file, its backups and its exports; the campaign plays
    with this version even where the data folder lacks the card or holds another one.
    Schema version 3."""

    __tablename__ = "own_card"
    __table_args__ = (Index("ix_own_card_key", "pack_id", "kind", "card_id"),)
    pack_id: str = ""
    """The user pack the card belongs to (``sample-mine``)."""
    kind: str = ""
    """The component kind, as in a pack file (``fishing_cards``, ``materials`` ...)."""
    card_id: str = ""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    """The entry as a pack file holds it (defaults left out, the id first)."""
    digest: str = ""
    """A hash of ``data``: tells the version played here from one edited elsewhere."""
    pack_version: str = ""
    """The pack's version when this copy was taken."""


# --- a game in progress -----------------------------------------------------------------


class DeckState(StoreTable, table=True):
    """An in-app deck: the draw pile's order (top first) and the discard pile."""

    __tablename__ = "deck_state"
    deck: str = Field(unique=True)
    draw_pile: list[str] = Field(default_factory=list, sa_column=json_column())
    discard: list[str] = Field(default_factory=list, sa_column=json_column())


class ProcedureState(StoreTable, table=True):
    """A procedure (an activity, the Night phase) in progress, saved after every step."""

    __tablename__ = "procedure_state"
    kind: str = ""
    state: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    started_event_id: int | None = Field(default=None, foreign_key="journal_event.id")


# --- history (written by the store itself) ---------------------------------------------------


class JournalEvent(StoreTable, table=True):
    """One operation (or journal entry) and the row images needed to undo/redo it.

    ``changes`` is a list of ``{"table", "id", "before", "after"}``; ``before`` is
    None for an inserted row, ``after`` None for a deleted one; an updated row's images
    hold only ``id`` and the columns that changed. Undo/redo records have
    kind 'undo'/'redo', point at their event with ``undoes_id``/``redoes_id`` and hold
    no changes of their own.
    """

    __tablename__ = "journal_event"
    __table_args__ = (
        Index("ix_journal_event_kind_id", "kind", "id"),
        # Tiny partial index: clearing and finding the redo stack must not scan history.
        Index("ix_journal_event_redoable", "id", sqlite_where=text("redoable = 1")),
    )
    time: datetime = Field(default_factory=utcnow, index=True)
    kind: str
    text: str = ""
    author: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=json_column())
    changes: list[dict[str, Any]] = Field(default_factory=list, sa_column=json_column())
    undone: bool = False
    redoable: bool = False
    """True while this undone event may be redone (a new operation clears it)."""
    undoes_id: int | None = Field(default=None, foreign_key="journal_event.id")
    redoes_id: int | None = Field(default=None, foreign_key="journal_event.id")
