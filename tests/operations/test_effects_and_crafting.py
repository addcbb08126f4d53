"""Effects typed at the table, and crafting (Rulebook: Crafting Items; Using the Codex >
Crafting Entries) through the operations."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations.crafting import craft, crafting_explorer, held_materials, pair_codes
from companion.operations.effects import apply_effects, parse_effect
from companion.rules.crafting import DiscoveryKind


def ash(campaign: Campaign) -> operations.queries.CharacterSummary:
    return next(c for c in campaign.characters() if c.name == "Ash")


@pytest.mark.parametrize(
    ("typed", "data"),
    [
        ("gain wood 2", {"do": "gain", "resource": "wood", "amount": 2}),
        ("suffer minor_injury", {"do": "suffer", "token": "minor_injury"}),
        ("suffer major injury 2", {"do": "suffer", "token": "major_injury", "amount": 2}),
        ("suffer Minor-Disease", {"do": "suffer", "token": "minor_disease"}),
        ("energy -1", {"do": "energy", "amount": -1}),
        ("read 104", {"do": "read", "outcome": "104"}),
    ],
)
def test_effects_typed_in_short_form(typed: str, data: dict[str, object]) -> None:
    assert parse_effect(typed) == data


def test_effects_from_a_card_read_at_the_table(demo: Campaign) -> None:
    changes = apply_effects(demo, name="Ash", source="a Discovery card", effects=[
        parse_effect("suffer minor_injury"), parse_effect("energy -2"),
        parse_effect("lore 1"), parse_effect("unrest 1")])
    assert "a Discovery card" in changes.summary
    assert ash(demo).health == ("minor_injury",) and ash(demo).energy == 3
    assert (demo.status().lore, demo.status().unrest) == (1, 1)
    operations.undo(demo)
    assert ash(demo).health == () and demo.status().lore == 0


@pytest.mark.parametrize("bad", [[{"do": "fly"}], [], [{"do": "test", "ability": "might",
                                                        "difficulty": 8}]])
def test_effects_outside_the_vocabulary_are_refused(demo: Campaign, bad: list) -> None:
    before = demo.status().journal_events
    with pytest.raises(Refused):
        apply_effects(demo, name="Ash", effects=bad)
    assert demo.status().journal_events == before


@pytest.mark.parametrize("typed", ["suffer death", "suffer", "suffer major injury 0"])
def test_mantle_health_track_suffering_outside_the_track_is_refused_in_game_words(
        typed: str) -> None:
    with pytest.raises(Refused) as refused:
        parse_effect(typed)
    said = str(refused.value)
    assert "Input should be" not in said
    assert ("a minor injury, a major injury, a minor disease or a major disease" in said
            or "suffer at least 1" in said)


def test_mantle_health_track_suffer_death_names_what_can_be_suffered() -> None:
    with pytest.raises(Refused) as refused:
        parse_effect("suffer death")
    assert str(refused.value) == (
        "A character cannot suffer 'death': what is suffered is a minor injury, a major "
        "injury, a minor disease or a major disease (e.g. 'suffer major injury').")


def test_mantle_health_track_a_bad_token_given_as_data_is_refused(demo: Campaign) -> None:
    before = demo.status().journal_events
    with pytest.raises(Refused, match="cannot suffer 'plague'"):
        apply_effects(demo, name="Ash", effects=[{"do": "suffer", "token": "plague"}])
    assert demo.status().journal_events == before


def give_flint_and_sinew(campaign: Campaign) -> None:
    apply_effects(campaign, name="Ash", effects=[parse_effect("gain flint"),
                                                 parse_effect("gain sinew")])


def test_crafting_rulebook_example_red_1410(demo: Campaign) -> None:
    give_flint_and_sinew(demo)
    codes = {str(code) for _, code, _ in pair_codes(demo, "flint", "sinew")}
    assert "R1410" in codes
    explored = {str(d.code): d.kind for d in crafting_explorer(demo, ["Ash"])}
    assert explored["R1410"] is DiscoveryKind.UNTRIED  # the explorer never reads the Codex
    held = {h.face.material: h.index for h in held_materials(demo, ["Ash"])}
    changes = craft(demo, name="Ash", left=held["flint"], left_rotation=0,
                    right=held["sinew"], right_rotation=0)
    entry = demo.content.crafting.lookup("red", "1410")
    assert "R1410" in changes.summary or "Red 1410" in changes.summary
    assert ash(demo).energy == 5 - demo.content.rules.action_costs.craft
    assert all(h.face.material not in ("flint", "sinew") for h in held_materials(demo, ["Ash"]))
    assert entry.kind.value == "item"


def test_crafting_refuses_pairs_whose_inner_edges_differ(demo: Campaign) -> None:
    give_flint_and_sinew(demo)
    held = {h.face.material: h.index for h in held_materials(demo, ["Ash"])}
    before = ash(demo)
    with pytest.raises(Refused):
        craft(demo, name="Ash", left=held["sinew"], left_rotation=0, right=held["flint"],
              right_rotation=0)
    assert ash(demo) == before


def test_crafting_remembers_what_was_found(demo: Campaign) -> None:
    give_flint_and_sinew(demo)
    give_flint_and_sinew(demo)
    held = [h for h in held_materials(demo, ["Ash"])]
    flint = next(h.index for h in held if h.face.material == "flint")
    sinew = next(h.index for h in held if h.face.material == "sinew")
    craft(demo, name="Ash", left=flint, left_rotation=0, right=sinew, right_rotation=0)
    explored = {str(d.code): d.kind for d in crafting_explorer(demo, ["Ash"])}
    assert explored["R1410"] is DiscoveryKind.ITEM



def test_a_code_with_no_codex_entry_is_recorded_when_tried(demo: Campaign) -> None:
    # Rulebook: Crafting: a code is read in the Codex; R1441 (flint beside flint turned
    # 180°) has no entry in the sample pack: it was still tried, and the journal's codes
    # keep it (a provisional code). Nothing is consumed.
    from companion.operations import journal

    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint"),
                                             parse_effect("gain flint")])
    first, second = [h.index for h in held_materials(demo, ["Ash"])
                     if h.face.material == "flint"][:2]
    assert demo.content.crafting.lookup("red", "1441").entry is None
    changes = craft(demo, name="Ash", left=first, left_rotation=0, right=second,
                    right_rotation=2)
    assert "no entry" in changes.summary
    assert ("R1441", "provisional", "") in journal.crafting_codes(demo)
    assert [h.face.material for h in held_materials(demo, ["Ash"])].count("flint") >= 2
