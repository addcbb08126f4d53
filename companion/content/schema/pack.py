"""A pack's manifest (``pack.yaml``) and the shape of its component files.

Every YAML file of a pack other than ``pack.yaml`` and ``rules.yaml`` is a mapping from
component kind to a list of entries, so a pack may spread a kind over several files
(``cards/night.yaml``, ``cards/night-extra.yaml``) or keep small kinds together::

    materials:
      - {id: flint, name: Flint, ...}
    foods:
      - {id: fish, name: Fish, kind: perishable}
"""

from __future__ import annotations

from pydantic import Field, field_validator

from companion.content.schema.base import ComponentId, PackModel
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


class PackManifest(PackModel):
    """``pack.yaml``: who the pack is, and the pack it builds on."""

    id: ComponentId
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    extends: ComponentId | None = None
    description: str = ""
    replaces: tuple[str, ...] = Field(
        default=(), description="component kinds whose entries replace, as a whole, those "
        "of the packs this one extends (the sample's invented mantles stand instead of "
        "the rulebook's)")
    whole_decks: tuple[str, ...] = Field(
        default=(), description="the decks (night_cards, discovery_cards ...) this pack "
        "holds whole, every card of the box's deck: only from such a deck does the app "
        "draw in the app; any other deck is drawn at the table and its card typed")

    @field_validator("replaces", "whole_decks")
    @classmethod
    def _known_kinds(cls, kinds: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [k for k in kinds if k not in PackFile.model_fields]
        if unknown:
            raise ValueError(f"unknown component kind {unknown[0]!r}; a pack holds: "
                             + ", ".join(PackFile.model_fields))
        return kinds


class PackFile(PackModel):
    """One component file of a pack: any of these kinds, each a list of entries."""

    abilities: tuple[AbilityInfo, ...] = ()
    traits: tuple[Trait, ...] = ()
    omens: tuple[OmenInfo, ...] = ()
    mantles: tuple[Mantle, ...] = ()
    mantle_powers: tuple[MantlePower, ...] = ()
    icons: tuple[Icon, ...] = ()
    features: tuple[Feature, ...] = ()
    regions: tuple[Region, ...] = ()
    hexes: tuple[HexTile, ...] = ()
    overlays: tuple[Overlay, ...] = ()
    materials: tuple[Material, ...] = ()
    foods: tuple[Food, ...] = ()
    items: tuple[Item, ...] = ()
    structures: tuple[Structure, ...] = ()
    crafting: tuple[CraftingEntry, ...] = ()
    forage_objects: tuple[ForageObject, ...] = ()
    forage_bonuses: tuple[ForageBonus, ...] = ()
    fishing_cards: tuple[FishingCard, ...] = ()
    forage_cards: tuple[ForageCard, ...] = ()
    delving_cards: tuple[DelvingCard, ...] = ()
    discovery_cards: tuple[DiscoveryCard, ...] = ()
    night_cards: tuple[NightCard, ...] = ()
    behemoths: tuple[Behemoth, ...] = ()
    instinct_cards: tuple[InstinctCard, ...] = ()
    secret_cards: tuple[SecretCard, ...] = ()
    reaction_cards: tuple[ReactionCard, ...] = ()
    challenges: tuple[Challenge, ...] = ()
    goals: tuple[Goal, ...] = ()
    codex_outcomes: tuple[CodexOutcome, ...] = ()
    codex_omen_entries: tuple[CodexOmenEntry, ...] = ()


#: Component kinds, in the order they are listed and counted.
KINDS: tuple[str, ...] = tuple(PackFile.model_fields)


def _entry_model(kind: str) -> type[PackModel]:
    annotation = PackFile.model_fields[kind].annotation
    model: type[PackModel] = annotation.__args__[0]  # type: ignore[union-attr]
    return model


#: The model of one entry of each kind.
KIND_MODELS: dict[str, type[PackModel]] = {kind: _entry_model(kind) for kind in KINDS}
