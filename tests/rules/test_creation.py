"""Rulebook: Characters > Character Creation, steps 1-4; Key Character Information > Name;
readings D8, D10, D19."""

from __future__ import annotations

from typing import Any

import pytest

from companion.content.schema.base import Ability
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Age
from companion.rules.creation import create_character, keep_dice, traits_allowed
from companion.rules.errors import IllegalAction
from companion.rules.ids import LegendId, MantleId, Trait
from companion.rules.legends import Legend
from tests.rules.factories import make

M, D, A, C = Ability.MIGHT, Ability.DEXTERITY, Ability.AWARENESS, Ability.CONVICTION


def create(rules: RulesConstants, **overrides: Any) -> Any:
    args: dict[str, Any] = dict(
        name="Ash",
        player="Kim",
        rolled=(6, 5, 4, 3, 1),
        removed=4,
        assignment={M: 6, D: 5, A: 4, C: 3},
        traits=("cunning",),
        mantle="mystic",
        character_count=4,
    )
    args.update(overrides)
    return create_character(rules, **args)


@pytest.mark.parametrize(
    ("rolled", "removed", "kept"),
    [((6, 5, 4, 3, 2), 4, (6, 5, 4, 3)), ((1, 6, 2, 5, 3), 0, (6, 2, 5, 3))],
)
def test_character_creation_step1_roll_five_keep_four(
    rules: RulesConstants, rolled: tuple[int, ...], removed: int, kept: tuple[int, ...]
) -> None:
    assert keep_dice(rules, rolled, removed) == kept


@pytest.mark.parametrize(
    ("rolled", "removed", "message"),
    [
        ((6, 5, 4, 3), 0, "roll 5 dice"),
        ((6, 5, 4, 3, 2, 1), 0, "roll 5 dice"),
        ((6, 5, 4, 3, 7), 0, "a die shows 1 to 6; got 7"),
        ((6, 5, 4, 3, 0), 0, "a die shows 1 to 6; got 0"),
        ((6, 5, 4, 3, 2), 5, "remove 1 of the 5 dice; got die 6"),
    ],
)
def test_character_creation_step1_refuses_bad_dice(
    rules: RulesConstants, rolled: tuple[int, ...], removed: int, message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        keep_dice(rules, rolled, removed)


def test_character_creation_step1_assign_kept_dice_to_abilities(rules: RulesConstants) -> None:
    ash = create(rules, assignment={M: 3, D: 4, A: 5, C: 6})
    assert dict(ash.abilities) == {M: 3, D: 4, A: 5, C: 6}


@pytest.mark.parametrize(
    "assignment",
    [
        {M: 6, D: 6, A: 4, C: 3},  # uses a die twice
        {M: 6, D: 5, A: 4, C: 1},  # uses the removed die
        {M: 6, D: 5, A: 4},  # an ability left without a die
    ],
)
def test_character_creation_step1_assignment_must_use_kept_dice(
    rules: RulesConstants, assignment: dict[Ability, int]
) -> None:
    with pytest.raises(IllegalAction):
        create(rules, assignment=assignment)


@pytest.mark.parametrize(
    ("dice", "allowed"),
    [((3, 3, 3, 2), 2), ((1, 1, 1, 1), 2), ((4, 3, 3, 2), 1), ((6, 6, 6, 6), 1)],
)
def test_character_creation_step2_second_trait_when_sum_at_most_11(
    rules: RulesConstants, dice: tuple[int, int, int, int], allowed: int
) -> None:
    assert traits_allowed(rules, dict(zip((M, D, A, C), dice, strict=True))) == allowed


def test_character_creation_step2_two_traits_at_sum_11(rules: RulesConstants) -> None:
    ash = create(
        rules,
        rolled=(3, 3, 3, 2, 1),
        assignment={M: 3, D: 3, A: 3, C: 2},
        traits=("cunning", "wise"),
    )
    assert ash.traits == ("cunning", "wise")


def test_character_creation_step2_second_trait_refused_at_sum_12(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="summing to 12 allow 1 trait; got 2"):
        create(
            rules,
            rolled=(4, 3, 3, 2, 1),
            assignment={M: 4, D: 3, A: 3, C: 2},
            traits=("cunning", "wise"),
        )


@pytest.mark.parametrize("traits", [(), ("wise", "wise")])
def test_character_creation_step2_one_distinct_trait_needed(
    rules: RulesConstants, traits: tuple[str, ...]
) -> None:
    with pytest.raises(IllegalAction):
        create(rules, rolled=(1, 1, 1, 1, 1), assignment={M: 1, D: 1, A: 1, C: 1}, traits=traits)


def test_character_creation_step2_trait_from_the_available_list(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="not an available trait"):
        create(rules, traits=("lucky",), available_traits=("cunning", "wise"))


LEGEND_ASH = Legend(LegendId("L1"), "Ash", {M: 1, D: 2, A: 3, C: 4}, (Trait("cunning"),))


@pytest.mark.parametrize(
    ("name", "trait", "allowed"),
    [
        ("Ash", "cunning", False),
        ("ash", "cunning", False),
        ("Ash", "wise", True),
        ("Bryn", "cunning", True),
    ],
)
def test_key_information_name_matching_legend_cannot_take_its_trait(
    rules: RulesConstants, name: str, trait: str, allowed: bool
) -> None:
    if allowed:
        assert create(rules, name=name, traits=(trait,), legends=[LEGEND_ASH]).traits == (trait,)
    else:
        with pytest.raises(IllegalAction, match="shares the name of the legend Ash"):
            create(rules, name=name, traits=(trait,), legends=[LEGEND_ASH])


def test_key_information_names_unique_in_a_game(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction, match="already in this game"):
        create(rules, name="ASH", mantle="seeker", in_game=[make("Ash")])


def test_character_creation_step3_one_mantle_per_character(rules: RulesConstants) -> None:
    bryn = make("Bryn", mantle=MantleId("mystic"))
    with pytest.raises(IllegalAction, match="Bryn already wears the mantle mystic"):
        create(rules, in_game=[bryn])
    assert create(rules, mantle="seeker", in_game=[bryn]).mantle == "seeker"


@pytest.mark.parametrize(("count", "health", "energy"), [(4, 3, 4), (3, 4, 4), (2, 5, 5)])
def test_character_creation_step4_health_and_energy_by_character_count_d8(
    rules: RulesConstants, count: int, health: int, energy: int
) -> None:
    ash = create(rules, character_count=count)
    assert (ash.health_max, ash.energy_max, ash.energy) == (health, energy, energy)
    assert ash.age is Age.YOUNG and ash.health == ()


def test_character_creation_step4_one_character_only_as_hardcore_solo(
    rules: RulesConstants,
) -> None:
    with pytest.raises(IllegalAction, match="hardcore solo"):
        create(rules, character_count=1)
    solo = create(rules, character_count=1, hardcore=True)
    assert (solo.health_max, solo.energy_max) == (5, 5)
    assert solo.track_rules.incapacitated_only_when_all_major
    assert solo.track_rules.overflow_flips_minor_to_major
    assert solo.track_rules.hardcore


@pytest.mark.parametrize(("unrest", "energy"), [(0, 4), (5, 4), (6, 3), (11, 3), (16, 3)])
def test_unrest_6_plus_start_with_one_fewer_energy_d10(
    rules: RulesConstants, unrest: int, energy: int
) -> None:
    assert create(rules, unrest=unrest).energy == energy


def test_character_death_new_character_enters_with_0_energy(rules: RulesConstants) -> None:
    assert create(rules, starting_energy=0).energy == 0


# --- Step 2 (second trait), Step 3 (mantle), D8, placement ---------------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"mantle": None}, "choose a mantle"),
        ({"rolled": (3, 3, 2, 2, 1), "assignment": {M: 3, D: 3, A: 2, C: 2}},
         "abilities summing to 10 call for a second trait"),
        ({"character_count": 1, "in_game": (make("Bryn"),)},
         "plays with 1 character: Bryn is in play"),
        ({"character_count": 2, "in_game": (make("Bryn"), make("Cael"))},
         "plays with 2 characters: Bryn, Cael are in play"),
    ],
)
def test_character_creation_step2_step3_and_character_count_d8(
        rules: RulesConstants, overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        create(rules, **overrides)


@pytest.mark.parametrize(
    ("hex_", "allowed", "replacement", "message"),
    [
        ("E01", ["E01", "E07"], False, None),
        ("E07", ["E01", "E07"], False, None),
        ("E02", ["E01"], False, "begins in the starting hex or a hex with an outpost"),
        (None, ["E01"], False, "choose where"),
        (None, [], False, None),                       # no valley yet
        ("E03", ["E03"], True, None),                  # Character Death: shelter
        ("E01", ["E03"], True, "enters play in a hex that has shelter"),
        ("E01", [], True, "no hex has one: prepare shelter first"),
    ],
)
def test_place_characters_and_character_death_placement(
        hex_: str | None, allowed: list[str], replacement: bool, message: str | None) -> None:
    from companion.rules.creation import check_placement

    if message is None:
        check_placement(hex_, allowed=allowed, replacement=replacement)
    else:
        with pytest.raises(IllegalAction, match=message):
            check_placement(hex_, allowed=allowed, replacement=replacement)


@pytest.mark.parametrize(("shelters", "mode", "hex_", "message"), [
    # A hex with shelter (E03): only it.
    (["E03"], "starting_or_outpost", "E03", None),
    (["E03"], "starting_or_outpost", "E01", "enters play in a hex that has shelter \\(E03\\)"),
    # Reading D22: no shelter anywhere, so the starting hex E01 or the outpost's E07.
    ([], "starting_or_outpost", "E07", None),
    ([], "starting_or_outpost", "E02", "since no hex has shelter \\(E01, E07\\); E02 is "
                                       "neither"),
    # A pack that reads it strictly: refused until a hex has shelter.
    ([], "refused", "E01", "no hex has one: prepare shelter first"),
])
def test_character_death_replacement_when_no_hex_has_shelter_d22(
        shelters: list[str], mode: str, hex_: str, message: str | None) -> None:
    """Rulebook: Character Death ("places them in a hex that has shelter"); D22."""
    from companion.rules.creation import check_placement, replacement_entry

    allowed, sheltered = replacement_entry(shelters, ["E01", "E07"], mode)
    if message is None:
        check_placement(hex_, allowed=allowed, replacement=True, sheltered=sheltered)
        return
    with pytest.raises(IllegalAction, match=message):
        check_placement(hex_, allowed=allowed, replacement=True, sheltered=sheltered)
