"""Every Day action through the operations, with the cost shown, charged and journalled
(Rulebook: Game Structure > Day Actions; Actions; Building an Outpost; Building
Structures; Processing; Mantle > Exceeding Item Limits; Solo Play > Hardcore Solo)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import day as day_ops
from companion.operations.effects import apply_effects


def energy(campaign: Campaign, name: str) -> int:
    return next(c.energy for c in campaign.characters() if c.name == name)


def options(campaign: Campaign, name: str, action: str) -> list[day_ops.ActionOption]:
    return [o for o in day_ops.available_actions(campaign, name) if o.action == action]


def gain(campaign: Campaign, name: str, *effects: str) -> None:
    from companion.operations.effects import parse_effect

    apply_effects(campaign, name=name, effects=[parse_effect(e) for e in effects])


def items(campaign: Campaign, name: str) -> list[str]:
    return [str(i) for i, _ in campaign.character_detail(name).items]


def bag(campaign: Campaign, name: str) -> list[str]:
    return [str(t) for t in campaign.character_detail(name).bag]


def last_journal(campaign: Campaign) -> str:
    return campaign.journal(limit=1)[0].text


# --- Day Actions: a hex with several terrains offers each terrain's action ----------------


def test_day_actions_each_terrain_offers_its_own_action_plains_and_forest(
        demo: Campaign) -> None:
    forage = options(demo, "Ash", "forage")
    assert [(o.target, o.label, o.cost) for o in forage] == [
        ("plains", "Forage at the plains: 2 energy", 2),
        ("forest", "Forage at the forest: 2 energy", 2)]


def test_day_actions_each_terrain_offers_its_own_action_river_and_lake(demo: Campaign) -> None:
    operations.move(demo, name="Ash", to_hex="E09")  # river + lake + dried flats
    operations.draw_discovery(demo, name="Ash", card="DI01")
    operations.pass_turn(demo, name="Bryn")
    fish = options(demo, "Ash", "fish")
    assert [o.target for o in fish] == ["river", "lake"]
    assert all(o.refusal is None for o in fish)
    from companion.operations import procedures

    procedures.start_fishing(demo, name="Ash", feature="lake")
    assert procedures.in_progress(demo).kind == "fishing"


@pytest.mark.parametrize(
    ("action", "count"),
    [("move", 0), ("explore", 2), ("gather_water", 1), ("fish", 1), ("forage", 2),
     ("process", 1), ("craft", 1), ("build_outpost", 3), ("build_structure", 0),
     ("revive", 0), ("pass", 1), ("mine", 0), ("delve", 0), ("prepare_shelter", 0)],
)
def test_day_actions_every_action_here_is_listed(demo: Campaign, action: str,
                                                 count: int) -> None:
    # Rulebook: Day Actions. E01: plains, river, forest; E05 and E09 unexplored.
    assert len(options(demo, "Ash", action)) == count


# --- Hardcore Solo > Action Costs: the cost shown is the cost charged and journalled -------


@pytest.fixture
def hardcore(tmp_path: Path) -> Iterator[Campaign]:
    campaign = operations.new_campaign(tmp_path / "solo.stonesaga", society_name="Lone",
                                       players=1, characters=1, solo="hardcore", seed=3)
    region = next(iter(campaign.content.regions))
    start = operations.set_up_valley(campaign, region=region).detail[0]
    operations.start_challenge(campaign, challenge="C1")
    operations.create_character(campaign, name="Solo", player="Player 1",
                                rolled=(6, 5, 4, 3, 2), removed=4,
                                assignment={"might": 6, "dexterity": 5, "awareness": 4,
                                            "conviction": 3},
                                traits=["intrepid"], mantle=next(iter(campaign.content.mantles)),
                                hex_tile=start)
    yield campaign
    campaign.close()


@pytest.mark.parametrize(
    ("action", "shown"),
    [("explore", 1), ("gather_water", 0), ("forage", 1), ("fish", 1), ("craft", 0)],
)
def test_hardcore_solo_first_action_discount_is_shown(hardcore: Campaign, action: str,
                                                      shown: int) -> None:
    option = options(hardcore, "Solo", action)[0]
    assert option.cost == shown and option.label.endswith(f": {shown} energy")


def test_hardcore_solo_explore_charges_and_journals_the_shown_cost(hardcore: Campaign) -> None:
    option = options(hardcore, "Solo", "explore")[0]
    before = energy(hardcore, "Solo")
    operations.move(hardcore, name="Solo", to_hex=option.target)
    assert energy(hardcore, "Solo") == before - option.cost == before - 1
    # Flipped now: the journal names the tile (the button named where it lay).
    tile = next(c.hex_id for c in hardcore.characters() if c.name == "Solo")
    assert option.label.startswith(f"Explore the unexplored hex {option.target} of ")
    assert f"Explore {tile}: 1 energy" in last_journal(hardcore)
    operations.draw_discovery(hardcore, name="Solo", card="DI01")
    # The second action of the Day costs the full price again.
    assert options(hardcore, "Solo", "explore")[0].cost == 2


# --- Building an Outpost (D12) -----------------------------------------------------------


def test_building_an_outpost_energy_shared_by_the_hex(demo: Campaign) -> None:
    option = next(o for o in options(demo, "Ash", "build_outpost") if o.target == "plains")
    assert option.refusal is None and option.cost == 4
    operations.build_outpost(demo, name="Ash", feature="plains", outpost_name="Hearth",
                             contributions={"Bryn": 3})
    assert (energy(demo, "Ash"), energy(demo, "Bryn")) == (4, 2)
    assert last_journal(demo) == ("Ash built the outpost Hearth over the plains: 4 energy, "
                                  "1 from Ash and 3 from Bryn")
    assert demo.status().outposts == 1
    # The plains are covered: no foraging there, no second outpost over them.
    operations.pass_turn(demo, name="Bryn")
    assert [o.target for o in options(demo, "Ash", "forage")] == ["forest"]
    assert [o.target for o in options(demo, "Ash", "build_outpost")] == ["river", "forest"]


@pytest.mark.parametrize(
    ("feature", "refusal"),
    [("river", "no one in the hex has a Watercraft item"),
     ("forest", "no one in the hex has a Woodcraft item")],
)
def test_building_an_outpost_needs_the_technology_icon(demo: Campaign, feature: str,
                                                       refusal: str) -> None:
    option = next(o for o in options(demo, "Ash", "build_outpost") if o.target == feature)
    assert option.refusal == refusal
    before = demo.characters()
    with pytest.raises(Refused, match=f"needs a {refusal.split(' a ')[1]} in the hex"):
        operations.build_outpost(demo, name="Ash", feature=feature, outpost_name="X")
    assert demo.characters() == before


def test_building_an_outpost_with_a_contributors_technology(demo: Campaign) -> None:
    gain(demo, "Bryn", "item fire-drill")  # Woodcraft
    operations.build_outpost(demo, name="Ash", feature="forest", outpost_name="Grove",
                             contributions={"Bryn": 1})
    assert energy(demo, "Ash") == 2 and energy(demo, "Bryn") == 4


# --- Building Structures (D12: at most 5) ------------------------------------------------


def hearth(campaign: Campaign) -> None:
    operations.build_outpost(campaign, name="Ash", feature="plains", outpost_name="Hearth",
                             contributions={"Bryn": 2})


def test_building_structures_costs_materials_and_energy_from_the_hex(demo: Campaign) -> None:
    hearth(demo)
    gain(demo, "Bryn", "gain wood 1", "gain fiber 1")
    gain(demo, "Ash", "gain wood 1")
    option = next(o for o in options(demo, "Bryn", "build_structure")
                  if o.target.endswith(":drying-rack"))
    assert option.refusal is None and option.cost == 1
    day_ops.build_structure(demo, name="Bryn", structure="Drying Rack",
                            contributions={"Ash": 1})
    assert (energy(demo, "Ash"), energy(demo, "Bryn")) == (2, 3)
    assert bag(demo, "Ash") == [] and bag(demo, "Bryn") == []
    text = last_journal(demo)
    assert text.startswith("Bryn built Drying Rack at Hearth (1 energy from Ash)")
    assert "unprocessed wood from Ash" in text and "unprocessed fiber from Bryn" in text
    from companion.operations.state import load_game

    with demo.file.read() as session:
        game = load_game(session, demo.content)
    assert game.outposts[0].structures == ("drying-rack",)


def test_building_structures_refusals_change_nothing(demo: Campaign) -> None:
    hearth(demo)
    before = demo.characters()
    with pytest.raises(Refused, match="no one in the hex holds the wood"):
        day_ops.build_structure(demo, name="Bryn", structure="drying-rack")
    with pytest.raises(Refused, match="There is no structure 'hut'"):
        day_ops.build_structure(demo, name="Bryn", structure="hut")
    gain(demo, "Bryn", "gain wood 3", "gain clay 1")
    with pytest.raises(Refused, match="the Smokehouse needs a Woodcraft item in the hex"):
        day_ops.build_structure(demo, name="Bryn", structure="smokehouse")
    assert [c.energy for c in demo.characters()] == [c.energy for c in before]


def test_building_structures_at_most_five_per_outpost(demo: Campaign) -> None:
    hearth(demo)
    for turn in range(5):
        who = "Bryn" if turn % 2 == 0 else "Ash"
        gain(demo, who, "gain wood 1", "gain hide 1", "energy 1")
        day_ops.build_structure(demo, name=who, structure="tanning-frame")
    gain(demo, "Ash", "gain wood 1", "gain hide 1")
    option = next(o for o in options(demo, "Ash", "build_structure")
                  if o.target.endswith(":tanning-frame"))
    assert option.refusal == "Hearth already has 5 structures"
    with pytest.raises(Refused, match="Hearth already has 5 structures"):
        day_ops.build_structure(demo, name="Ash", structure="tanning-frame")


# --- Processing ---------------------------------------------------------------------------


def test_processing_flips_the_chosen_token(demo: Campaign) -> None:
    gain(demo, "Ash", "gain fiber 1", "item bone-needle")  # fiber needs soak
    assert options(demo, "Ash", "process")[0].refusal is None
    operations.process(demo, name="Ash", tokens=[0])
    assert bag(demo, "Ash") == ["processed fiber"] and energy(demo, "Ash") == 4


# --- Exchanges (Rulebook: Day Actions) ----------------------------------------------------


def test_exchanges_tokens_and_items_cost_no_energy_and_keep_the_order(demo: Campaign) -> None:
    gain(demo, "Ash", "gain wood 2", "item stone-knife")
    day_ops.exchange_tokens(demo, giver="Ash", receiver="Bryn", tokens=[1])
    day_ops.exchange_item(demo, giver="Ash", receiver="Bryn", item="Stone Knife")
    assert bag(demo, "Bryn") == ["unprocessed wood"] and items(demo, "Bryn") == ["stone-knife"]
    assert last_journal(demo) == "Ash gave the Stone Knife to Bryn"
    assert energy(demo, "Ash") == 5 and operations.whose_turn(demo)["last_actor"] is None


@pytest.mark.parametrize(
    ("giver", "receiver", "refusal"),
    [("Ash", "Ash", "cannot exchange with themself"),
     ("Ash", "Cai", "no character named Cai|Cai")],
)
def test_exchanges_refusals(demo: Campaign, giver: str, receiver: str, refusal: str) -> None:
    gain(demo, "Ash", "item stone-knife")
    with pytest.raises(Refused, match=refusal):
        day_ops.exchange_item(demo, giver=giver, receiver=receiver, item="stone-knife")
    assert items(demo, "Ash") == ["stone-knife"]


def test_exchanges_only_in_the_same_hex(demo: Campaign) -> None:
    gain(demo, "Ash", "gain wood 1")
    operations.move(demo, name="Ash", to_hex="E09")
    operations.draw_discovery(demo, name="Ash", card="DI01")
    with pytest.raises(Refused, match="Ash and Bryn are not in the same hex"):
        day_ops.exchange_tokens(demo, giver="Ash", receiver="Bryn", tokens=[0])


def storehouse(campaign: Campaign) -> None:
    """Hearth in E01 with a Storehouse (a storage container of 3, reading D21)."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(campaign, "storehouse")


def test_exchanges_with_an_outposts_storage(demo: Campaign) -> None:
    storehouse(demo)
    gain(demo, "Bryn", "gain wood 2", "gain fish 1")
    day_ops.store_materials(demo, name="Bryn", outpost="Hearth", tokens=[0, 1])
    assert day_ops.storage_here(demo, "Bryn")[0][1:] == ("Hearth", ["unprocessed wood"] * 2)
    assert last_journal(demo) == \
        "Bryn stored unprocessed wood, unprocessed wood at the Storehouse at Hearth"
    with pytest.raises(Refused, match="holds materials, not fish"):
        day_ops.store_materials(demo, name="Bryn", outpost="Hearth", tokens=[0])
    day_ops.retrieve_materials(demo, name="Ash", outpost="Hearth", tokens=[1])
    assert bag(demo, "Ash") == ["unprocessed wood"]
    assert day_ops.storage_here(demo, "Ash")[0][2] == ["unprocessed wood"]


# --- Mantle > Exceeding Item Limits (D11) -------------------------------------------------


def test_exceeding_item_limits_the_player_chooses_before_acting_again(demo: Campaign) -> None:
    gain(demo, "Ash", "item stone-knife", "item sling", "item pine-torch")
    assert "Ash holds 3 hand items: choose one to give to Bryn." in last_journal(demo)
    (waiting,) = day_ops.excess_items(demo)
    assert (waiting.name, waiting.slot, waiting.held, waiting.limit, waiting.room) == \
        ("Ash", "hand", 3, 2, ("Bryn",))
    with pytest.raises(Refused, match="Ash holds 3 hand items: choose one to give to Bryn"):
        operations.gather_water(demo, name="Ash")
    with pytest.raises(Refused, match="Ash holds 3 hand items"):
        operations.pass_turn(demo, name="Ash")
    assert all(o.refusal and "holds 3 hand items" in o.refusal
               for o in day_ops.available_actions(demo, "Ash"))
    with pytest.raises(Refused, match="Bryn has room for a hand item: give the Sling rather "
                                      "than lose it"):
        day_ops.settle_excess(demo, name="Ash", item="sling")
    day_ops.settle_excess(demo, name="Ash", item="Sling", to="Bryn")
    assert items(demo, "Bryn") == ["sling"]
    assert last_journal(demo) == "Ash had no room and gave the Sling to Bryn"
    assert day_ops.excess_items(demo) == []
    operations.gather_water(demo, name="Ash")


def test_exceeding_item_limits_lost_only_when_nobody_has_room(demo: Campaign) -> None:
    gain(demo, "Bryn", "item stone-knife", "item sling")
    gain(demo, "Ash", "item pine-torch", "item carving-adze", "item antler-pick")
    (waiting,) = day_ops.excess_items(demo)
    assert waiting.room == () and waiting.text == (
        "Ash holds 3 hand items: choose one to lose (no one in the hex has room)")
    with pytest.raises(Refused, match="Bryn has no free hand slot"):
        day_ops.settle_excess(demo, name="Ash", item="pine-torch", to="Bryn")
    day_ops.settle_excess(demo, name="Ash", item="pine-torch")
    assert items(demo, "Ash") == ["carving-adze", "antler-pick"]
    assert last_journal(demo) == ("Ash had no room and lost the Pine Torch (back to the item "
                                  "deck)")


def test_exceeding_item_limits_an_exchange_into_a_full_slot_asks_the_choice(
        demo: Campaign) -> None:
    gain(demo, "Bryn", "item stone-knife", "item sling")
    gain(demo, "Ash", "item pine-torch")
    with pytest.raises(Refused, match="Bryn holds 3 hand items: choose one to give to Ash"):
        day_ops.exchange_item(demo, giver="Ash", receiver="Bryn", item="pine-torch")
    assert items(demo, "Ash") == ["pine-torch"]
    day_ops.exchange_item(demo, giver="Ash", receiver="Bryn", item="pine-torch",
                          excess="sling", excess_to="Ash")
    assert items(demo, "Ash") == ["sling"]
    assert sorted(items(demo, "Bryn")) == ["pine-torch", "stone-knife"]
    assert last_journal(demo) == ("Ash gave the Pine Torch to Bryn; Bryn had no room and "
                                  "gave the Sling to Ash")


def test_exchanges_happen_during_the_day_not_at_night(demo: Campaign) -> None:
    from companion.operations import procedures

    gain(demo, "Ash", "gain wood 1")
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    procedures.start_night(demo)
    with pytest.raises(Refused, match="exchanged during the Day, not at Night"):
        day_ops.exchange_tokens(demo, giver="Ash", receiver="Bryn", tokens=[0])
    assert bag(demo, "Ash") == ["unprocessed wood"]


def test_day_actions_moving_on_waits_for_the_discovery_card(demo: Campaign) -> None:
    # Rulebook: Actions > Move; Explore: a Discovery card is drawn on arrival.
    operations.move(demo, name="Ash", to_hex="E09")
    operations.pass_turn(demo, name="Bryn")
    moves = options(demo, "Ash", "move") + options(demo, "Ash", "explore")
    assert moves and all(o.refusal == "Ash must draw a Discovery card first" for o in moves)
    operations.draw_discovery(demo, name="Ash", card="DI01")
    assert all(o.refusal is None for o in options(demo, "Ash", "explore"))


def test_exchanges_storage_keeps_a_large_token_large(demo: Campaign) -> None:
    storehouse(demo)
    large = next(m.id for m in demo.content.materials.values() if m.size == "large")
    gain(demo, "Bryn", f"gain {large} 1")
    day_ops.store_materials(demo, name="Bryn", outpost="Hearth", tokens=[0])
    day_ops.retrieve_materials(demo, name="Ash", outpost="Hearth", tokens=[0])
    (token,) = demo.character_detail("Ash").bag
    assert token.name == large and token.large


@pytest.mark.parametrize(("structures", "stored", "refusal"), [
    # An outpost with no structure is no storage container (D21): nothing goes in, so
    # 8 wood can't slip past the bag (Reconcile Inventory).
    ((), 0, "Hearth has no storage container: an outpost stores nothing by itself"),
    # A Longhouse grants shelter; its card says nothing of storing: still none.
    (("longhouse",), 0, "Hearth has no storage container"),
    # A Storehouse holds 3 (D21, D20): 3 of 4 wood fit, the 4th (3 + 1 > 3) is refused.
    (("storehouse",), 3, "holds at most 3 materials \\(3 stored, room for 0\\)"),
])
def test_day_actions_storage_containers_are_structures_that_store(
        demo: Campaign, structures: tuple[str, ...], stored: int, refusal: str) -> None:
    """Rulebook: Day Actions ("any storage container in their hex"); reading D21."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, *structures)
    gain(demo, "Bryn", "gain wood 4")
    if stored:
        day_ops.store_materials(demo, name="Bryn", outpost="Hearth", tokens=list(range(stored)))
    with pytest.raises(Refused, match=refusal):
        day_ops.store_materials(demo, name="Bryn", outpost="Hearth", tokens=[0])
    assert len(bag(demo, "Bryn")) == 4 - stored


def _outpost_overlay(campaign: Campaign) -> str | None:
    from sqlmodel import select

    from companion.store import models

    with campaign.file.read() as session:
        return session.exec(select(models.Outpost)).one().overlay_id


@pytest.mark.parametrize(("typed", "overlay", "refusal"), [
    (None, "OP1", None),           # nothing chosen: the first free overlay
    ("OP3", "OP3", None),          # by id
    ("cliff camp", "OP3", None),   # by name, any case
    ("OP9", None, "the outpost overlay 'OP9' is not free; choose OP1 Hearth Ring"),
])
def test_overlays_outposts_the_player_chooses_the_overlay(
        demo: Campaign, typed: str | None, overlay: str | None, refusal: str | None) -> None:
    """Rulebook: Overlays > Outposts ("Choose an outpost overlay that suits that outpost,
    then record that overlay's ID number on the card")."""
    kwargs = {"name": "Ash", "feature": "plains", "outpost_name": "Hearth",
              "contributions": {"Bryn": 2}, "overlay": typed}
    if refusal is not None:
        with pytest.raises(Refused, match=refusal):
            operations.build_outpost(demo, **kwargs)
        assert demo.status().outposts == 0 and energy(demo, "Ash") == 5
        return
    operations.build_outpost(demo, **kwargs)
    assert _outpost_overlay(demo) == overlay
    assert overlay not in [i for i, _ in day_ops.outpost_overlays(demo)]


@pytest.mark.parametrize("drawn", [False, True])
def test_day_actions_no_exchange_while_a_discovery_card_is_due(demo: Campaign,
                                                               drawn: bool) -> None:
    """Rulebook: Day Actions (an exchange "before and/or after any Day action"); Actions >
    Move: the move ends with its Discovery card. Ash moves to E09: an exchange is refused
    until the card is drawn; once drawn, the usual rules apply (Bryn is back in E01)."""
    gain(demo, "Ash", "gain wood 1")
    operations.move(demo, name="Ash", to_hex="E09")
    if drawn:
        operations.draw_discovery(demo, name="Ash", card="DI01")
        with pytest.raises(Refused, match="Ash and Bryn are not in the same hex"):
            day_ops.exchange_tokens(demo, giver="Ash", receiver="Bryn", tokens=[0])
        return
    with pytest.raises(Refused, match="Ash must draw a Discovery card first \\(arrived in "
                                      "E09\\): an exchange comes before or after"):
        day_ops.exchange_tokens(demo, giver="Ash", receiver="Bryn", tokens=[0])
    assert bag(demo, "Ash") == ["unprocessed wood"]
