"""Facts from content: what the rules need about terrain features, items and structures,
filled from the campaign's content pack, so the rules never read content themselves. The
Day's actions, exploring, crafting, the activities, a challenge's steps and the Night all
read them."""

from __future__ import annotations

from companion.operations.changes import Refused
from companion.operations.core import Campaign
from companion.rules.game import Game
from companion.rules.ids import Icon, ItemId, StructureId, Technology
from companion.rules.inventory import ItemFacts
from companion.rules.outposts import FeatureAction, FeatureFacts, MaterialCost, StructureFacts


def feature_facts(campaign: Campaign, feature_id: str) -> FeatureFacts:
    """What the rules need of a terrain feature."""
    feature = campaign.content.features[feature_id]
    return FeatureFacts(
        id=feature.id,  # type: ignore[arg-type]
        open_terrain=feature.open_terrain,
        outpost_technology=Technology(feature.outpost_technology)
        if feature.outpost_technology else None,
        actions=frozenset(FeatureAction(a.action.value) for a in feature.actions),
    )


def item_facts(campaign: Campaign) -> dict[ItemId, ItemFacts]:
    """Every item card of the pack, as the rules see it."""
    return {
        ItemId(item.id): ItemFacts(
            id=ItemId(item.id), slot=item.slot,
            technologies=frozenset(Technology(t) for t in item.technologies),
            processing_icons=tuple(Icon(i) for i in item.provides),
        )
        for item in campaign.content.items.values()
    }


def structure_facts(campaign: Campaign, structure_id: str) -> StructureFacts:
    """A structure card's back (cost, technology), as the rules see it."""
    structure = campaign.content.structures.get(structure_id)
    if structure is None:
        raise Refused(f"There is no structure '{structure_id}' in the content pack.")
    costs = tuple(MaterialCost(material) for material, count in
                  structure.cost.materials.items() for _ in range(count))
    return StructureFacts(id=StructureId(structure.id), energy=structure.cost.energy,
                          materials=costs,
                          technologies=frozenset(Technology(t) for t in structure.requires))


def hex_features(campaign: Campaign, game: Game, tile: str | None) -> list[str]:
    """Features of a hex that are usable now (not covered by an outpost overlay)."""
    if tile is None or tile not in campaign.content.hexes:
        return []
    covered = {o.covers for o in game.outposts if o.hex == tile}
    return [f for f in campaign.content.hexes[tile].sections.values()
            if f is not None and str(f) not in covered]
