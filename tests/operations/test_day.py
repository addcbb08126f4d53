"""Day actions through the operations (Rulebook: Game Structure > Day Phase; Actions)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused


def energy(campaign: Campaign, name: str) -> int:
    return next(c.energy for c in campaign.characters() if c.name == name)


def first(campaign: Campaign, name: str, action: str) -> operations.day.ActionOption:
    return next(o for o in operations.available_actions(campaign, name) if o.action == action)


def test_actions_explore_costs_2_and_flips_the_hex(demo: Campaign) -> None:
    option = first(demo, "Ash", "explore")
    assert option.cost == 2 and option.refusal is None
    operations.move(demo, name="Ash", to_hex=option.target)
    assert energy(demo, "Ash") == 3
    hexes = {h.tile_id: h for h in demo.valley()[0].hexes}
    # The face-down hex is offered by the way it lies (Valley > Hexes), not its tile.
    assert option.target in ("north-east", "south-east") and "E0" not in option.label
    entered = next(c.hex_id for c in demo.characters() if c.name == "Ash")
    assert entered != "E01" and hexes[str(entered)].explored


def test_action_order_no_character_acts_twice_in_a_row(demo: Campaign) -> None:
    target = first(demo, "Ash", "explore").target
    operations.move(demo, name="Ash", to_hex=target)
    operations.draw_discovery(demo, name="Ash")
    before = demo.characters()
    with pytest.raises(Refused, match="Bryn must act or pass first"):
        operations.gather_water(demo, name="Ash")
    assert demo.characters() == before
    operations.pass_turn(demo, name="Bryn")
    operations.move(demo, name="Ash", to_hex=demo.valley()[0].hexes[0].tile_id)
    assert operations.whose_turn(demo)["passed"] == ["Bryn"]


def test_explore_a_discovery_card_is_drawn_on_arrival_before_moving_on(demo: Campaign) -> None:
    target = first(demo, "Ash", "explore").target
    operations.move(demo, name="Ash", to_hex=target)
    assert operations.discovery_due(demo)["character"] == "Ash"
    operations.pass_turn(demo, name="Bryn")
    with pytest.raises(Refused, match="Ash must draw a Discovery card first"):
        operations.move(demo, name="Ash", to_hex=demo.valley()[0].hexes[0].tile_id)
    operations.draw_discovery(demo, name="Ash")
    assert operations.discovery_due(demo) is None


def test_actions_move_back_to_an_explored_hex_costs_1(demo: Campaign) -> None:
    start = demo.valley()[0].hexes[0].tile_id
    target = first(demo, "Ash", "explore").target
    operations.move(demo, name="Ash", to_hex=target)
    operations.draw_discovery(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    option = next(o for o in operations.available_actions(demo, "Ash") if o.target == start)
    assert option.action == "move"
    before = energy(demo, "Ash")
    operations.move(demo, name="Ash", to_hex=start)
    assert energy(demo, "Ash") == before - option.cost


def test_feature_actions_gather_water_gains_two_water(demo: Campaign) -> None:
    assert first(demo, "Ash", "gather_water").cost == 1
    operations.gather_water(demo, name="Ash")
    assert energy(demo, "Ash") == 4


def test_not_enough_energy_is_refused_in_game_words(demo: Campaign) -> None:
    from companion.operations.effects import apply_effects

    apply_effects(demo, name="Ash", effects=[{"do": "energy", "amount": -5}])
    assert energy(demo, "Ash") == 0
    with pytest.raises(Refused, match="Ash has 0 energy; Gather Water costs 1"):
        operations.gather_water(demo, name="Ash")


def test_prepare_shelter_needs_a_cave(demo: Campaign) -> None:
    with pytest.raises(Refused, match="nowhere to prepare shelter"):
        operations.prepare_shelter(demo, name="Ash")


def test_every_day_action_is_undoable(demo: Campaign) -> None:
    before = (demo.characters(), demo.valley())
    operations.move(demo, name="Ash", to_hex=first(demo, "Ash", "explore").target)
    operations.undo(demo)
    assert (demo.characters(), demo.valley()) == before
    operations.redo(demo)
    assert energy(demo, "Ash") == 3
