"""The challenge lifecycle through the operations (Rulebook: Continuing Play; Using the
Journal; Characters > Age; Basic Concepts > Tests)."""

from __future__ import annotations

import pytest
from sqlmodel import select

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations import challenge as lifecycle
from companion.operations.effects import apply_effects, parse_effect
from companion.operations.setup import goals
from companion.store import models


def test_continuing_play_end_of_challenge(demo: Campaign) -> None:
    operations.increase_activity(demo, amount=3)
    apply_effects(demo, name="Ash", effects=[{"do": "place", "token": "fire"},
                                             parse_effect("gain flint 2")])
    lifecycle.complete_goal(demo, goal="G-first-hearth")
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"],
                            retained={"Ash": ([], [0])})
    status = demo.status()
    assert status.challenge_id is None and status.activity == 0
    with demo.file.read() as session:
        (entry,) = session.exec(select(models.ChallengeLogEntry)).all()
        fires = session.exec(select(models.HexToken)).all()
        kept = session.exec(select(models.RetainedSupply)).all()
    assert (entry.outcome_entry, entry.finished, entry.characters) == ("120", True,
                                                                       ["Ash", "Bryn"])
    assert fires == []  # fire, shelter and lore leave the valley
    assert [k.materials for k in kept] == [["flint"]]
    states = dict(goals(demo))
    assert states["G-first-hearth"] == "completed"
    assert all(state in ("completed", "set_aside") for state in states.values())
    assert operations.eligible_challenges(demo) == ["C2"]


def test_end_of_challenge_needs_an_outcome_entry(demo: Campaign) -> None:
    with pytest.raises(Refused, match="entry number"):
        lifecycle.end_challenge(demo, outcome=" ")
    assert demo.status().challenge_id == "C1"


def test_retaining_more_than_five_materials_is_refused(demo: Campaign) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 6")])
    with pytest.raises(Refused, match="at most 5 material tokens"):
        lifecycle.end_challenge(demo, outcome="120", retained={"Ash": ([], [0, 1, 2, 3, 4, 5])})


def test_a_new_epoch_only_between_challenges(demo: Campaign) -> None:
    with pytest.raises(Refused, match="during a challenge"):
        lifecycle.new_epoch(demo)
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    lifecycle.new_epoch(demo)
    status = demo.status()
    assert (status.epoch, status.games_this_epoch) == (2, 0)


def test_age_young_to_old_to_legend(demo: Campaign) -> None:
    lifecycle.age_character(demo, name="Bryn")
    assert next(c.age for c in demo.characters() if c.name == "Bryn") == "old"
    lifecycle.age_character(demo, name="Bryn")
    assert [c.name for c in demo.characters()] == ["Ash"]
    assert demo.status().legends == 1


def test_tests_typed_die_plus_ability_against_difficulty(demo: Campaign) -> None:
    might = next(c.might for c in demo.characters() if c.name == "Ash")
    changes = lifecycle.ability_test(demo, name="Ash", ability="might", difficulty=8, die=2)
    assert f"2 + {might} = {2 + might} vs 8" in changes.summary
    assert ("succeeds" in changes.summary) == (2 + might >= 8)


def test_degrade_a_major_injury_to_minor(demo: Campaign) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("suffer major_injury")])
    lifecycle.degrade_token(demo, name="Ash", index=0)
    assert next(c.health for c in demo.characters() if c.name == "Ash") == ("minor_injury",)
    with pytest.raises(Refused, match="no health token 3"):
        lifecycle.degrade_token(demo, name="Ash", index=2)


# --- Continuing Play: what stays, what goes back to the box, the next challenge (D13) -----


def _carried(campaign: Campaign) -> dict[str, tuple[int, int, int, int, str | None]]:
    """name -> (items, bag tokens, energy, health tokens, hex)."""
    out = {}
    for name in ("Ash", "Bryn"):
        c = campaign.character_detail(name)
        out[name] = (len(c.items), len(c.bag), c.energy, len(c.health), c.hex)
    return out


def test_continuing_play_the_rest_goes_back_to_the_box_nothing_duplicated(
        demo: Campaign) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 3"),
                                             parse_effect("item stone-knife"),
                                             parse_effect("suffer minor_injury")])
    apply_effects(demo, name="Bryn", effects=[parse_effect("gain wood 2")])
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"],
                            retained={"Ash": (["stone-knife"], [0, 1])})
    # Ash keeps a knife and 2 flint apart; the third flint and Bryn's wood go to the box.
    assert _carried(demo)["Ash"][:2] == (0, 0) and _carried(demo)["Bryn"][:2] == (0, 0)
    (kept,) = lifecycle.retained_supplies(demo)
    assert (kept["items"], kept["materials"]) == (["Stone Knife"], ["Flint", "Flint"])
    assert (kept["item_ids"], kept["material_ids"]) == (["stone-knife"], ["flint", "flint"])


@pytest.mark.parametrize("typed", ["stone-knife", "Stone Knife", "STONE KNIFE"])
def test_retaining_supplies_an_item_typed_by_its_card_name(demo: Campaign, typed: str
                                                           ) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("item stone-knife")])
    lifecycle.end_challenge(demo, outcome="120", retained={"Ash": ([typed], [])})
    (kept,) = lifecycle.retained_supplies(demo)
    assert kept["items"] == ["Stone Knife"]


@pytest.mark.parametrize(("typed", "message"), [
    ("clay-pot", "Ash has no Clay Pot to retain (Ash holds Stone Knife)."),
    ("Clay Pot", "Ash has no Clay Pot to retain (Ash holds Stone Knife)."),
    ("antler", "Ash has no antler to retain (Ash holds Stone Knife)."),
])
def test_retaining_supplies_refusals_name_the_cards(demo: Campaign, typed: str,
                                                    message: str) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("item stone-knife")])
    with pytest.raises(Refused) as refused:
        lifecycle.end_challenge(demo, outcome="120", retained={"Ash": ([typed], [])})
    assert str(refused.value) == message
    assert demo.status().challenge_id == "C1"


@pytest.mark.parametrize(("unrest", "energy"), [(0, 5), (6, 4), (11, 4)])
def test_continuing_play_next_challenge_ready_placed_and_supplies_claimed_once(
        demo: Campaign, unrest: int, energy: int) -> None:
    apply_effects(demo, name="Ash", effects=[parse_effect("gain flint 2"),
                                             parse_effect("suffer minor_injury"),
                                             parse_effect("energy -3")])
    if unrest:
        operations.change_unrest(demo, amount=unrest)
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"],
                            retained={"Ash": ([], [0, 1])})
    changes = operations.start_challenge(demo, challenge="C2")
    assert "Ash takes up the supplies Ash retained" in changes.summary
    # Full energy (less 1 at unrest 6+, D10), no injuries, in the starting hex.
    assert _carried(demo)["Ash"] == (0, 2, energy, 0, "E01")
    assert _carried(demo)["Bryn"] == (0, 0, energy, 0, "E01")
    assert lifecycle.retained_supplies(demo) == []
    with pytest.raises(Refused, match="already been claimed"):
        lifecycle.claim_retained(demo, name="Ash", supply=1)


def test_set_up_place_characters_only_in_the_starting_hex_or_an_outpost(
        demo: Campaign) -> None:
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    with pytest.raises(Refused, match=r"begins in the starting hex or a hex with an outpost"):
        operations.start_challenge(demo, challenge="C2", placements={"Ash": "E09"})
    assert demo.status().challenge_id is None  # refused: nothing changed


def test_continuing_play_the_behemoth_goes_back_to_the_box_and_is_set_up_again(
        demo: Campaign) -> None:
    board = next(iter(demo.content.behemoths))
    operations.set_up_behemoth(demo, behemoth=board)
    assert demo.status().challenge_id == "C1"
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    with demo.file.read() as session:
        rows = session.exec(select(models.BehemothState)).all()
        lairs = session.exec(select(models.Overlay).where(models.Overlay.kind == "lair")).all()
    assert [r.hex_id for r in rows] == [None] and lairs == []
    assert "goes back to the box" in demo.journal(1)[0].text
    operations.start_challenge(demo, challenge="C2")
    operations.set_up_behemoth(demo, behemoth=board)  # set up again for this challenge
    with demo.file.read() as session:
        rows = session.exec(select(models.BehemothState)).all()
    assert len(rows) == 1 and rows[0].hex_id is not None


def test_outposts_a_removed_structure_is_erased_from_the_card(demo: Campaign) -> None:
    """Rulebook: Overlays > Outposts: "When a structure is removed from an outpost, erase
    it from that card"; by name or id; refused for a structure it lacks."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, "longhouse", "drying-rack")
    changes = lifecycle.remove_structure(demo, outpost="hearth", structure="Drying Rack",
                                         reason="a Codex outcome")
    assert changes.summary == ("The Drying Rack is erased from Hearth's outpost card "
                               "(a Codex outcome)")
    with demo.file.read() as session:
        structures = session.exec(select(models.OutpostStructure)).all()
    assert [s.structure_id for s in structures] == ["longhouse"]
    from companion.operations.files import undo

    undo(demo)  # journalled like every operation: undo restores the card
    with demo.file.read() as session:
        structures = session.exec(select(models.OutpostStructure)).all()
    assert sorted(s.structure_id for s in structures) == ["drying-rack", "longhouse"]
    lifecycle.remove_structure(demo, outpost="Hearth", structure="drying-rack")
    with pytest.raises(Refused, match=r"Hearth has no Drying Rack \(its structures: Longhouse\)"):
        lifecycle.remove_structure(demo, outpost="Hearth", structure="drying-rack")
    with pytest.raises(Refused, match="There is no outpost 'Nowhere'"):
        lifecycle.remove_structure(demo, outpost="Nowhere", structure="longhouse")


def test_ruins_an_outpost_becomes_a_ruin_and_its_structures_return(demo: Campaign) -> None:
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo, "longhouse", "drying-rack")
    changes = lifecycle.ruin_outpost(demo, outpost="Hearth", reason="an outpost event")
    assert changes.summary == ("Hearth becomes a ruin (an outpost event); Longhouse, Drying "
                               "Rack return to the structure deck")
    with demo.file.read() as session:
        (row,) = session.exec(select(models.Outpost)).all()
        structures = session.exec(select(models.OutpostStructure)).all()
    assert row.status == "ruin" and structures == []
    with pytest.raises(Refused, match="already a ruin"):
        lifecycle.ruin_outpost(demo, outpost="Hearth")
    assert demo.starting_hexes() == ["E01"]  # a ruin is no place to begin
