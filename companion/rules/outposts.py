"""Outposts, structures and ruins (Rulebook: Valley > Overlays > Outposts, Building an
Outpost, Outpost Placement, Ruins; Processing & Crafting > Building Structures; D12).

The energy side of building (the action, contributions) is in :mod:`companion.rules.day`;
this module holds the outpost records and the checks that need no energy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.content.schema.rules import RulesConstants
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.ids import FeatureId, HexId, ItemId, OutpostId, StructureId, Technology
from companion.rules.inventory import ItemFacts
from companion.rules.resources import BagToken, Side, TokenKind


class FeatureAction(StrEnum):
    """The feature actions (Rulebook: Actions > Feature Actions)."""

    PREPARE_SHELTER = "prepare_shelter"
    GATHER_WATER = "gather_water"
    FORAGE = "forage"
    FISH = "fish"
    MINE = "mine"
    DELVE = "delve"


@dataclass(frozen=True)
class FeatureFacts:
    """A terrain feature; filled from Content by the operations layer."""

    id: FeatureId
    """The feature (``"forest"``, ``"cave"`` ...)."""
    open_terrain: bool = False
    """Plains and dried flats: no extra energy to cross (Rulebook: Open Terrain Features)."""
    outpost_technology: Technology | None = None
    """The technology icon an outpost over this feature needs (D12), None for none."""
    actions: frozenset[FeatureAction] = frozenset()
    """The feature actions it offers."""


class OutpostStatus(StrEnum):
    """An outpost card's status."""

    ACTIVE = "active"
    RUIN = "ruin"


@dataclass(frozen=True)
class Outpost:
    """An outpost card (Rulebook: Overlays > Outposts)."""

    id: OutpostId
    """The outpost's id."""
    name: str
    """The name the group gives it."""
    epoch: int
    """The epoch in which it was built."""
    hex: HexId
    """The hex its overlay covers a section of."""
    covers: FeatureId
    """The feature its overlay covers (now inaccessible)."""
    status: OutpostStatus = OutpostStatus.ACTIVE
    """Active, or Ruin."""
    category: str = "Village"
    """The category written on the card."""
    structures: tuple[StructureId, ...] = ()
    """Structures recorded on the card."""


@dataclass(frozen=True)
class MaterialCost:
    """One material token a structure costs."""

    name: str
    """The material."""
    processed: bool | None = None
    """Must it be processed (True), unprocessed (False) or either (None)."""

    def paid_by(self, token: BagToken) -> bool:
        """The token pays this cost."""
        if token.kind is not TokenKind.MATERIAL or token.name != self.name:
            return False
        return self.processed is None or (token.side is Side.PROCESSED) == self.processed


@dataclass(frozen=True)
class StructureFacts:
    """A structure card's back; filled from Content by the operations layer."""

    id: StructureId
    """The structure's id."""
    energy: int
    """The action's energy cost."""
    materials: tuple[MaterialCost, ...] = ()
    """Material tokens discarded to build it."""
    technologies: frozenset[Technology] = frozenset()
    """Technology icons the builder or a contributor must have."""


def has_technology(
    characters: Iterable[Character], technology: Technology, items: Mapping[ItemId, ItemFacts]
) -> bool:
    """One of ``characters`` has an item with the technology icon."""
    return any(
        technology in items[item].technologies
        for c in characters
        for item, _ in c.items
        if item in items
    )


def check_outpost_placement(
    feature: FeatureFacts, builders: Sequence[Character], items: Mapping[ItemId, ItemFacts]
) -> None:
    """An outpost over ``feature`` needs its technology among the builder and contributors.

    Rulebook: Outpost Placement (D12).
    """
    technology = feature.outpost_technology
    if technology is not None and not has_technology(builders, technology, items):
        raise IllegalAction(
            f"Outpost over {feature.id} needs a {technology}-technology item in the hex"
        )


def add_structure(rules: RulesConstants, outpost: Outpost, structure: StructureId) -> Outpost:
    """Record a structure on the outpost card; at most ``structure_limit`` (D12)."""
    if outpost.status is not OutpostStatus.ACTIVE:
        raise IllegalAction(f"{outpost.name} is a ruin")
    limit = rules.outposts.structure_limit
    if len(outpost.structures) >= limit:
        raise IllegalAction(f"{outpost.name} already has {limit} structures")
    return replace(outpost, structures=(*outpost.structures, structure))


def remove_structure(outpost: Outpost, structure: StructureId) -> Outpost:
    """Erase a structure from the outpost card when an effect removes it.

    Rulebook: Overlays > Outposts (reached by ``operations.challenge.remove_structure``).
    """
    if structure not in outpost.structures:
        raise IllegalAction(f"{outpost.name} has no structure {structure}")
    rest = list(outpost.structures)
    rest.remove(structure)
    return replace(outpost, structures=tuple(rest))


def make_ruin(outpost: Outpost) -> tuple[Outpost, tuple[StructureId, ...]]:
    """The outpost becomes a ruin; its structures return to the structure deck.

    Rulebook: Valley > Ruins.
    """
    if outpost.status is OutpostStatus.RUIN:
        raise IllegalAction(f"{outpost.name} is already a ruin")
    return replace(outpost, status=OutpostStatus.RUIN, structures=()), outpost.structures


def match_materials(costs: Sequence[MaterialCost], tokens: Sequence[BagToken]) -> None:
    """The chosen tokens pay exactly the material costs (each token one cost)."""
    left = list(tokens)
    # Costs naming a side first: a lenient cost then takes whatever side is left.
    for cost in sorted(costs, key=lambda c: c.processed is None):
        for index, token in enumerate(left):
            if cost.paid_by(token):
                del left[index]
                break
        else:
            side = {True: "processed ", False: "unprocessed ", None: ""}[cost.processed]
            raise IllegalAction(f"the materials chosen lack a {side}{cost.name}")
    if left:
        extra = ", ".join(str(t) for t in left)
        raise IllegalAction(f"the structure does not cost {extra}")
