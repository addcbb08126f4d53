"""Every table of a campaign file (sqlmodel, one module).

What the rulebook says persists between games (Continuing Play; Using the Journal), plus
what a game in progress needs to resume (decks, random state, a procedure mid-way).

Conventions:
- small nested lists and maps are JSON columns; *reassign* them to change them
  (``character.traits = [*character.traits, "Brave"]``): in-place mutation of a JSON
  value is invisible to the database layer, so it is neither saved nor journalled;
- times are timezone-aware UTC ``datetime``s (sqlmodel refuses naive ones);
- content ids (cards, tiles, items) are the content pack's strings;
- no database-level cascades: every row change goes through the session, so the journal
  sees it and undo can revert it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import JSON, Column, Index, LargeBinary, Table, text
from sqlmodel import Field, SQLModel
from sqlmodel._compat import SQLModelConfig  # the type SQLModel.model_config has


class _Table(SQLModel):
    """Base of every table: pydantic builds a table's validators only if one is ever
    used (``defer_build``). Rows are made and read through SQLAlchemy, which never
    needs them, so opening a campaign does not pay for 27 of them."""

    model_config = SQLModelConfig(from_attributes=True, defer_build=True)


def utcnow() -> datetime:
    """Now, as the aware UTC datetime every table stores."""
    return datetime.now(UTC)


def table_of(model: type[SQLModel]) -> Table:
    """The SQLAlchemy table behind a sqlmodel table class."""
    return cast(Table, getattr(model, "__table__"))  # noqa: B009 (absent from the stubs)


def _json(nullable: bool = False) -> Any:
    # A fresh Column per field: SQLAlchemy columns cannot be shared between tables.
    return Column(JSON, nullable=nullable)


# --- the campaign and the society -----------------------------------------------------


class Campaign(_Table, table=True):
    """The campaign itself (a single row, id 1): set-up choices and settings."""

    __tablename__ = "campaign"
    id: int | None = Field(default=None, primary_key=True)
    society_name: str = ""
    epoch: int = 1
    created: datetime = Field(default_factory=utcnow)
    content_packs: list[dict[str, str]] = Field(default_factory=list, sa_column=_json())
    """Content packs in use: ``[{"id": ..., "version": ...}]``."""
    players: list[str] = Field(default_factory=list, sa_column=_json())
    character_count: int = 0
    solo_variant: str = "none"
    """'none', 'multi' (one player, several characters) or 'hardcore'."""
    delving_unlocked: bool = False
    odds_advisor: bool = True
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    """Anything else the interface wants to keep with the campaign."""


class Society(_Table, table=True):
    """The society's dials (a single row, id 1). Unrest persists; activity resets."""

    __tablename__ = "society"
    id: int | None = Field(default=None, primary_key=True)
    unrest: int = 0
    activity: int = 0
    lore: int = 0
    current_challenge_id: str | None = None
    games_this_epoch: int = 0
    triggered_events: list[str] = Field(default_factory=list, sa_column=_json())
    """Single activity events that fired this challenge (reading D7: once each)."""


class CultureAbility(_Table, table=True):
    """Journal > Culture: an ability added to the society by a game event."""

    __tablename__ = "culture_ability"
    id: int | None = Field(default=None, primary_key=True)
    ability_id: str | None = None
    name: str = ""
    text: str = ""
    epoch: int = 1


class MantlePower(_Table, table=True):
    """A mantle power the society has unlocked (Continuing Play > Mantle Power)."""

    __tablename__ = "mantle_power"
    id: int | None = Field(default=None, primary_key=True)
    power_id: str = Field(index=True)
    mantle: str = ""
    epoch: int = 1


# --- characters and legends -------------------------------------------------------------


class Character(_Table, table=True):
    """A character card and everything on it between and during games."""

    __tablename__ = "character"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    player: str = ""
    age: str = "young"
    """'young' or 'old'."""
    might: int = 0
    dexterity: int = 0
    awareness: int = 0
    conviction: int = 0
    traits: list[str] = Field(default_factory=list, sa_column=_json())
    mantle: str | None = None
    mantle_power: str | None = None
    """The mantle power slotted in the mantle, if any (Continuing Play > Mantle Power)."""
    marks: list[str] = Field(default_factory=list, sa_column=_json())
    health: list[str] = Field(default_factory=list, sa_column=_json())
    """Health tokens, in order."""
    energy: int = 0
    boosts: dict[str, list[int]] = Field(default_factory=dict, sa_column=_json())
    """``{ability: [1|2, ...]}``."""
    items: list[dict[str, Any]] = Field(default_factory=list, sa_column=_json())
    """``[{"item": id, "slot": ...}]``."""
    bag: list[dict[str, Any]] = Field(default_factory=list, sa_column=_json())
    """Tokens in the bag: ``[{"kind": ..., "id": ..., "side": ...}]``."""
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    status: str = Field(default="active", index=True)
    """'active', 'incapacitated', 'legend' or 'retired'."""


class Legend(_Table, table=True):
    """A legend card: a character who became a legend, and who inherits it."""

    __tablename__ = "legend"
    id: int | None = Field(default=None, primary_key=True)
    character_id: int | None = Field(default=None, foreign_key="character.id")
    name: str
    abilities: dict[str, int] = Field(default_factory=dict, sa_column=_json())
    traits: list[str] = Field(default_factory=list, sa_column=_json())
    marks: list[str] = Field(default_factory=list, sa_column=_json())
    epoch: int = 1
    succeeded_by_id: int | None = Field(default=None, foreign_key="character.id")
    assigned_to_id: int | None = Field(default=None, foreign_key="character.id")


class RetainedSupply(_Table, table=True):
    """Retaining Supplies: up to 5 items and 5 materials set aside with a character."""

    __tablename__ = "retained_supply"
    id: int | None = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", index=True)
    items: list[str] = Field(default_factory=list, sa_column=_json())
    materials: list[str] = Field(default_factory=list, sa_column=_json())
    bequeathed_to_id: int | None = Field(default=None, foreign_key="character.id")


# --- the valley ---------------------------------------------------------------------------


class ValleyTray(_Table, table=True):
    """A tray of the valley: where it sits and which region it is."""

    __tablename__ = "valley_tray"
    id: int | None = Field(default=None, primary_key=True)
    tray_number: int = 0
    region: str = ""
    placement: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    """Where the tray sits: ``{"q": .., "r": .., "rotation": ..}`` or slot coordinates."""


class ValleyHex(_Table, table=True):
    """A hex slot of a tray and the tile placed in it (Journal > Valley Map)."""

    __tablename__ = "valley_hex"
    id: int | None = Field(default=None, primary_key=True)
    tray_id: int = Field(foreign_key="valley_tray.id", index=True)
    slot: str = ""
    tile_id: str | None = None
    explored: bool = False
    explored_at_event_id: int | None = Field(default=None, foreign_key="journal_event.id")


class Overlay(_Table, table=True):
    """An overlay placed on a hex (or on one section of it)."""

    __tablename__ = "overlay"
    id: int | None = Field(default=None, primary_key=True)
    hex_id: int = Field(foreign_key="valley_hex.id", index=True)
    section: str | None = None
    overlay_id: str = ""
    kind: str = "other"
    """'outpost', 'lair' or 'other'."""


class HexToken(_Table, table=True):
    """Fire, shelter or lore tokens on a hex during a game."""

    __tablename__ = "hex_token"
    id: int | None = Field(default=None, primary_key=True)
    hex_id: int = Field(foreign_key="valley_hex.id", index=True)
    kind: str = "fire"
    count: int = 1


class Outpost(_Table, table=True):
    """Journal > Outposts: an outpost (or ruin) and the materials stored in it."""

    __tablename__ = "outpost"
    id: int | None = Field(default=None, primary_key=True)
    name: str = ""
    category: str = ""
    status: str = "active"
    """'active' or 'ruin'."""
    epoch_built: int = 1
    overlay_id: str | None = None
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    section: str | None = None
    materials: list[str] = Field(default_factory=list, sa_column=_json())
    notes: str = ""
    """The group's notes on the outpost (the web journal keeps them)."""


class OutpostStructure(_Table, table=True):
    """A structure card attached to an outpost."""

    __tablename__ = "outpost_structure"
    id: int | None = Field(default=None, primary_key=True)
    outpost_id: int = Field(foreign_key="outpost.id", index=True)
    structure_id: str = ""
    materials: list[str] = Field(default_factory=list, sa_column=_json())


# --- the journal's other sections -----------------------------------------------------------


class ChallengeLogEntry(_Table, table=True):
    """Journal > Challenge Log: one challenge (one game) of an epoch."""

    __tablename__ = "challenge_log_entry"
    id: int | None = Field(default=None, primary_key=True)
    epoch: int = 1
    challenge_id: str = ""
    characters: list[str] = Field(default_factory=list, sa_column=_json())
    outcome_entry: str | None = None
    finished: bool = False
    name: str = ""
    """The challenge's name as the group wrote it (when the pack does not know the card)."""
    notes: str = ""
    goals_completed: str = ""
    """The goals the group completed in this challenge, as written (web journal v5)."""


class LoomingChallenge(_Table, table=True):
    """A looming challenge set aside to choose from next."""

    __tablename__ = "looming_challenge"
    id: int | None = Field(default=None, primary_key=True)
    challenge_id: str = ""
    epoch: int = 1
    note: str = ""
    name: str = ""
    """The challenge's name as the group wrote it (when the pack does not know the card)."""
    prepare_by: int | None = None
    """The epoch the group means to be ready for it by."""
    position: int = 0
    """The group's order of the looming challenges (lowest first)."""


class GoalState(_Table, table=True):
    """An epoch goal: active, set aside between games, or completed."""

    __tablename__ = "goal_state"
    id: int | None = Field(default=None, primary_key=True)
    goal_id: str = ""
    state: str = "active"
    """'active', 'set_aside' or 'completed'."""
    epoch: int = 1


class OmenInvestigation(_Table, table=True):
    """An omen investigated: its id and the component id recorded with it."""

    __tablename__ = "omen_investigation"
    id: int | None = Field(default=None, primary_key=True)
    omen_id: str = ""
    component_id: str = ""
    epoch: int = 1
    note: str = ""


class BehemothState(_Table, table=True):
    """Journal > Behemoths: what the society knows about a behemoth, and where it is."""

    __tablename__ = "behemoth_state"
    id: int | None = Field(default=None, primary_key=True)
    behemoth_id: str = ""
    name: str = ""
    hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    lair_hex_id: int | None = Field(default=None, foreign_key="valley_hex.id")
    target: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    instinct_card: str | None = None
    secret_card: str | None = None
    secret_learned: bool = False
    habits_learned: list[str] = Field(default_factory=list, sa_column=_json())
    boosts: dict[str, list[int]] = Field(default_factory=dict, sa_column=_json())
    reaction_deck: list[str] = Field(default_factory=list, sa_column=_json())
    lair_hex: str = ""
    """The lair's hex as written in the journal ("VV02"), known before the tile is placed."""
    demeanor: int | None = None
    """The behemoth's demeanor dial (1-9), when the group tracks it."""
    secrets: list[dict[str, str]] = Field(default_factory=list, sa_column=_json())
    """Revealed secrets in reveal order: ``[{"card_id", "name", "description"}]``."""
    """The reaction deck's order, top first."""
    note: str = ""
    lair_overlay: str = ""
    """The overlay tile the lair is on, as written ("OG03"), before it is placed."""
    lair_zone: str = ""
    """The zone of that overlay the lair is in: "A", "B" or "C" ("" when unknown)."""


class DeckChange(_Table, table=True):
    """Journal > Decks: a persistent change to a deck (a card added, removed ...)."""

    __tablename__ = "deck_change"
    id: int | None = Field(default=None, primary_key=True)
    deck: str = Field(default="", index=True)
    card_id: str = ""
    change: str = ""
    """'added', 'removed', 'replaced' ..."""
    note: str = ""
    epoch: int = 1


class CaveWallIllustration(_Table, table=True):
    """The Primal Cave Wall: an illustration and the marks drawn with it."""

    __tablename__ = "cave_wall_illustration"
    id: int | None = Field(default=None, primary_key=True)
    title: str = ""
    marks: list[str] = Field(default_factory=list, sa_column=_json())
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    note: str = ""
    epoch: int = 1
    strokes: list[dict[str, Any]] = Field(default_factory=list, sa_column=_json())
    """A drawing as pen strokes (the web journal's cave wall): ``[{"c": pencil, "w":
    width, "pts": [x, y, ...]}]`` in a 1000 x 1000 space."""


class CodeRecord(_Table, table=True):
    """A crafting code the society found: a recipe, a null code, or a provisional one."""

    __tablename__ = "code_record"
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(default="", index=True)
    status: str = "recipe"
    """'recipe', 'null' or 'provisional'."""
    name: str = ""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=_json())


class CodexEntryRead(_Table, table=True):
    """A Codex entry the group has read (Using the Codex): its number, and what sent
    them there. Spoiler-safe: the entry's text is never stored, only the group's notes."""

    __tablename__ = "codex_entry_read"
    id: int | None = Field(default=None, primary_key=True)
    entry: str = ""
    title: str = ""
    source_category: str = ""
    """What sent the group to the Codex ("Behemoth card", "Item card" ...)."""
    source_id: str = ""
    notes: str = ""
    epoch: int = 1


class WebJournalLink(_Table, table=True):
    """An entry of the web Campaign Journal and the row that is its home here: the
    Journal's id and ``updatedAt`` (so an export goes back under the same id and the
    Journal's merge updates the entry instead of adding it twice), the entry's fields
    no column holds, and a stamp of the entry as imported (an edit here changes it)."""

    __tablename__ = "web_journal_link"
    __table_args__ = (Index("ix_web_journal_link_section_web_id", "section", "web_id"),)
    id: int | None = Field(default=None, primary_key=True)
    section: str = ""
    """The Journal's section ("behemoths", "culture.outposts", "nullCodes" ...)."""
    web_id: str = ""
    """The entry's id (or, in a keyed section, its key "Blue 1234")."""
    row_table: str = ""
    """The table of its home ("" when the entry is only kept for the Journal)."""
    row_id: int | None = None
    updated_at: int | None = None
    """The Journal's ``updatedAt`` (milliseconds), as the file had it."""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    """``keep``: fields without a column; ``as``: fields written otherwise in the file
    (``[ours, the file's]``); ``entry``: the whole entry, when it has no home."""
    stamp: str = ""


class NotePage(_Table, table=True):
    """A free page of notes (the web journal had these)."""

    __tablename__ = "note_page"
    id: int | None = Field(default=None, primary_key=True)
    title: str = ""
    text: str = ""
    position: int = 0


class OwnCard(_Table, table=True):
    """A card of the owner's own pack (``<pack>-mine``, in the user's data folder) that
    the campaign plays with: entered at the table, or in the pack when the campaign used
    it. The copy travels with the file, its backups and its exports; the campaign plays
    with this version even where the data folder lacks the card or holds another one.
    Schema version 3."""

    __tablename__ = "own_card"
    __table_args__ = (Index("ix_own_card_key", "pack_id", "kind", "card_id"),)
    id: int | None = Field(default=None, primary_key=True)
    pack_id: str = ""
    """The user pack the card belongs to (``sample-mine``)."""
    kind: str = ""
    """The component kind, as in a pack file (``fishing_cards``, ``materials`` ...)."""
    card_id: str = ""
    data: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    """The entry as a pack file holds it (defaults left out, the id first)."""
    digest: str = ""
    """A hash of ``data``: tells the version played here from one edited elsewhere."""
    pack_version: str = ""
    """The pack's version when this copy was taken."""


# --- a game in progress -----------------------------------------------------------------


class DeckState(_Table, table=True):
    """An in-app deck: the draw pile's order (top first) and the discard pile."""

    __tablename__ = "deck_state"
    id: int | None = Field(default=None, primary_key=True)
    deck: str = Field(unique=True)
    draw_pile: list[str] = Field(default_factory=list, sa_column=_json())
    discard: list[str] = Field(default_factory=list, sa_column=_json())


class RngState(_Table, table=True):
    """The seeded random generator's state, so a replay draws the same cards."""

    __tablename__ = "rng_state"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(default="main", unique=True)
    seed: int = 0
    state: Any = Field(default=None, sa_column=_json(nullable=True))


class ProcedureState(_Table, table=True):
    """A procedure (an activity, the Night phase) in progress, saved after every step."""

    __tablename__ = "procedure_state"
    id: int | None = Field(default=None, primary_key=True)
    kind: str = ""
    state: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    started_event_id: int | None = Field(default=None, foreign_key="journal_event.id")


# --- history (written by the store itself) ---------------------------------------------------


class JournalEvent(_Table, table=True):
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
    id: int | None = Field(default=None, primary_key=True)
    time: datetime = Field(default_factory=utcnow, index=True)
    kind: str
    text: str = ""
    author: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=_json())
    changes: list[dict[str, Any]] = Field(default_factory=list, sa_column=_json())
    undone: bool = False
    redoable: bool = False
    """True while this undone event may be redone (a new operation clears it)."""
    undoes_id: int | None = Field(default=None, foreign_key="journal_event.id")
    redoes_id: int | None = Field(default=None, foreign_key="journal_event.id")


class SavePoint(_Table, table=True):
    """A named point in the history that ``undo_to`` can return to."""

    __tablename__ = "save_point"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    event_id: int
    """The newest journal event when the point was made (0 for none)."""
    created: datetime = Field(default_factory=utcnow)


#: Tables whose changes the journal records (and undo reverts).
GAME_TABLES: tuple[type[SQLModel], ...] = (
    Campaign, Society, CultureAbility, MantlePower, Character, Legend, RetainedSupply,
    ValleyTray, ValleyHex, Overlay, HexToken, Outpost, OutpostStructure, ChallengeLogEntry,
    LoomingChallenge, GoalState, OmenInvestigation, BehemothState, DeckChange,
    CaveWallIllustration, CodeRecord, NotePage, DeckState, RngState, ProcedureState, OwnCard,
    CodexEntryRead, WebJournalLink,
)
#: The store's own history tables; never journalled themselves.
HISTORY_TABLES: tuple[type[SQLModel], ...] = (JournalEvent, SavePoint)
ALL_TABLES: tuple[type[SQLModel], ...] = GAME_TABLES + HISTORY_TABLES
