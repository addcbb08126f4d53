"""Legend cards and mantle powers through the operations (Rulebook: Characters >
Legends: Gaining Legend Cards, Using Legend Cards; Continuing Play > Mantle Power)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations.challenge import ability_test, contest


@pytest.fixture
def legend(demo: Campaign) -> Campaign:
    """Ash has aged out: one unassigned legend card (number 1: might 6, intrepid)."""
    operations.age_character(demo, name="Ash")
    operations.age_character(demo, name="Ash")
    return demo


def _holders(campaign: Campaign) -> list[str | None]:
    return [c.held_by for c in operations.legend_cards(campaign)]


def test_gaining_legend_cards_refused_without_unassigned_legends(demo: Campaign) -> None:
    with pytest.raises(Refused, match="no unassigned legend card to draw"):
        operations.gain_legend(demo, name="Ash")
    with pytest.raises(Refused, match="no legend card number 3"):
        operations.gain_legend(demo, name="Ash", legend=3)


@pytest.mark.parametrize("how", [None, 1])
def test_gaining_legend_cards_draw_or_choose(legend: Campaign, how: int | None) -> None:
    changes = operations.gain_legend(legend, name="Bryn", legend=how)
    assert changes.summary == f"Bryn {'draws' if how is None else 'chooses'} the legend of Ash"
    assert _holders(legend) == ["Bryn"]
    assert legend.character_detail("Bryn").legends == ("1",)
    with pytest.raises(Refused, match="held by Bryn"):
        operations.gain_legend(legend, name="Bryn", legend=1)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        ({"trait": "intrepid"}, "count as having the trait intrepid"),
        ({"trait": "wise"}, "does not have the trait wise"),
        ({"mark": "spiral"}, "bears no mark spiral"),
        ({}, "one of its traits or one of its marks"),
    ],
)
def test_using_legend_cards_for_a_trait_or_mark(
        legend: Campaign, use: dict[str, str], expected: str) -> None:
    operations.gain_legend(legend, name="Bryn", legend=1)
    if "count as" in expected:
        assert expected in operations.use_legend(legend, name="Bryn", legend=1,
                                                 **use).summary
        assert _holders(legend) == [None]  # it returns to the unassigned legends
    else:
        with pytest.raises(Refused, match=expected):
            operations.use_legend(legend, name="Bryn", legend=1, **use)
        assert _holders(legend) == ["Bryn"]  # a refusal changes nothing


@pytest.mark.parametrize(
    ("legend_trait", "modifiers", "total"),
    [
        (None, {}, 2 + 6),                      # Ash's might 6 substitutes
        ("intrepid", {"intrepid": 2}, None),     # Bryn's own might, +2 as if intrepid
    ],
)
def test_using_legend_cards_in_a_test(
        legend: Campaign, legend_trait: str | None, modifiers: dict[str, int],
        total: int | None) -> None:
    operations.gain_legend(legend, name="Bryn", legend=1)
    might = legend.character_detail("Bryn").abilities["might"]  # type: ignore[index]
    result = ability_test(legend, name="Bryn", ability="might", difficulty=8, die=2,
                          trait_modifiers=modifiers, legend=1,
                          legend_trait=legend_trait).detail
    assert result.total == (total if total is not None else 2 + might + 2)  # type: ignore[union-attr]
    assert _holders(legend) == [None]


def test_using_legend_cards_in_a_contest(legend: Campaign) -> None:
    operations.gain_legend(legend, name="Bryn", legend=1)
    result = contest(legend, name="Bryn", ability="might", behemoth_value=7,
                     behemoth_boosts=[1], die=3, legend=1).detail
    assert (result.test.total, result.behemoth_score, result.outcome.value) == (  # type: ignore[union-attr]
        9, 8, "success")
    assert _holders(legend) == [None]


def test_using_legend_cards_not_held_is_refused_and_changes_nothing(legend: Campaign) -> None:
    with pytest.raises(Refused, match="Bryn holds no legend card number 1"):
        ability_test(legend, name="Bryn", ability="might", difficulty=8, die=2, legend=1)
    assert legend.journal(1)[0].kind == "character.age"


def next_challenge(campaign: Campaign, **chosen: object) -> None:
    """C1 ends and C2 begins: the start of a challenge after the first."""
    from companion.operations import challenge as lifecycle

    lifecycle.end_challenge(campaign, outcome="120", looming=["C2"])
    operations.start_challenge(campaign, challenge="C2", **chosen)  # type: ignore[arg-type]


def test_mantle_power_choose_refused_until_unlocked_and_for_another_mantle(
        demo: Campaign) -> None:
    next_challenge(demo)
    bryn = demo.character_detail("Bryn")
    mine = next(p for p, c in demo.content.mantle_powers.items() if c.mantle == bryn.mantle)
    other = next(p for p, c in demo.content.mantle_powers.items() if c.mantle != bryn.mantle)
    with pytest.raises(Refused, match="has not unlocked"):
        operations.choose_mantle_power(demo, name="Bryn", power=mine)
    operations.unlock_mantle_power(demo, power=other)
    with pytest.raises(Refused, match="is a power of the"):
        operations.choose_mantle_power(demo, name="Bryn", power=other)
    operations.unlock_mantle_power(demo, power=mine)
    operations.choose_mantle_power(demo, name="Bryn", power=mine)
    assert demo.character_detail("Bryn").mantle_power == mine


@pytest.mark.parametrize(
    ("name", "power", "said", "lore"),
    [
        ("Bryn", "MP4", "Bryn uses Trail Sign: Bryn: gain 1 lore", 1),   # effects applied
        ("Ash", "MP2", "Ash uses Shared Bowl: When you eat, another", 0),  # read out
    ],
)
def test_mantle_power_use_applies_its_effects(
        demo: Campaign, name: str, power: str, said: str, lore: int) -> None:
    with pytest.raises(Refused, match=f"{name} has no mantle power slotted"):
        operations.use_mantle_power(demo, name=name)
    operations.unlock_mantle_power(demo, power=power)
    next_challenge(demo)
    operations.choose_mantle_power(demo, name=name, power=power)
    assert operations.use_mantle_power(demo, name=name).summary.startswith(said)
    assert demo.status().lore == lore


def test_using_legend_cards_in_a_behemoth_encounter_contest(legend: Campaign) -> None:
    from companion.operations import behemoth as bh
    from companion.operations import procedures as run
    from companion.rules.procedure import Decider

    operations.gain_legend(legend, name="Bryn", legend=1)
    bh.set_up_behemoth(legend, behemoth="rimeback")
    bh.start_encounter(legend, name="Bryn")
    asked = False
    for _ in range(20):
        view = run.in_progress(legend)
        if view is None:
            break
        step = view.step
        assert step is not None
        if step.decider is Decider.PLAYER and "use a legend card" in step.prompt:
            asked = True
            assert step.options[1] == "1"  # the legend of Ash: its ability value
            run.advance(legend, choice="1")
        elif step.decider is Decider.DICE:
            run.advance(legend, choice=(3,))
        else:
            run.advance(legend)
    # The demo's seeded deck puts a contest of might on top (RB9): the legend is offered.
    assert asked
    assert _holders(legend) == [None]  # used once, back to the unassigned legends
    assert "uses the legend of Ash (its ability value)" in legend.journal(1)[0].text


@pytest.mark.parametrize(("moment", "refusal"), [
    # The first challenge: no mantle power at any time (the society's 1st of 1).
    ("first challenge", "This is the society's first challenge"),
    # Challenge 2 has begun, mantles chosen, nobody has acted: the moment.
    ("start of the next challenge", None),
    # Challenge 2, after Ash passed (1 of 2 characters): too late.
    ("mid-Day", "The challenge is under way"),
    # Challenge 2, both passed and the Night began: too late.
    ("Night", "The challenge is under way"),
    # Between challenges (C1 ended, C2 not begun): not yet.
    ("between challenges", "start the next challenge first"),
])
def test_continuing_play_mantle_power_only_at_the_start_of_a_later_challenge(
        demo: Campaign, moment: str, refusal: str | None) -> None:
    """Rulebook: Continuing Play > Mantle Power ("At the start of any Challenge after the
    first one, after players choose mantles, each player may choose a mantle power")."""
    from companion.operations import challenge as lifecycle
    from companion.operations import procedures

    bryn = demo.character_detail("Bryn")
    power = next(p for p, c in demo.content.mantle_powers.items() if c.mantle == bryn.mantle)
    operations.unlock_mantle_power(demo, power=power)
    if moment == "between challenges":
        lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    elif moment != "first challenge":
        next_challenge(demo)
    if moment in ("mid-Day", "Night"):
        operations.pass_turn(demo, name="Ash")
    if moment == "Night":
        operations.pass_turn(demo, name="Bryn")
        procedures.start_night(demo)
    if refusal is None:
        operations.choose_mantle_power(demo, name="Bryn", power=power)
        assert demo.character_detail("Bryn").mantle_power == power
        return
    with pytest.raises(Refused, match=refusal):
        operations.choose_mantle_power(demo, name="Bryn", power=power)
    assert demo.character_detail("Bryn").mantle_power is None


def test_mantle_board_next_challenge_new_mantles_and_powers_boosts_end(
        demo: Campaign) -> None:
    """Rulebook: Mantle > Mantle Board ("At the start of each challenge, each player
    chooses a mantle"); Continuing Play > Mantle Power. Ash and Bryn swap mantles, Bryn
    slots the new mantle's power with them; Ash's minor might boost (1) ends with C1."""
    from companion.operations import challenge as lifecycle
    from companion.operations.effects import apply_effects

    ash, bryn = demo.character_detail("Ash"), demo.character_detail("Bryn")
    apply_effects(demo, name="Ash", effects=[{"do": "boost", "ability": "might"}])
    assert demo.character_detail("Ash").boosts
    power = next(p for p, c in demo.content.mantle_powers.items() if c.mantle == ash.mantle)
    operations.unlock_mantle_power(demo, power=power)
    lifecycle.end_challenge(demo, outcome="120", looming=["C2"])
    with pytest.raises(Refused, match="both chose the .* mantle"):
        operations.start_challenge(demo, challenge="C2", mantles={"Ash": str(bryn.mantle)})
    from companion.operations.setup import challenge_in_play

    assert challenge_in_play(demo) is None  # refused: nothing begun
    name = demo.content.mantles[str(ash.mantle)].name
    changes = operations.start_challenge(
        demo, challenge="C2", mantles={"Ash": str(bryn.mantle), "Bryn": name.upper()},
        mantle_powers={"Bryn": demo.content.mantle_powers[power].name})
    assert f"in the {name} mantle" in changes.summary
    ash2, bryn2 = demo.character_detail("Ash"), demo.character_detail("Bryn")
    assert (ash2.mantle, bryn2.mantle) == (bryn.mantle, ash.mantle)
    assert (bryn2.mantle_power, ash2.boosts) == (power, {})


@pytest.mark.parametrize(("on", "route", "then_use"), [
    # By hand on the legend card: Bryn holds it and counts as having the mark.
    ("legend", "by hand", True),
    # By hand on Bryn's own card: the sheet shows it; the legend card is unchanged.
    ("character", "by hand", False),
    # A card effect / Codex outcome applied with the 'mark' step: Bryn's card.
    ("character", "effect", False),
])
def test_fillable_cards_a_mark_written_is_recorded_shown_and_usable(
        legend: Campaign, on: str, route: str, then_use: bool) -> None:
    """Rulebook: Fillable Cards ("write or draw things on their Character card" / "on
    the Legend side"); Using Legend Cards ("count as having any trait or mark")."""
    from companion.operations.effects import apply_effects
    from companion.operations.legends import write_mark

    operations.gain_legend(legend, name="Bryn", legend=1)
    with pytest.raises(Refused, match="bears no mark spiral"):
        operations.use_legend(legend, name="Bryn", legend=1, mark="spiral")
    if route == "effect":
        apply_effects(legend, name="Bryn", effects=[{"do": "mark", "mark": "spiral"}],
                      source="Codex outcome 220")
    elif on == "legend":
        assert write_mark(legend, mark="spiral", legend=1).summary == \
            "The mark spiral is written on the legend of Ash"
    else:
        write_mark(legend, mark="spiral", name="Bryn")
    cards = operations.legend_cards(legend)
    assert cards[0].marks == (("spiral",) if on == "legend" else ())
    assert legend.character_detail("Bryn").marks == (("spiral",) if on == "character" else ())
    if then_use:
        said = operations.use_legend(legend, name="Bryn", legend=1, mark="spiral").summary
        assert "the mark spiral" in said
    with pytest.raises(Refused, match="already bears the mark spiral"):
        write_mark(legend, mark="spiral", **({"legend": 1} if on == "legend"
                                             else {"name": "Bryn"}))


@pytest.mark.parametrize(("kwargs", "refusal"), [
    ({"mark": " ", "name": "Bryn"}, "Say which mark"),
    ({"mark": "spiral"}, "on one card"),
    ({"mark": "spiral", "legend": 9}, "no legend card number 9"),
    ({"mark": "spiral", "name": "Cai"}, "no character Cai"),
])
def test_fillable_cards_mark_refusals_change_nothing(legend: Campaign, kwargs: dict[str, object],
                                                     refusal: str) -> None:
    from companion.operations.legends import write_mark

    before = legend.journal(1)[0].text
    with pytest.raises(Refused, match=refusal):
        write_mark(legend, **kwargs)  # type: ignore[arg-type]
    assert legend.journal(1)[0].text == before
