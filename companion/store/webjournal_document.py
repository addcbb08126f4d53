"""What a web Campaign Journal file holds, entry by entry (the document read from it).

:mod:`companion.store.webjournal` describes the format by version and reads a file into a
:class:`WebDocument`; these are its parts: the file's own keys, and one class per kind of
entry (recipes and codes, materials, culture, behemoths, challenges, investigations,
note pages, outposts, mantle powers, Codex entries, cave wall drawings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.store.errors import BadExportFile

APP_NAMES = ("Stonesaga Campaign Journal", "Stonesaga Crafting Journal",
             "Stone Saga Crafting Journal")
"""What the web app writes in ``"app"``: its newer name, the one of versions 2 to 5 and
the one its first version 2 files carry (two words)."""
READABLE_VERSIONS = (2, 3, 4, 5)
PIP_COLOURS = ("Blue", "Red", "Yellow", "Purple", "Grey", "Green", "Orange", "Silver")
"""The pip colours the web app offers."""

#: Keys of the document that hold the web app's own sync settings, not the campaign.
SYNC_KEYS = ("driveFileId", "driveToken", "tokenData")
META_KEYS = ("app", "version", "exportedAt", "lastUpdated")
CULTURE_LISTS = ("structures", "knowledgeCards", "taboos", "pigments")
#: Entry keys that are bookkeeping of the web app (sync merge), never shown to players.
BOOKKEEPING = ("id", "updatedAt", "addedAt", "deleted", "revealed")



class WebJournalRefused(BadExportFile):
    """A web-journal file refused, naming the field at fault."""


# --- the document ----------------------------------------------------------------------


@dataclass(frozen=True)
class WebEntry:
    """What every entry of the file carries besides its fields: the entry as the file
    has it (so that an export can give it back field for field)."""

    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, kw_only=True)

    @property
    def web_id(self) -> str:
        value = self.raw.get("id")
        return value if isinstance(value, str) else "" if value is None else str(value)

    @property
    def updated_at(self) -> int | None:
        value = self.raw.get("updatedAt")
        return int(value) if isinstance(value, (int, float)) and not isinstance(
            value, bool) else None


@dataclass(frozen=True)
class WebCode:
    """A crafting code as the web app keeps it: ``{"color": "Blue", "digits": "1111"}``."""

    color: str
    digits: str

    @property
    def key(self) -> str:
        """The web app's key for it: ``"Blue 1111"``."""
        return f"{self.color} {self.digits}"


@dataclass(frozen=True)
class WebPair:
    """Two materials that craft a recipe (left, right), with their categories."""

    left: str
    right: str
    left_category: str = ""
    right_category: str = ""
    inferred: bool = False


@dataclass(frozen=True)
class WebRecipe(WebEntry):
    item_id: str
    name: str
    codes: tuple[WebCode, ...]
    pairs: tuple[WebPair, ...]
    """The primary pair first, then the alternative pairs."""
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys the importer has no home for, with their original values."""


@dataclass(frozen=True)
class WebNullCode(WebEntry):
    code: WebCode
    pair: WebPair | None


@dataclass(frozen=True)
class WebProvisional(WebEntry):
    code: WebCode
    card_id: str
    name: str
    dead_end: bool
    flavor: str
    game_text: str
    source: str
    revealed: bool = False
    """The group has revealed its spoilers in the web app."""


@dataclass(frozen=True)
class WebMaterial(WebEntry):
    name: str
    category: str
    processed: str
    image: str
    marks: tuple[str | None, ...]
    """Edge marks left, right, top, bottom ("Blue 2"), or empty when it has none."""
    notes: str


@dataclass(frozen=True)
class WebCultureEntry(WebEntry):
    kind: str
    """"structures", "knowledgeCards", "taboos" or "pigments"."""
    text: str
    """The name (a structure, a knowledge card, a pigment) or the taboo's text."""
    card_id: str = ""
    notes: str = ""


@dataclass(frozen=True)
class WebSecret:
    card_id: str
    name: str
    description: str


@dataclass(frozen=True)
class WebBehemoth(WebEntry):
    card_id: str
    name: str
    lair_hex: str
    demeanor: int | None
    """The demeanor dial (1-9) when the file gives a number."""
    secrets: tuple[WebSecret, ...]
    notes: str
    demeanor_text: str = ""
    """The demeanor as words ("Aggressive"): version 3's form is free text."""
    lair_overlay: str = ""
    lair_zone: str = ""


@dataclass(frozen=True)
class WebChallenge(WebEntry):
    epoch: int | None
    name: str
    card_id: str
    outcome: str
    """"Won", "Lost", "Fled" (version 3) or "resolved"/"current" (later versions)."""
    notes: str
    goals_completed: str = ""
    status: str = ""
    """Version 5's "current" or "resolved" ("" in older files)."""


@dataclass(frozen=True)
class WebLooming(WebEntry):
    name: str
    card_id: str
    prepare_by: int | None
    notes: str
    order: int
    prepare_by_text: str = ""
    """"Prepare by" as written when it is not an epoch number (the form is free text)."""


@dataclass(frozen=True)
class WebInvestigation(WebEntry):
    omen: str
    card_id: str
    notes: str


@dataclass(frozen=True)
class WebNotePage(WebEntry):
    title: str
    body: str


@dataclass(frozen=True)
class WebOutpost(WebEntry):
    """Version 5's ``culture.outposts``: an outpost and the structures built in it
    (the ids of ``culture.structures`` entries)."""

    card_id: str
    name: str
    structures: tuple[str, ...]
    notes: str


@dataclass(frozen=True)
class WebMantlePower(WebEntry):
    card_id: str
    mantle: str
    name: str
    description: str


@dataclass(frozen=True)
class WebCodexEntry(WebEntry):
    """A Codex entry the group has read (version 5's ``codexEntries``)."""

    entry: str
    title: str
    source_category: str
    source_id: str
    notes: str


@dataclass(frozen=True)
class WebDrawing(WebEntry):
    """A cave wall drawing: pen strokes in a 1000 x 1000 space."""

    name: str
    strokes: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Leftover:
    """Something the campaign has no home for, kept with its original text."""

    section: str
    """Where it was in the file (``"caveWall"``, ``"behemoths[0].lairOverlay"``)."""
    label: str
    text: str
    value: Any = None
    """The value as the file has it (every field, the web app's bookkeeping too)."""


@dataclass(frozen=True)
class WebTombstone:
    """An entry the web app had deleted: it keeps the whole entry, marked ``"deleted":
    true`` with the time of the deletion (its "Recently deleted" list shows it)."""

    section: str
    """The Journal's section ("behemoths", "culture.taboos", "nullCodes" ...)."""
    web_id: str
    """The entry's id; in a keyed section its key ("Blue 1234"), for a custom material
    its name."""
    raw: dict[str, Any]
    """The entry as the file has it, every field."""


@dataclass
class WebDocument:
    """A web-journal file, read and checked."""

    shape: str
    """"bare recipe array", "version 2" ... as a player would call it."""
    version: int
    app: str = ""
    recipes: list[WebRecipe] = field(default_factory=list)
    null_codes: list[WebNullCode] = field(default_factory=list)
    provisional: list[WebProvisional] = field(default_factory=list)
    materials: list[WebMaterial] = field(default_factory=list)
    tribe_name: str = ""
    culture_updated_at: Any = None
    """``culture.updatedAt``: when the tribe's name was last set in the Journal."""
    culture: list[WebCultureEntry] = field(default_factory=list)
    behemoths: list[WebBehemoth] = field(default_factory=list)
    challenges: list[WebChallenge] = field(default_factory=list)
    looming: list[WebLooming] = field(default_factory=list)
    investigations: list[WebInvestigation] = field(default_factory=list)
    notes: list[WebNotePage] = field(default_factory=list)
    outposts: list[WebOutpost] = field(default_factory=list)
    mantle_powers: list[WebMantlePower] = field(default_factory=list)
    codex: list[WebCodexEntry] = field(default_factory=list)
    drawings: list[WebDrawing] = field(default_factory=list)
    tombstones: list[WebTombstone] = field(default_factory=list)
    """Each entry the web app had deleted, whole."""
    leftovers: list[Leftover] = field(default_factory=list)
    deleted: int = 0
    """Entries the web app had deleted (tombstones): not imported."""
    skipped_sync: tuple[str, ...] = ()
    """The web app's own sync settings found in the file (never imported)."""
