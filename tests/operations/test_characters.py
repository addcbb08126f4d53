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
        # Reading D22: no hex has shelter, so the starting hex (E01); E02 is refused.
        ({"hex_tile": "E02", "after_death": True},
         r"the starting hex or a hex with an outpost, since no hex has shelter \(E01\)"),
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


def bryn_perishes(campaign: Campaign) -> None:
    """5 major injuries fill Bryn's 5 health slots; at the Night she perishes."""
    from companion.operations import procedures
    from companion.operations.effects import apply_effects
    from companion.rules.procedure import Decider

    apply_effects(campaign, name="Bryn", effects=[{"do": "suffer", "token": "major_injury",
                                                   "amount": 5}])
    for name in ("Ash", "Bryn"):
        operations.pass_turn(campaign, name=name)
    procedures.start_night(campaign)
    while (view := procedures.in_progress(campaign)) is not None and view.step is not None:
        procedures.advance(campaign, choice=view.step.options[0]
                           if view.step.decider is Decider.PLAYER else None)


@pytest.mark.parametrize(("after_death", "shelter", "hex_tile", "energy", "said"), [
    # Inferred: Bryn perished and the society is short of its 2 characters.
    (None, True, "E01", 0, "; replaces Bryn, who perished: enters with 0 energy in a hex "
                           "with shelter"),
    (True, True, "E01", 0, "; replaces Bryn, who perished: enters with 0 energy in a hex "
                           "with shelter"),
    # The group says otherwise: a starting character, full energy, in the starting hex.
    (False, False, "E01", 5, ""),
])
def test_character_death_a_new_character_after_a_death_is_a_replacement(
        demo: Campaign, after_death: bool | None, shelter: bool, hex_tile: str, energy: int,
        said: str) -> None:
    from companion.operations.characters import replacement_due
    from companion.operations.effects import apply_effects

    bryn_perishes(demo)
    assert replacement_due(demo) == ["Bryn"]
    if shelter:
        apply_effects(demo, name="Ash", effects=[{"do": "place", "token": "shelter"}])
    changes = make(demo, hex_tile=hex_tile, mantle="stormcaller", after_death=after_death)
    assert changes.summary.endswith(f"(Might 6, Dexterity 5, Awareness 4, Conviction 3; "
                                    f"Cunning){said}")
    cael = demo.character_detail("Cael")
    assert (cael.energy, cael.hex) == (energy, hex_tile)
    assert replacement_due(demo) == []


@pytest.mark.parametrize(("mode", "entered"), [
    # Reading D22: no hex has shelter, so the starting hex E01, with 0 energy.
    ("starting_or_outpost", ("E01", 0)),
    # A pack reading the rule strictly: not until a hex has shelter.
    ("refused", None),
])
def test_character_death_a_replacement_when_no_hex_has_shelter(
        demo: Campaign, mode: str, entered: tuple[str, int] | None) -> None:
    """Rulebook: Character Death ("places them in a hex that has shelter"); D22."""
    from dataclasses import replace

    bryn_perishes(demo)
    rules = demo.content.rules
    demo.content = replace(demo.content, rules=rules.model_copy(update={
        "character_death": rules.character_death.model_copy(
            update={"no_shelter_entry": mode})}))
    if entered is None:
        with pytest.raises(Refused, match="Cael enters play in a hex that has shelter, and "
                                          "no hex has one: prepare shelter first"):
            make(demo, hex_tile="E01", mantle="stormcaller")
        assert [c.name for c in demo.characters()] == ["Ash"]
        return
    changes = make(demo, hex_tile="E01", mantle="stormcaller")
    assert changes.summary.endswith("replaces Bryn, who perished: enters with 0 energy in E01")
    cael = demo.character_detail("Cael")
    assert (cael.hex, cael.energy) == entered


def test_character_death_ageing_out_is_no_death(demo: Campaign) -> None:
    from companion.operations.characters import replacement_due

    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    assert replacement_due(demo) == []


def test_set_up_determine_starting_hex_an_outpost_in_the_starting_hex_is_named_once(
        demo: Campaign) -> None:
    """Rulebook: Set Up > Determine Starting Hex and Place Characters: the starting hex
    E01 also holds the outpost Hearth; the refusal names E01 once."""
    from tests.operations.test_night_cards import with_outpost

    with_outpost(demo)
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    assert demo.starting_hexes() == ["E01"]
    with pytest.raises(Refused) as refused:
        make(demo, hex_tile="E02", mantle="stormcaller")
    assert str(refused.value).endswith("Cael begins in the starting hex or a hex with an "
                                       "outpost (E01); E02 is neither")
