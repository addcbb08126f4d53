"""Exploring with new terrain trays and drawing Discovery cards, through the operations
(Rulebook: Actions > Explore; Move; Valley > Populating a Terrain Tray; Valley Decks >
Discovery)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from sqlmodel import select

from companion import operations
from companion.content.schema.cards import DiscoveryCard
from companion.operations import Campaign, Refused
from companion.operations import exploration as ops
from companion.operations.valley import load_valley
from companion.rules import exploration
from companion.rules.geometry import Axial
from companion.store import models


def energy(campaign: Campaign, name: str) -> int:
    return next(c.energy for c in campaign.characters() if c.name == name)


def where(campaign: Campaign, name: str) -> str | None:
    return next(c.hex_id for c in campaign.characters() if c.name == name)


def valley(campaign: Campaign) -> exploration.Valley:
    with campaign.file.read() as session:
        return load_valley(session)


def snapshot(campaign: Campaign) -> Any:
    with campaign.file.read() as session:
        deck = session.exec(select(models.DeckState)).all()
    due = ops.discovery_due(campaign)
    return (valley(campaign), campaign.characters(), campaign.status().lore,
            [(d.deck, d.draw_pile, d.discard) for d in deck], due)


def test_legal_placements_are_the_rules_placements(demo: Campaign) -> None:
    options = ops.legal_placements(demo, "Ash")
    v = valley(demo)
    rules_ones = exploration.legal_tray_placements(demo.content.rules, v, demo.content, "E01")
    assert [(o.origin, o.orientation, o.region) for o in options] == \
        [(p.origin, p.orientation, p.region) for p in rules_ones]
    assert options and all(o.entries and set(o.entries) <= set(o.cells) for o in options)


def test_new_tray_drawn_by_the_app_enters_and_flips_one_hex(demo: Campaign) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    changes = ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                                   orientation=option.orientation, enter=option.entries[-1])
    after = valley(demo)
    drawn = tuple(after.tiles[c] for c in option.cells)
    assert len(drawn) == 3 and all(drawn)
    assert len(after.trays) == 2 and after.trays[1].region == option.region
    entered = after.tiles[option.entries[-1]]
    assert where(demo, "Ash") == entered and after.is_explored(option.entries[-1])
    assert sum(1 for c in option.cells if after.is_explored(c)) == 1
    assert energy(demo, "Ash") == 5 - demo.content.rules.action_costs.explore
    assert ops.discovery_due(demo) == {"character": "Ash", "hex": entered, "set_aside": []}
    # Valley > Hexes: the tiles the app drew stay unnamed until flipped; the flipped one
    # is named (Issue 27 item 9).
    text = demo.journal(1)[0].text
    assert entered in text and not any(t in text for t in drawn if t != entered)
    assert changes.detail == (entered,)  # the result names only the flipped tile
    # the draws come from the region's bag: none of the first tray's tiles
    first = {t for c, t in after.tiles.items() if c not in option.cells}
    assert not set(drawn) & first


def test_same_seed_same_draw_app_mode_replays(tmp_path: Any) -> None:
    draws = []
    for n in range(2):
        campaign = operations.create_demo_campaign(tmp_path / f"r{n}.stonesaga")
        option = ops.legal_placements(campaign, "Ash")[0]
        draws.append(ops.explore_new_tray(campaign, name="Ash", origin=option.origin,
                                          orientation=option.orientation).detail)
        campaign.close()
    assert draws[0] == draws[1]


def test_new_tray_typed_from_the_table(demo: Campaign) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    bag = exploration.region_bag(valley(demo), demo.content, option.region)
    tiles = bag[:3]
    entry_slot = option.cells.index(option.entries[0])
    ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                         orientation=option.orientation, tiles=tiles,
                         enter=tiles[entry_slot])
    after = valley(demo)
    assert [after.tiles[c] for c in option.cells] == tiles
    assert where(demo, "Ash") == tiles[entry_slot]


@pytest.mark.parametrize("case", ["not touching", "overlap", "placed tile", "starting hex",
                                  "wrong region", "two tiles", "not adjacent entry",
                                  "bad orientation"])
def test_refused_placements_change_nothing(demo: Campaign, case: str) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    bag = exploration.region_bag(valley(demo), demo.content, option.region)
    placed = next(t for t in valley(demo).tiles.values() if t != "E01")
    args: dict[str, Any] = {"name": "Ash", "origin": option.origin,
                            "orientation": option.orientation}
    if case == "not touching":
        args["origin"] = (7, 7)
    elif case == "overlap":
        args["origin"] = (0, 0)
    elif case == "placed tile":
        args["tiles"] = [placed, bag[0], bag[1]]
    elif case == "starting hex":
        args["tiles"] = ["E01", bag[0], bag[1]]
    elif case == "wrong region":
        args["tiles"] = ["T02", bag[0], bag[1]]
    elif case == "two tiles":
        args["tiles"] = bag[:2]
    elif case == "not adjacent entry":
        far = next(c for c in option.cells if c not in option.entries)
        args["enter"] = far
    else:
        args["orientation"] = "north"
    before = snapshot(demo)
    events = len(demo.journal())
    with pytest.raises(Refused):
        ops.explore_new_tray(demo, **args)
    assert snapshot(demo) == before
    assert len(demo.journal()) == events


def test_a_second_action_in_a_row_is_refused(demo: Campaign) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                         orientation=option.orientation)
    ops.draw_discovery(demo, name="Ash", card="DI04")
    before = snapshot(demo)
    again = ops.legal_placements(demo, "Ash")
    with pytest.raises(Refused, match="Bryn must act or pass first"):
        ops.explore_new_tray(demo, name="Ash", origin=again[0].origin,
                             orientation=again[0].orientation)
    assert snapshot(demo) == before


def test_region_limits_no_new_region_before_three_trays(demo: Campaign) -> None:
    option = ops.legal_placements(demo, "Ash")[0]
    assert {o.region for o in ops.legal_placements(demo, "Ash")} == {"emberfen"}
    with pytest.raises(Refused, match="only after that"):
        ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                             orientation=option.orientation, region="thornspire")


def test_region_limits_a_full_region_takes_no_more_trays(demo: Campaign) -> None:
    # Ash explores two more emberfen trays (9 tiles: the region is full).
    for actor, other in (("Ash", "Bryn"), ("Bryn", "Ash")):
        option = next(o for o in ops.legal_placements(demo, actor) if o.region == "emberfen")
        ops.explore_new_tray(demo, name=actor, origin=option.origin,
                             orientation=option.orientation)
        ops.draw_discovery(demo, card="DI04")
        del other
    v = valley(demo)
    assert len(v.trays_of("emberfen")) == 3
    regions = {o.region for o in ops.legal_placements(demo, "Ash")}
    assert "emberfen" not in regions
    option = ops.legal_placements(demo, "Ash")[0]
    with pytest.raises(Refused, match="at most|unused tiles"):
        ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                             orientation=option.orientation, region="emberfen")
    ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                         orientation=option.orientation, region="thornspire")
    assert valley(demo).trays[-1].region == "thornspire"
    assert not {"T01"} & set(valley(demo).tiles.values())  # no starting hex from the bag


def test_undo_of_an_exploration_restores_everything(demo: Campaign) -> None:
    before = snapshot(demo)
    option = ops.legal_placements(demo, "Ash")[0]
    ops.explore_new_tray(demo, name="Ash", origin=option.origin,
                         orientation=option.orientation)
    assert snapshot(demo) != before
    operations.undo(demo)
    assert snapshot(demo) == before
    operations.redo(demo)
    assert len(valley(demo).trays) == 2


def test_move_and_discover_records_the_due_discovery(demo: Campaign) -> None:
    target = next(o.target for o in operations.available_actions(demo, "Ash")
                  if o.action == "explore")
    assert target in ("north-east", "south-east")  # a face-down hex: the way it lies
    ops.move_and_discover(demo, name="Ash", to_hex=target)
    assert ops.discovery_due(demo) == {"character": "Ash", "hex": where(demo, "Ash"),
                                       "set_aside": []}
    operations.pass_turn(demo, name="Bryn")
    with pytest.raises(Refused, match="Discovery"):
        ops.move_and_discover(demo, name="Ash", to_hex="E01")
    operations.undo(demo)
    operations.undo(demo)
    assert ops.discovery_due(demo) is None and where(demo, "Ash") == "E01"


def test_discovery_typed_resolves_its_effects(demo: Campaign) -> None:
    target = next(o.target for o in operations.available_actions(demo, "Ash")
                  if o.action == "explore")
    ops.move_and_discover(demo, name="Ash", to_hex=target)
    lore = demo.status().lore
    changes = ops.draw_discovery(demo, card="DI04")  # Old Trail: gain 1 lore
    assert demo.status().lore == lore + 1
    assert ops.discovery_due(demo) is None
    assert "Old Trail" in changes.summary and "Old Trail" in demo.journal(1)[0].text
    with demo.file.read() as session:
        deck = session.exec(select(models.DeckState).where(
            models.DeckState.deck == "discovery")).one()
        assert "DI04" in deck.discard and "DI04" not in deck.draw_pile


def test_discovery_test_effect_uses_the_typed_die(demo: Campaign) -> None:
    ops.move_and_discover(demo, name="Ash", to_hex=next(
        o.target for o in operations.available_actions(demo, "Ash") if o.action == "explore"))
    # Thin Ice: dexterity test 6+, failure: a minor injury. Ash's dexterity + 1 >= 6?
    dexterity = next(c.dexterity for c in demo.characters() if c.name == "Ash")
    roll = 1
    changes = ops.draw_discovery(demo, card="DI02", rolls=[roll])
    injured = bool(next(c.health for c in demo.characters() if c.name == "Ash"))
    assert injured == (roll + dexterity < 6)
    assert changes.detail[2] == (roll,)  # type: ignore[index]


def test_discovery_drawn_by_the_app_from_the_persisted_deck(demo: Campaign) -> None:
    ops.move_and_discover(demo, name="Ash", to_hex=next(
        o.target for o in operations.available_actions(demo, "Ash") if o.action == "explore"))
    changes = ops.draw_discovery(demo)
    card = changes.detail[0]  # type: ignore[index]
    assert card in demo.content.discovery_cards
    with demo.file.read() as session:
        deck = session.exec(select(models.DeckState).where(
            models.DeckState.deck == "discovery")).one()
        assert deck.discard == [card]
        assert sorted([*deck.draw_pile, card]) == sorted(demo.content.discovery_cards)


def _with_card(campaign: Campaign, card: DiscoveryCard, *, only: bool = False) -> None:
    cards = {} if only else dict(campaign.content.discovery_cards)
    cards[card.id] = card
    campaign.content = dataclasses.replace(campaign.content, discovery_cards=cards)


def test_unmet_discovery_is_set_aside_and_the_next_drawn(demo: Campaign) -> None:
    toll = DiscoveryCard.model_validate({"id": "DX1", "name": "Toll", "text": "Pay a wood.",
                                         "effects": [{"do": "lose", "resource": "wood"}]})
    _with_card(demo, toll)
    ops.move_and_discover(demo, name="Ash", to_hex=next(
        o.target for o in operations.available_actions(demo, "Ash") if o.action == "explore"))
    # typed: the table drew Toll; Ash carries no wood, so it is set aside and still due
    before = demo.characters()
    changes = ops.draw_discovery(demo, card="DX1")
    assert "cannot be resolved" in changes.summary
    assert demo.characters() == before
    assert ops.discovery_due(demo)["set_aside"] == ["DX1"]  # type: ignore[index]
    ops.draw_discovery(demo, card="DI04")
    assert ops.discovery_due(demo) is None
    with demo.file.read() as session:
        deck = session.exec(select(models.DeckState).where(
            models.DeckState.deck == "discovery")).one()
        assert deck.discard == ["DX1", "DI04"]


def test_app_draw_sets_aside_unmet_cards(demo: Campaign) -> None:
    toll = DiscoveryCard.model_validate({"id": "DX1", "name": "Toll", "text": "Pay a wood.",
                                         "effects": [{"do": "lose", "resource": "wood"}]})
    _with_card(demo, toll)
    with demo.write("test.deck", "stack the deck") as session:
        session.add(models.DeckState(deck="discovery", draw_pile=["DX1", "DI04"], discard=[]))
    ops.move_and_discover(demo, name="Ash", to_hex=next(
        o.target for o in operations.available_actions(demo, "Ash") if o.action == "explore"))
    changes = ops.draw_discovery(demo)
    assert changes.detail[:2] == ("DI04", ("DX1",))  # type: ignore[index]
    assert "Toll (DX1) cannot be resolved" in changes.summary


def test_a_discovery_with_no_one_due_needs_a_name(demo: Campaign) -> None:
    with pytest.raises(Refused, match="no Discovery card is due"):
        ops.draw_discovery(demo)
    with pytest.raises(Refused, match="XX is not a Discovery card of this campaign"):
        ops.draw_discovery(demo, name="Ash", card="XX")
    assert Axial(0, 0) in valley(demo).tiles


# --- Valley > Overlays: a game effect places an overlay ----------------------------------


def _start_hex(campaign: Campaign) -> str:
    start = where(campaign, "Ash")
    assert start is not None
    return start


def test_valley_overlays_a_game_effect_covers_a_section_and_undo_takes_it_off(
    demo: Campaign,
) -> None:
    start = _start_hex(demo)
    changes = ops.place_overlay(demo, hex_id=start, section="B", overlay="rockfall")
    assert changes.valley and "Rockfall covers section B" in changes.summary
    assert valley(demo).overlays[(exploration.HexId(start), "b")] == "rockfall"
    with demo.file.read() as session:
        row = session.exec(select(models.Overlay)).one()
    assert (row.overlay_id, row.kind, row.section) == ("rockfall", "other", "b")
    operations.undo(demo)
    assert valley(demo).overlays == {}


@pytest.mark.parametrize(
    ("section", "overlay", "message"),
    [
        ("b", "nowhere", "There is no overlay 'nowhere'"),
        ("b", "OP1", "Hearth Ring is placed by building the outpost"),
        ("b", "rimeback-lair", "placed by setting up the behemoth"),
        ("d", "rockfall", "A hex's sections are A, B and C"),
    ],
)
def test_valley_overlays_refusals_change_nothing(
    demo: Campaign, section: str, overlay: str, message: str
) -> None:
    before = snapshot(demo)
    with pytest.raises(Refused, match=message):
        ops.place_overlay(demo, hex_id=_start_hex(demo), section=section, overlay=overlay)
    assert snapshot(demo) == before


def test_valley_overlays_each_overlay_once_and_a_section_once(demo: Campaign) -> None:
    start = _start_hex(demo)
    ops.place_overlay(demo, hex_id=start, section="a", overlay="rockfall")
    with pytest.raises(Refused, match="Rockfall is already in the valley"):
        ops.place_overlay(demo, hex_id=start, section="c", overlay="rockfall")
