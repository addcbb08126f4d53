"""Dice, ability tests and contests (Rulebook: Basic Concepts > Dice, Tests;
Behemoths > Contests, reading D16).

Every die is an input (typed from the table or supplied by :mod:`companion.rules.chance`)
and is validated: a die shows 1 to 6.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.content.schema.base import Ability
from companion.content.schema.rules import RulesConstants
from companion.rules.chance import DIE_SIDES
from companion.rules.character import Character
from companion.rules.errors import IllegalAction
from companion.rules.health import degrade_boosts, use_boosts
from companion.rules.ids import LegendId, Trait
from companion.rules.legends import Legend


def die(value: int) -> int:
    """Validate one die value.

    >>> die(7)
    Traceback (most recent call last):
    ...
    companion.rules.errors.IllegalAction: a die shows 1 to 6; got 7
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= DIE_SIDES:
        raise IllegalAction(f"a die shows 1 to {DIE_SIDES}; got {value}")
    return value


def dice(values: Sequence[int]) -> tuple[int, ...]:
    """Validate several dice."""
    return tuple(die(v) for v in values)


def _turn_die(value: int, by: int) -> int:
    """Turn a die by ``by`` faces; it can't go above 6 or below 1 (Rulebook: Turning Dice).

    >>> _turn_die(5, 2), _turn_die(2, -3)
    (6, 1)
    """
    return max(1, min(DIE_SIDES, die(value) + by))


def resolve_die(rolled: int, rerolls: Sequence[int] = (), turns: Sequence[int] = ()) -> int:
    """The die's final value: each reroll replaces it in turn, then turns apply.

    Effects that turn dice are resolved after effects that reroll dice
    (Rulebook: Basic Concepts > Dice).

    >>> resolve_die(2, rerolls=(1, 4), turns=(+1,))
    5
    """
    value = die(rolled)
    for new in rerolls:
        value = die(new)
    for by in turns:
        value = _turn_die(value, by)
    return value


@dataclass(frozen=True)
class TestResult:
    """How a test added up (Rulebook: Basic Concepts > Tests; Boost Slots)."""

    __test__ = False  # not a pytest test class

    ability: Ability
    """The ability tested."""
    die: int
    """The final die (after rerolls and turns)."""
    ability_value: int
    """The ability value used (the character's or a legend's)."""
    boosts: int
    """The boosts added (then degraded)."""
    modifier: int
    """Trait bonuses and penalties."""
    legend_used: LegendId | None = None
    """The legend card used, to be returned to the unassigned legends."""

    @property
    def total(self) -> int:
        """die + ability + boosts + trait modifiers."""
        return self.die + self.ability_value + self.boosts + self.modifier


def ability_test(
    character: Character,
    ability: Ability,
    rolled: int,
    *,
    rerolls: Sequence[int] = (),
    turns: Sequence[int] = (),
    trait_modifiers: Mapping[Trait, int] | None = None,
    legend: Legend | None = None,
    legend_trait: Trait | None = None,
) -> tuple[TestResult, Character]:
    """Make a test: 1d6 + ability + boosts + trait bonuses/penalties.

    The boosts on the tested ability are added and degraded. ``trait_modifiers`` maps a
    trait to its bonus (positive) or penalty (negative) as the test's text lists them. A
    held ``legend`` is used either to substitute its ability value (``legend_trait`` None)
    or to count as having ``legend_trait``; the card used is reported in ``legend_used``,
    and the caller returns it with :func:`~companion.rules.legends.return_legend`.

    Rulebook: Basic Concepts > Tests; Mantle > Boost Slots; Legends > Using Legend Cards.

    >>> from companion.rules.character import Age, Character
    >>> ash = Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 4}, (Trait("wise"),),
    ...                 health_max=3, energy_max=4, energy=4, boosts={Ability.MIGHT: (2,)})
    >>> result, ash = ability_test(ash, Ability.MIGHT, 3, trait_modifiers={Trait("wise"): 1})
    >>> result.total, ash.boosts[Ability.MIGHT]
    (10, (1,))
    """
    final = resolve_die(rolled, rerolls, turns)
    value = character.ability(ability)
    traits = set(character.traits)
    legend_used: LegendId | None = None
    if legend is not None:
        if legend.id not in character.legends:
            raise IllegalAction(f"{character.name} holds no legend {legend.name}")
        if legend_trait is None:
            value = legend.abilities[ability]
        elif legend_trait in legend.traits:
            traits.add(legend_trait)
        else:
            raise IllegalAction(f"the legend {legend.name} does not have the trait {legend_trait}")
        legend_used = legend.id
    elif legend_trait is not None:
        raise IllegalAction("counting as having a trait needs a legend card")
    modifier = sum(v for t, v in (trait_modifiers or {}).items() if t in traits)
    boost_total, character = use_boosts(character, ability)
    return TestResult(ability, final, value, boost_total, modifier, legend_used), character


def stakes_prompt(character: Character, ability: Ability, difficulty: int, *, success: str,
                failure: str, purpose: str = "", modifier: int = 0) -> str:
    """A test asked with its stakes (Rulebook: Basic Concepts > Tests; issue 27 item 4):
    who tests, which ability (its value and boosts), the difficulty, and what success and
    failure do. ``success`` and ``failure`` are in game words ("gain 1 fish").

    >>> from companion.rules.character import Age, Character
    >>> ash = Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 4}, (), health_max=3,
    ...                 energy_max=4, energy=4, boosts={Ability.MIGHT: (1,)})
    >>> print(stakes_prompt(ash, Ability.MIGHT, 6, success="nothing happens",
    ...                     failure="suffer 1 minor injury", purpose="for Quiet Night"))
    ... # doctest: +NORMALIZE_WHITESPACE
    Ash tests might (6+) for Quiet Night: roll one die; die + might 4 + boosts 1 must
    reach 6. Success: nothing happens. Failure: suffer 1 minor injury.
    """
    value = character.abilities.get(ability, 0)
    boosts = sum(character.boosts.get(ability, ()))
    adds = (f" + boosts {boosts}" if boosts else "") + \
        (f" {modifier:+d} traits" if modifier else "")
    what = f" {purpose}" if purpose else ""
    return (f"{character.name} tests {ability.value} ({difficulty}+){what}: roll one die; "
            f"die + {ability.value} {value}{adds} must reach {difficulty}. "
            f"Success: {success}. Failure: {failure}.")


class ContestOutcome(StrEnum):
    """The three outcomes of a contest (Rulebook: Behemoths > Contests)."""

    SUCCESS = "success"
    STALEMATE = "stalemate"
    DEFEAT = "defeat"


def contest_outcome(rules: RulesConstants, result: int, behemoth_score: int) -> ContestOutcome:
    """Compare a result with the behemoth's score (reading D16).

    Higher wins; equal or short by at most ``rules.contest.stalemate_margin`` is a
    stalemate; short by more is a defeat.
    """
    if result > behemoth_score:
        return ContestOutcome.SUCCESS
    if behemoth_score - result <= rules.contest.stalemate_margin:
        return ContestOutcome.STALEMATE
    return ContestOutcome.DEFEAT


@dataclass(frozen=True)
class ContestResult:
    """How a contest came out."""

    test: TestResult
    """The character's side, as a test."""
    behemoth_value: int
    """The behemoth's listed ability value."""
    behemoth_boosts: int
    """The behemoth's boosts on that ability, added then degraded."""
    outcome: ContestOutcome
    """Success, stalemate or defeat."""

    @property
    def behemoth_score(self) -> int:
        """The value the character's result is compared with."""
        return self.behemoth_value + self.behemoth_boosts


def contest(
    rules: RulesConstants,
    character: Character,
    ability: Ability,
    rolled: int,
    behemoth_value: int,
    behemoth_boosts: tuple[int, ...] = (),
    *,
    rerolls: Sequence[int] = (),
    turns: Sequence[int] = (),
    trait_modifiers: Mapping[Trait, int] | None = None,
    legend: Legend | None = None,
    legend_trait: Trait | None = None,
) -> tuple[ContestResult, Character, tuple[int, ...]]:
    """A contest against a behemoth's ability (Rulebook: Behemoths > Contests, D16).

    Returns the result, the character (boosts degraded) and the behemoth's boosts on that
    ability, degraded. The keyword options are those of :func:`ability_test`.
    """
    for face in behemoth_boosts:
        if face not in (1, 2):
            raise IllegalAction(f"a boost token shows 1 or 2; got {face}")
    test, character = ability_test(
        character,
        ability,
        rolled,
        rerolls=rerolls,
        turns=turns,
        trait_modifiers=trait_modifiers,
        legend=legend,
        legend_trait=legend_trait,
    )
    boosts = sum(behemoth_boosts)
    outcome = contest_outcome(rules, test.total, behemoth_value + boosts)
    return (
        ContestResult(test, behemoth_value, boosts, outcome),
        character,
        degrade_boosts(behemoth_boosts),
    )
