"""Cards and structures in play during the Night, through the operations (Rulebook: Night
Phase; Rest; Building Structures; Unrest 16+; Character Death: a hex that has shelter)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign
from companion.operations import procedures as run
from companion.operations.state import load_game, save_game
from companion.rules.ids import FeatureId, HexId, OutpostId, StructureId
from companion.rules.outposts import Outpost
from tests.operations.test_procedures import night, play_out


def with_outpost(campaign: Campaign, *structures: str) -> None:
    """An outpost "Hearth" in the starting hex E01 with ``structures`` recorded."""
    from dataclasses import replace

    tile = campaign.content.hexes["E01"]
    feature = next(f for f in tile.sections.values() if f)
    with campaign.write("test.outpost", "an outpost for the test") as session:
        before = load_game(session, campaign.content)
        outpost = Outpost(OutpostId("new"), "Hearth", 1, HexId("E01"), FeatureId(feature),
                          structures=tuple(StructureId(s) for s in structures))
        save_game(session, campaign.content, before, replace(before, outposts=(outpost,)))


def _rest_lines(campaign: Campaign) -> list[str]:
    view = run.in_progress(campaign)
    assert view is not None
    return view.description.splitlines()


def test_night_phase_begins_longhouse_effect_and_shelter_at_rest(demo: Campaign) -> None:
    with_outpost(demo, "longhouse")
    operations.pass_turn(demo, name="Ash")
    operations.pass_turn(demo, name="Bryn")
    run.start_night(demo)
    log = _rest_lines(demo)
    assert "Longhouse (Hearth): Grants shelter to characters in this hex. At the start of " \
           "each Night, each character here regains 1 energy." in log
    # Rest: the Longhouse grants shelter in E01 (+1 energy, "shelter/fire 1").
    assert any("shelter/fire 1" in line for line in log)
    play_out(demo)


@pytest.mark.parametrize(("unrest", "shelter"), [(0, True), (16, False)])
def test_rest_structure_shelter_switched_off_at_unrest_16(
        demo: Campaign, unrest: int, shelter: bool) -> None:
    from companion.operations.night_cards import structure_shelter_hexes

    with_outpost(demo, "longhouse")
    if unrest:
        operations.change_unrest(demo, amount=unrest)
    with demo.file.read() as session:
        game = load_game(session, demo.content)
    assert (HexId("E01") in structure_shelter_hexes(demo, game)) == shelter


def test_character_death_a_structure_with_shelter_is_a_place_to_enter(demo: Campaign) -> None:
    with_outpost(demo, "longhouse")
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    operations.create_character(
        demo, name="Cael", player="Player 1", rolled=(6, 5, 4, 3, 1), removed=4,
        assignment={"might": 6, "dexterity": 5, "awareness": 4, "conviction": 3},
        traits=["cunning"], mantle="stormcaller", hex_tile="E01", after_death=True)
    assert demo.character_detail("Cael").energy == 0


def test_night_phase_star_shrine_only_when_stars_is_current(demo: Campaign) -> None:
    with_outpost(demo, "star-shrine")
    night(demo)
    play_out(demo)
    omens = demo.status().omens
    assert demo.status().lore == (1 if "stars" in omens else 0)
