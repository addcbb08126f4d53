"""Character creation through the operations (Rulebook: Character Creation, steps 1-4)."""

from __future__ import annotations

from typing import Any

import pytest

from companion import operations
from companion.operations import Campaign, Refused

ASSIGN = {"might": 6, "dexterity": 5, "awareness": 4, "conviction": 3}


def make(campaign: Campaign, **overrides: Any) -> operations.Changes:
    args: dict[str, Any] = dict(name="Cael", player="Player 1", rolled=(6, 5, 4, 3, 1),
                                removed=4, assignment=ASSIGN, traits=["cunning"],
                                mantle="hearthkeeper")
    args.update(overrides)
    return operations.create_character(campaign, **args)


def test_character_creation_typed_dice_from_the_table(fresh: Campaign) -> None:
    make(fresh)
    (cael,) = fresh.characters()
    assert (cael.might, cael.dexterity, cael.awareness, cael.conviction) == (6, 5, 4, 3)
    assert cael.traits == ("cunning",)
    assert (cael.health_max, cael.energy_max, cael.energy) == (5, 5, 5)  # D8: 2 characters


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"rolled": (6, 5, 4, 3)}, "roll 5 dice"),
        ({"rolled": (6, 5, 4, 3, 7)}, "1 to 6"),
        ({"assignment": {**ASSIGN, "might": 2}}, "kept dice"),
        ({"traits": ["cunning", "wise"]}, "allow 1 trait"),
        ({"traits": []}, "choose a trait"),
        ({"name": "  "}, "needs a name"),
        ({"mantle": "no-such-mantle"}, "no mantle"),
    ],
)
def test_character_creation_refusals_change_nothing(fresh: Campaign, overrides: dict[str, Any],
                                                    message: str) -> None:
    before = fresh.status().journal_events
    with pytest.raises(Refused, match=message):
        make(fresh, **overrides)
    assert fresh.characters() == [] and fresh.status().journal_events == before


def test_character_creation_step2_second_trait_when_sum_at_most_11(fresh: Campaign) -> None:
    make(fresh, rolled=(3, 3, 2, 2, 1), assignment={"might": 3, "dexterity": 3,
                                                   "awareness": 2, "conviction": 2},
         traits=["cunning", "wise"])
    assert fresh.characters()[0].traits == ("cunning", "wise")


def test_character_names_are_unique_in_a_game(fresh: Campaign) -> None:
    make(fresh)
    with pytest.raises(Refused, match="already in this game"):
        make(fresh, name="cael")


def test_one_mantle_per_character_per_game(fresh: Campaign) -> None:
    mantle = next(iter(fresh.content.mantles))
    make(fresh, mantle=mantle)
    with pytest.raises(Refused, match="already wears the mantle"):
        make(fresh, name="Dara", mantle=mantle)


# --- Character Creation Step 2-3, D8; Set Up > Place Characters; Character Death ----------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"mantle": None}, "choose a mantle"),
        ({"rolled": (3, 3, 2, 2, 1), "assignment": {"might": 3, "dexterity": 3,
                                                    "awareness": 2, "conviction": 2}},
         "abilities summing to 10 call for a second trait"),
        ({"hex_tile": "E02"}, r"begins in the starting hex or a hex with an outpost \(E01\)"),
        ({"hex_tile": None}, "choose where Cael enters play"),
        ({"hex_tile": "E01", "after_death": True}, "no hex has one: prepare shelter first"),
    ],
)
def test_character_creation_requires_mantle_second_trait_and_placement(
        demo: Campaign, overrides: dict[str, Any], message: str) -> None:
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")  # Ash ages out: one place free
    before = demo.status().journal_events
    with pytest.raises(Refused, match=message):
        make(demo, **{"hex_tile": "E01", "mantle": "stormcaller", **overrides})
    assert demo.status().journal_events == before


def test_character_count_d8_is_enforced(demo: Campaign) -> None:
    with pytest.raises(Refused, match="plays with 2 characters: Ash, Bryn are in play"):
        make(demo, hex_tile="E01", mantle="stormcaller")


def test_character_death_replacement_enters_with_0_energy_in_a_hex_with_shelter(
        demo: Campaign) -> None:
    from companion.operations.effects import apply_effects

    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    apply_effects(demo, name="Bryn", effects=[{"do": "place", "token": "shelter"}])
    make(demo, hex_tile="E01", mantle="stormcaller", after_death=True)
    cael = demo.character_detail("Cael")
    assert (cael.energy, cael.hex) == (0, "E01")


def test_character_creation_starting_character_begins_with_full_energy_in_the_start(
        demo: Campaign) -> None:
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    make(demo, hex_tile="E01", mantle="stormcaller")
    cael = demo.character_detail("Cael")
    assert (cael.energy, cael.energy_max, cael.hex) == (5, 5, "E01")


def test_unrest_6_characters_begin_with_one_fewer_energy(fresh: Campaign) -> None:
    operations.change_unrest(fresh, amount=6)
    make(fresh)
    assert fresh.characters()[0].energy == 4  # D10


def test_app_rolled_dice_are_persisted_and_replay_with_the_seed(tmp_path: Any) -> None:
    rolls = []
    for name in ("a", "b"):
        campaign = operations.new_campaign(tmp_path / f"{name}.stonesaga", society_name=name,
                                           seed=99)
        rolls.append([operations.roll_dice(campaign, count=5, purpose="x").detail
                      for _ in range(3)])
        campaign.close()
    assert rolls[0] == rolls[1]
    assert all(len(r) == 5 and all(1 <= d <= 6 for d in r) for r in rolls[0])


def test_undo_a_roll_restores_the_generator(fresh: Campaign) -> None:
    first = operations.roll_dice(fresh, count=5, purpose="x").detail
    operations.undo(fresh)
    assert operations.roll_dice(fresh, count=5, purpose="x").detail == first
