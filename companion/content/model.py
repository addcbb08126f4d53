"""``Content``: the merged, validated, immutable content of a pack chain.

Spoilers stay sealed: the Codex (outcomes, omen entries, crafting entries) and the
set-aside goals can be looked up one entry at a time and counted, never listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Generic, TypeVar

from companion.content.schema.base import Omen, PipColour
from companion.content.schema.cards import (
    Behemoth,
    Challenge,
    CodexOmenEntry,
    CodexOutcome,
    DelvingCard,
    DiscoveryCard,
    FishingCard,
    ForageBonus,
    ForageCard,
    ForageObject,
    Goal,
    InstinctCard,
    NightCard,
    ReactionCard,
    SecretCard,
)
from companion.content.schema.pack import PackManifest
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import (
    AbilityInfo,
    CraftingEntry,
    Feature,
    Food,
    HexTile,
    Icon,
    Item,
    Mantle,
    MantlePower,
    Material,
    OmenInfo,
    Overlay,
    Region,
    Structure,
    Trait,
)

T = TypeVar("T")


class Sealed(Generic[T]):
    """Entries that may be looked up by key and counted, but never listed (spoilers)."""

    __slots__ = ("_entries", "_what")

    def __init__(self, entries: Mapping[str, T], what: str) -> None:
        self._entries = dict(entries)
        self._what = what

    def get(self, key: str) -> T | None:
        """The entry with this key, or None."""
        return self._entries.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<{len(self._entries)} sealed {self._what}>"


class CraftingResultKind(StrEnum):
    """What a crafting lookup found."""

    ITEM = "item"
    DEAD_END = "dead_end"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class CraftingResult:
    """The result of looking up a colour and code in the Codex's crafting entries."""

    kind: CraftingResultKind
    item: Item | None = None
    """The item crafted (kind ``item``)."""
    entry: CraftingEntry | None = None
    """The Codex entry (None when ``unknown``, unless the owner's pack remembers that
    their Codex has none: ``entry.no_entry``); ``entry.verified`` is False for an
    imported entry nobody has confirmed at the table yet."""

    @property
    def no_entry_known(self) -> bool:
        """The owner's Codex was read at the table and has no entry for the code."""
        return self.entry is not None and self.entry.no_entry


class CraftingTable:
    """The Codex's crafting entries: ``lookup`` only, plus a count."""

    __slots__ = ("_entries", "_items")

    def __init__(self, entries: Mapping[tuple[PipColour, str], CraftingEntry],
                 items: Mapping[str, Item]) -> None:
        self._entries = dict(entries)
        self._items = items

    def lookup(self, colour: PipColour | str, code: str | int) -> CraftingResult:
        """What ``colour`` + four-digit ``code`` crafts (Rulebook: Crafting Items).

        >>> # content.crafting.lookup("red", "1410").kind  -> CraftingResultKind.ITEM
        """
        key = (PipColour(colour), str(code))
        entry = self._entries.get(key)
        if entry is None:
            return CraftingResult(CraftingResultKind.UNKNOWN)
        if entry.no_entry:
            return CraftingResult(CraftingResultKind.UNKNOWN, entry=entry)
        if entry.dead_end:
            return CraftingResult(CraftingResultKind.DEAD_END, entry=entry)
        item = self._items[entry.item] if entry.item is not None else None
        return CraftingResult(CraftingResultKind.ITEM, item=item, entry=entry)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def unverified_count(self) -> int:
        """How many entries were imported and not yet confirmed at the table."""
        return sum(1 for entry in self._entries.values() if not entry.verified)

    def __repr__(self) -> str:
        return f"<{len(self._entries)} sealed crafting entries>"


class Codex:
    """The Codex's outcomes and omen entries: lookups only, plus counts."""

    __slots__ = ("_omen_entries", "_outcomes")

    def __init__(self, outcomes: Mapping[str, CodexOutcome],
                 omen_entries: Mapping[tuple[Omen, str], CodexOmenEntry]) -> None:
        self._outcomes = dict(outcomes)
        self._omen_entries = dict(omen_entries)

    def outcome(self, number: str | int) -> CodexOutcome | None:
        """The outcome "read entry NNN" points to (``104`` and ``"104"`` alike), or None."""
        key = f"{number:03d}" if isinstance(number, int) else number
        return self._outcomes.get(key)

    def omen_entry(self, omen: Omen | str, component_id: str) -> CodexOmenEntry | None:
        """The entry for an omen found on a component (Rulebook: Investigating Omens,
        step 4), or None: then the investigation ends."""
        return self._omen_entries.get((Omen(omen), component_id))

    @property
    def outcome_count(self) -> int:
        """How many outcomes the Codex holds."""
        return len(self._outcomes)

    @property
    def omen_entry_count(self) -> int:
        """How many omen entries the Codex holds."""
        return len(self._omen_entries)

    def __repr__(self) -> str:
        return f"<Codex: {self.outcome_count} outcomes, {self.omen_entry_count} omen entries>"


def _frozen(mapping: Mapping[str, T] | None = None) -> Mapping[str, T]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, repr=False)
class Content:
    """Everything a pack chain defines, merged and cross-checked. Immutable.

    Each component kind is a read-only mapping from ID to its (frozen) model, in the
    order the packs define them. Spoilers are sealed: ``codex``, ``crafting`` and
    ``set_aside_goals`` allow lookups and counts only.
    """

    rules: RulesConstants
    """Every rule constant (``rules.yaml``, merged key by key along the chain)."""
    packs: tuple[PackManifest, ...]
    """The pack chain, the base pack first; a campaign records ids and versions."""
    abilities: Mapping[str, AbilityInfo] = field(default_factory=_frozen)
    traits: Mapping[str, Trait] = field(default_factory=_frozen)
    omens: Mapping[str, OmenInfo] = field(default_factory=_frozen)
    mantles: Mapping[str, Mantle] = field(default_factory=_frozen)
    mantle_powers: Mapping[str, MantlePower] = field(default_factory=_frozen)
    icons: Mapping[str, Icon] = field(default_factory=_frozen)
    features: Mapping[str, Feature] = field(default_factory=_frozen)
    regions: Mapping[str, Region] = field(default_factory=_frozen)
    hexes: Mapping[str, HexTile] = field(default_factory=_frozen)
    overlays: Mapping[str, Overlay] = field(default_factory=_frozen)
    materials: Mapping[str, Material] = field(default_factory=_frozen)
    foods: Mapping[str, Food] = field(default_factory=_frozen)
    items: Mapping[str, Item] = field(default_factory=_frozen)
    structures: Mapping[str, Structure] = field(default_factory=_frozen)
    forage_objects: Mapping[str, ForageObject] = field(default_factory=_frozen)
    forage_bonuses: Mapping[str, ForageBonus] = field(default_factory=_frozen)
    fishing_cards: Mapping[str, FishingCard] = field(default_factory=_frozen)
    forage_cards: Mapping[str, ForageCard] = field(default_factory=_frozen)
    delving_cards: Mapping[str, DelvingCard] = field(default_factory=_frozen)
    discovery_cards: Mapping[str, DiscoveryCard] = field(default_factory=_frozen)
    night_cards: Mapping[str, NightCard] = field(default_factory=_frozen)
    behemoths: Mapping[str, Behemoth] = field(default_factory=_frozen)
    instinct_cards: Mapping[str, InstinctCard] = field(default_factory=_frozen)
    secret_cards: Mapping[str, SecretCard] = field(default_factory=_frozen)
    reaction_cards: Mapping[str, ReactionCard] = field(default_factory=_frozen)
    challenges: Mapping[str, Challenge] = field(default_factory=_frozen)
    goals: Mapping[str, Goal] = field(default_factory=_frozen)
    """Vital and epoch goals (open information). Set-aside goals are not here."""
    set_aside_goals: Sealed[Goal] = field(default_factory=lambda: Sealed({}, "goals"))
    """Set-aside goals: ``get(id)`` when a goal is revealed in play; never listed."""
    crafting: CraftingTable = field(default_factory=lambda: CraftingTable({}, {}))
    """The Codex's crafting entries: ``lookup(colour, code)``."""
    codex: Codex = field(default_factory=lambda: Codex({}, {}))
    """The Codex's outcomes and omen entries: ``outcome(n)``, ``omen_entry(omen, id)``."""
    pack_counts: Mapping[str, Mapping[str, int]] = field(default_factory=_frozen)
    """Per pack id: how many of the merged entries of each kind come from that pack."""

    def forage_deck(self, deck: str) -> list[ForageCard]:
        """The forage cards of one deck ("forest" or "plains")."""
        return [card for card in self.forage_cards.values() if card.deck == deck]

    def starting_hex(self, region: str) -> HexTile:
        """The starting hex of a region (the loader checks there is exactly one)."""
        for tile in self.hexes.values():
            if tile.region == region and tile.starting:
                return tile
        raise KeyError(f"region {region!r} has no starting hex")

    def counts(self) -> dict[str, int]:
        """Number of entries per component kind, sealed kinds included."""
        from companion.content.schema.pack import KINDS

        result: dict[str, int] = {}
        for kind in KINDS:
            if kind == "crafting":
                result[kind] = len(self.crafting)
            elif kind == "goals":
                result[kind] = len(self.goals) + len(self.set_aside_goals)
            elif kind == "codex_outcomes":
                result[kind] = self.codex.outcome_count
            elif kind == "codex_omen_entries":
                result[kind] = self.codex.omen_entry_count
            else:
                result[kind] = len(getattr(self, kind))
        return result

    def __repr__(self) -> str:
        chain = " > ".join(f"{p.id} {p.version}" for p in self.packs)
        return f"<Content {chain}: {sum(self.counts().values())} entries>"
