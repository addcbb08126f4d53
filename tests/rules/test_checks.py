"""Rulebook: Basic Concepts > Dice (Rerolling, Turning), Tests; Behemoths > Contests (D16);
Legends > Using Legend Cards."""

from __future__ import annotations

import pytest

from companion.content.schema.base import Ability
from companion.content.schema.rules import RulesConstants
from companion.rules.checks import (
    ContestOutcome,
    ability_test,
    contest,
    contest_outcome,
    die,
    resolve_die,
)
from companion.rules.errors import IllegalAction
from companion.rules.ids import LegendId, Trait
from companion.rules.legends import Legend, LegendPool, return_legend
from tests.rules.factories import make

M, D = Ability.MIGHT, Ability.DEXTERITY


@pytest.mark.parametrize("value", [0, 7, -1, 10])
def test_dice_a_die_shows_1_to_6(value: int) -> None:
    with pytest.raises(IllegalAction, match=f"^a die shows 1 to 6; got {value}$"):
        die(value)


@pytest.mark.parametrize(
    ("rolled", "rerolls", "turns", "final"),
    [
        (3, (), (), 3),
        (3, (5,), (), 5),
        (3, (5, 2), (), 2),  # a die can be rerolled once per effect; the last stands
        (3, (5,), (+2,), 6),  # turns after rerolls, never above 6
        (2, (), (-3,), 1),  # never below 1
        (4, (1,), (+1, +1), 3),
    ],
)
def test_dice_rerolls_before_turns_turned_die_stays_1_to_6(
    rolled: int, rerolls: tuple[int, ...], turns: tuple[int, ...], final: int
) -> None:
    assert resolve_die(rolled, rerolls, turns) == final


def test_dice_a_reroll_is_a_die_too() -> None:
    with pytest.raises(IllegalAction, match="got 7"):
        resolve_die(3, (7,))


WISE, CUNNING = Trait("wise"), Trait("cunning")


@pytest.mark.parametrize(
    ("traits", "modifiers", "boosts", "rolled", "total"),
    [
        ((WISE,), {}, (), 3, 3 + 4),
        ((WISE,), {WISE: 2}, (), 3, 3 + 4 + 2),
        ((WISE,), {CUNNING: 2}, (), 3, 3 + 4),
        ((WISE, CUNNING), {WISE: 1, CUNNING: -2}, (), 6, 6 + 4 + 1 - 2),
        ((WISE,), {}, (2, 1), 1, 1 + 4 + 3),
    ],
)
def test_tests_1d6_plus_ability_boosts_and_trait_modifiers(
    traits: tuple[Trait, ...],
    modifiers: dict[Trait, int],
    boosts: tuple[int, ...],
    rolled: int,
    total: int,
) -> None:
    ash = make(traits=traits, boosts={M: boosts} if boosts else {})
    result, ash = ability_test(ash, M, rolled, trait_modifiers=modifiers)
    assert result.total == total
    assert ash.boosts.get(M) == ((1,) if boosts else None)


LEGEND = Legend(LegendId("L1"), "Old Oak", {M: 6, D: 1}, (CUNNING,), ())


def test_legends_substitute_ability_then_return_the_card() -> None:
    ash = make(legends=(LEGEND.id,))
    result, ash = ability_test(ash, M, 2, legend=LEGEND)
    assert (result.ability_value, result.total, result.legend_used) == (6, 8, "L1")
    assert result.legend_used is not None
    pool, ash = return_legend(LegendPool(), ash, result.legend_used)
    assert (ash.legends, pool.unassigned) == ((), ("L1",))


def test_legends_count_as_having_a_legend_trait() -> None:
    ash = make(legends=(LEGEND.id,))
    result, _ = ability_test(
        ash, M, 2, trait_modifiers={CUNNING: 3}, legend=LEGEND, legend_trait=CUNNING
    )
    assert result.total == 2 + 4 + 3


@pytest.mark.parametrize(
    ("held", "trait", "message"),
    [((), None, "holds no legend"), (("L1",), WISE, "does not have the trait wise")],
)
def test_legends_use_refused(held: tuple[str, ...], trait: Trait | None, message: str) -> None:
    ash = make(legends=tuple(LegendId(h) for h in held))
    with pytest.raises(IllegalAction, match=message):
        ability_test(ash, M, 2, legend=LEGEND, legend_trait=trait)


@pytest.mark.parametrize(
    ("result", "value", "outcome"),
    [
        (9, 8, ContestOutcome.SUCCESS),
        (8, 8, ContestOutcome.STALEMATE),
        (4, 8, ContestOutcome.STALEMATE),  # short by 4
        (3, 8, ContestOutcome.DEFEAT),  # short by 5
        (1, 12, ContestOutcome.DEFEAT),
    ],
)
def test_behemoths_contests_outcome_d16(
    rules: RulesConstants, result: int, value: int, outcome: ContestOutcome
) -> None:
    assert contest_outcome(rules, result, value) is outcome


def test_behemoths_contests_behemoth_boosts_added_then_degraded(rules: RulesConstants) -> None:
    ash = make(boosts={M: (1,)})
    # 5 + might 4 + boost 1 = 10 against 7 + boosts 2 + 1 = 10: stalemate.
    result, ash, left = contest(rules, ash, M, 5, 7, (2, 1))
    assert (result.test.total, result.behemoth_score) == (10, 10)
    assert result.outcome is ContestOutcome.STALEMATE
    assert left == (1,)
    assert M not in ash.boosts


def test_behemoths_contests_refuse_bad_boost(rules: RulesConstants) -> None:
    with pytest.raises(IllegalAction):
        contest(rules, make(), M, 5, 7, (3,))
