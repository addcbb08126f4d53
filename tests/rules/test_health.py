"""Rulebook: Mantle > Health Track, Incapacitation, Injury/Disease Tokens, Energy Track,
Boost Slots; Character Death; Legends; Solo Play > Hardcore Solo (D19); Night > Rest
(Energized)."""

from __future__ import annotations

import pytest

from companion.content.schema.base import Ability
from companion.content.schema.base import HealthToken as H
from companion.content.schema.rules import RulesConstants
from companion.rules.character import Age
from companion.rules.errors import IllegalAction
from companion.rules.health import (
    add_boost,
    age,
    degrade,
    energize,
    gain_energy,
    perish,
    spend_energy,
    suffer,
    use_boosts,
)
from tests.rules.factories import HARDCORE, make

mi, MI, md, MD = H.MINOR_INJURY, H.MAJOR_INJURY, H.MINOR_DISEASE, H.MAJOR_DISEASE


@pytest.mark.parametrize(
    ("before", "token", "after", "incapacitated"),
    [
        ((), mi, (mi,), False),
        ((mi,), MD, (mi, MD), False),
        ((mi, MD), mi, (mi, MD, mi), True),  # 3 health: full
        ((mi, MD, mi), MI, (mi, MD, mi), True),  # nowhere to go
    ],
)
def test_health_track_suffer_and_incapacitation_when_full(
    before: tuple[H, ...], token: H, after: tuple[H, ...], incapacitated: bool
) -> None:
    ash = suffer(make(health=before), token)
    assert ash.health == after
    assert ash.incapacitated is incapacitated


@pytest.mark.parametrize(
    ("before", "index", "after"),
    [
        ((MI,), 0, (mi,)),
        ((MD,), 0, (md,)),
        ((mi,), 0, ()),
        ((md, MI, mi), 1, (md, mi, mi)),
        ((md, MI, mi), 2, (md, MI)),
    ],
)
def test_injury_and_disease_tokens_degrade_major_to_minor_minor_removed(
    before: tuple[H, ...], index: int, after: tuple[H, ...]
) -> None:
    assert degrade(make(health=before), index).health == after


def test_degrade_refuses_a_missing_token() -> None:
    with pytest.raises(IllegalAction, match="no health token number 2"):
        degrade(make(health=(mi,)), 1)


@pytest.mark.parametrize(
    ("before", "token", "after", "incapacitated"),
    [
        ((mi, md, mi, md), MI, (mi, md, mi, md, MI), False),  # 5 slots, not all major
        ((mi, md, mi, md, MI), mi, (MI, md, mi, md, MI), False),  # overflow flips same kind
        ((MI, md, MI, MD, MI), mi, (MI, MD, MI, MD, MI), True),  # no minor injury: a disease
        ((MI, MD, MI, MD, MI), md, (MI, MD, MI, MD, MI), True),  # no minor left: nothing
    ],
)
def test_hardcore_solo_incapacitated_only_when_all_major_overflow_flips_d19(
    before: tuple[H, ...], token: H, after: tuple[H, ...], incapacitated: bool
) -> None:
    solo = suffer(make(health=before, health_max=5, track_rules=HARDCORE), token)
    assert solo.health == after
    assert solo.incapacitated is incapacitated


def test_energy_track_spend_refused_when_short() -> None:
    with pytest.raises(IllegalAction, match="^Ash has 1 energy; Explore costs 2$"):
        spend_energy(make(energy=1), 2, "Explore")
    assert spend_energy(make(energy=3), 2, "Explore").energy == 1


@pytest.mark.parametrize(("energy", "gain", "after"), [(0, 2, 2), (3, 2, 4), (4, 1, 4)])
def test_energy_track_gain_capped_at_maximum(energy: int, gain: int, after: int) -> None:
    assert gain_energy(make(energy=energy), gain).energy == after


@pytest.mark.parametrize(
    ("boosts", "total", "left"),
    [((), 0, None), ((1,), 1, None), ((2,), 2, (1,)), ((2, 1), 3, (1,)), ((2, 2), 4, (1, 1))],
)
def test_boost_slots_test_uses_and_degrades_boosts(
    boosts: tuple[int, ...], total: int, left: tuple[int, ...] | None
) -> None:
    ash = make(boosts={Ability.MIGHT: boosts} if boosts else {})
    used, ash = use_boosts(ash, Ability.MIGHT)
    assert used == total
    assert ash.boosts.get(Ability.MIGHT) == left


def test_boost_slots_token_shows_1_or_2() -> None:
    assert add_boost(make(), Ability.DEXTERITY, 2).boosts == {Ability.DEXTERITY: (2,)}
    with pytest.raises(IllegalAction):
        add_boost(make(), Ability.DEXTERITY, 3)


def test_rest_energized_gives_a_minor_boost(rules: RulesConstants) -> None:
    ash = energize(make(), Ability.AWARENESS, rules.rest.energized_boost)
    assert ash.boosts == {Ability.AWARENESS: (1,)}


def test_incapacitation_perish_at_start_of_night_becoming_legend() -> None:
    ash, bryn = make("Ash", health=(mi, mi, MD)), make("Bryn", health=(mi,))
    assert (ash.incapacitated, bryn.incapacitated) == (True, False)  # the Night perishes Ash
    assert perish(ash).age is Age.LEGEND


def test_character_death_only_incapacitated_perish() -> None:
    with pytest.raises(IllegalAction, match="not incapacitated"):
        perish(make())


@pytest.mark.parametrize(("before", "after"), [(Age.YOUNG, Age.OLD), (Age.OLD, Age.LEGEND)])
def test_key_information_age_young_old_legend(before: Age, after: Age) -> None:
    assert age(make(age=before)).age is after


def test_key_information_a_legend_does_not_age() -> None:
    with pytest.raises(IllegalAction, match="already a legend"):
        age(make(age=Age.LEGEND))
