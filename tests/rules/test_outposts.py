"""Rulebook: Valley > Outposts, Building an Outpost, Outpost Placement, Ruins; Processing &
Crafting > Building Structures (reading D12)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.content.schema.base import Slot
from companion.content.schema.rules import RulesConstants
from companion.rules.day import build_outpost, build_structure
from companion.rules.errors import IllegalAction
from companion.rules.game import Game
from companion.rules.ids import FeatureId, HexId, ItemId, OutpostId, StructureId, Technology
from companion.rules.inventory import ItemFacts
from companion.rules.outposts import (
    FeatureFacts,
    MaterialCost,
    Outpost,
    OutpostStatus,
    StructureFacts,
    add_structure,
    make_ruin,
    remove_structure,
)
from companion.rules.resources import BagToken, Side, TokenKind
from tests.rules.factories import make

H1, H2 = HexId("H1"), HexId("H2")
WOOD, STONE = Technology("wood"), Technology("stone")
AXE = ItemFacts(ItemId("axe"), Slot.HAND, technologies=frozenset({WOOD}))
ITEMS = {AXE.id: AXE}
FOREST = FeatureFacts(FeatureId("forest"), outpost_technology=WOOD)
PLAINS = FeatureFacts(FeatureId("plains"), open_terrain=True)
MOUNTAIN = FeatureFacts(FeatureId("mountain"), outpost_technology=STONE)


def game(**ash: object) -> Game:
    return Game((make("Ash", **ash), make("Bryn"), make("Tam")))


def outpost(
    g: Game,
    covers: FeatureFacts,
    contributions: dict[str, int] | None = None,
    rules: RulesConstants | None = None,
) -> Game:
    assert rules is not None
    return build_outpost(
        rules,
        g,
        "Ash",
        outpost_id=OutpostId("o1"),
        outpost_name="Hearth",
        epoch=1,
        covers=covers,
        items=ITEMS,
        contributions=contributions,
    )


@pytest.mark.parametrize(
    ("contributions", "ash", "bryn", "tam"),
    [
        (None, 0, 4, 4),
        ({"Bryn": 1}, 1, 3, 4),
        ({"Bryn": 2, "Tam": 2}, 4, 2, 2),
        ({"Bryn": 1, "Tam": 1}, 2, 3, 3),
    ],
)
def test_building_an_outpost_4_energy_shared_by_the_hex_d12(
    rules: RulesConstants, contributions: dict[str, int] | None, ash: int, bryn: int, tam: int
) -> None:
    g = outpost(game(), PLAINS, contributions, rules)
    assert [c.energy for c in g.characters] == [ash, bryn, tam]
    built = g.outpost(OutpostId("o1"))
    assert (built.hex, built.covers, built.status, built.epoch) == (
        H1,
        "plains",
        OutpostStatus.ACTIVE,
        1,
    )


def test_building_an_outpost_energy_short(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="^Ash has 3 energy; Build Outpost costs 4$"):
        outpost(game(energy=3), PLAINS, None, rules)


@pytest.mark.parametrize(
    ("contributions", "message"),
    [
        ({"Bryn": 5}, "an outpost costs 4 energy; 5 contributed"),
        ({"Ash": 1}, "only other characters contribute"),
        ({"Bryn": 5, "Tam": 0}, "5 contributed"),
    ],
)
def test_building_an_outpost_contributions_refused(
    rules: RulesConstants, contributions: dict[str, int], message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        outpost(game(), PLAINS, contributions, rules)


def test_building_an_outpost_contributor_must_share_the_hex(rules: RulesConstants) -> None:
    g = game()
    g = g.with_characters(replace(g.character("Bryn"), hex=H2))
    with pytest.raises(IllegalAction, match="Bryn is not in Ash's hex"):
        outpost(g, PLAINS, {"Bryn": 1}, rules)


def test_outpost_placement_forest_needs_wood_technology_d12(rules: RulesConstants) -> None:
    with pytest.raises(
        IllegalAction, match="^Outpost over forest needs a wood-technology item in the hex$"
    ):
        outpost(game(), FOREST, None, rules)
    assert outpost(game(items=((AXE.id, Slot.HAND),)), FOREST, None, rules).outposts


def test_outpost_placement_technology_from_a_contributor(rules: RulesConstants) -> None:
    g = game()
    g = g.with_characters(replace(g.character("Bryn"), items=((AXE.id, Slot.HAND),)))
    with pytest.raises(IllegalAction, match="wood-technology"):
        outpost(g, FOREST, None, rules)  # Bryn is in the hex but does not contribute
    assert outpost(g, FOREST, {"Bryn": 1}, rules).outposts
    with pytest.raises(IllegalAction, match="stone-technology"):
        outpost(g, MOUNTAIN, {"Bryn": 1}, rules)


HUT = StructureFacts(
    StructureId("hut"),
    energy=2,
    materials=(MaterialCost("wood", processed=True), MaterialCost("fiber")),
)
P_WOOD = BagToken(TokenKind.MATERIAL, "wood", Side.PROCESSED)
FIBER = BagToken.material("fiber")
HEARTH = Outpost(OutpostId("o1"), "Hearth", 1, H1, FeatureId("plains"))


def site(*structures: str, **ash: object) -> Game:
    g = game(**ash)
    o = replace(HEARTH, structures=tuple(StructureId(s) for s in structures))
    return replace(g, outposts=(o,))


def structure(rules: RulesConstants, g: Game, s: StructureFacts = HUT, **kw: object) -> Game:
    return build_structure(rules, g, "Ash", outpost=HEARTH.id, structure=s, items=ITEMS, **kw)  # type: ignore[arg-type]


def test_building_structures_materials_and_energy_from_the_hex(rules: RulesConstants) -> None:
    g = site(bag=(P_WOOD,))
    g = g.with_characters(replace(g.character("Bryn"), bag=(FIBER,)))
    g = structure(rules, g, materials={"Ash": [0], "Bryn": [0]}, contributions={"Tam": 1})
    assert g.outpost(HEARTH.id).structures == ("hut",)
    assert [(c.energy, c.bag) for c in g.characters] == [(3, ()), (4, ()), (3, ())]


@pytest.mark.parametrize(
    ("bag", "chosen", "message"),
    [
        ((P_WOOD,), [0], "lack a fiber"),
        ((BagToken.material("wood"), FIBER), [0, 1], "lack a processed wood"),
        ((P_WOOD, FIBER, FIBER), [0, 1, 2], "does not cost unprocessed fiber"),
    ],
)
def test_building_structures_material_costs_exact(
    rules: RulesConstants, bag: tuple[BagToken, ...], chosen: list[int], message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        structure(rules, site(bag=bag), materials={"Ash": chosen})


def test_building_structures_at_most_5_per_outpost_d12(rules: RulesConstants) -> None:
    g = site("a", "b", "c", "d", "e", bag=(P_WOOD, FIBER))
    with pytest.raises(IllegalAction, match="Hearth already has 5 structures"):
        structure(rules, g, materials={"Ash": [0, 1]})
    assert (
        len(
            add_structure(
                rules, replace(HEARTH, structures=(StructureId("a"),) * 4), StructureId("f")
            ).structures
        )
        == 5
    )


def test_building_structures_technology_from_builder_or_contributor(
    rules: RulesConstants,
) -> None:
    kiln = StructureFacts(StructureId("kiln"), energy=1, technologies=frozenset({WOOD}))
    with pytest.raises(IllegalAction, match="kiln needs a wood-technology item"):
        structure(rules, site(), kiln)
    assert structure(rules, site(items=((AXE.id, Slot.HAND),)), kiln).outposts[0].structures


def test_building_structures_outpost_in_hex_and_active(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="not in Ash's hex"):
        structure(rules, site(hex=H2), materials={})
    ruined = replace(
        site(bag=(P_WOOD, FIBER)), outposts=(replace(HEARTH, status=OutpostStatus.RUIN),)
    )
    with pytest.raises(IllegalAction, match="Hearth is a ruin"):
        structure(rules, ruined, materials={"Ash": [0, 1]})


def test_ruins_structures_returned() -> None:
    o = replace(HEARTH, structures=(StructureId("hut"), StructureId("kiln")))
    ruin, returned = make_ruin(o)
    assert (ruin.status, ruin.structures, returned) == (OutpostStatus.RUIN, (), ("hut", "kiln"))
    with pytest.raises(IllegalAction, match="already a ruin"):
        make_ruin(ruin)


def test_outposts_structure_removed_from_card() -> None:
    o = replace(HEARTH, structures=(StructureId("hut"),))
    assert remove_structure(o, StructureId("hut")).structures == ()
    with pytest.raises(IllegalAction):
        remove_structure(o, StructureId("kiln"))
