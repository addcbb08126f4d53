"""Exact odds, before the player chooses (issue 12; DESIGN.md > What "fast" means).

Every number here is a :class:`fractions.Fraction` computed by enumerating the chance
inputs the engines take (dice, cards, chips), with memoisation and symmetry where the
enumeration would be long; a distribution's values sum to exactly 1. Each advisor returns
a small frozen dataclass, ready to be shown next to the choice it informs.

This module holds the tests and contests, mining, the Night's activity and the
behemoth's end hex; fishing is :mod:`companion.rules.odds_fishing`, foraging (which card
to keep, encounters) :mod:`companion.rules.odds_foraging`.

- :func:`ability_test_odds`: a test (Rulebook: Basic Concepts > Tests), with and without
  each held legend.
- :func:`contest_odds`: a contest with a behemoth (Rulebook: Behemoths > Contests, D16).
- :func:`mining_odds`: chips, omen matches and yield for one more draw or two (Mining).
- :func:`night_activity_odds`: the coming activity increase (Night Phase > Draw Night
  Cards, Increase Activity; D10).
- :func:`behemoth_odds`: where the behemoth ends its activation and whom it reaches
  (delegates to :func:`companion.rules.behemoth.end_hex_distribution` and
  :func:`~companion.rules.behemoth.reach_probability`).

>>> from companion.content.schema.base import Ability
>>> from companion.rules.character import Age, Character
>>> ash = Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 4}, (), 3, 4, 4)
>>> ability_test_odds(ash, Ability.MIGHT, 8).without_legend.success
Fraction(1, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from types import MappingProxyType
from typing import TypeVar

from companion.content.schema.base import Ability, Omen
from companion.content.schema.cards import MovementRoll, NightCard
from companion.content.schema.effects import Gain
from companion.content.schema.rules import RulesConstants
from companion.rules.behemoth import (
    BehemothState,
    EncounterRule,
    MovementBoard,
    end_hex_distribution,
    reach_probability,
)
from companion.rules.chance import DIE_SIDES
from companion.rules.character import Character
from companion.rules.checks import ContestOutcome, ability_test, contest_outcome
from companion.rules.effects import describe_effect
from companion.rules.ids import CharacterName, HexId, LegendId, Trait
from companion.rules.legends import Legend
from companion.rules.mining import MiningChip, chip_distribution
from companion.rules.society import activity_from_unrest

K = TypeVar("K")

ONE = Fraction(1)
ZERO = Fraction(0)


def frozen(odds: Mapping[K, Fraction]) -> Mapping[K, Fraction]:
    """A read-only copy of ``odds``, keys sorted, zero entries dropped."""
    return MappingProxyType({k: odds[k] for k in sorted(odds, key=_sort_key) if odds[k]})


def _sort_key(key: object) -> tuple[str, object]:
    return (type(key).__name__, key if isinstance(key, int | tuple) else str(key))


def _expectation(odds: Mapping[int, Fraction]) -> Fraction:
    """The mean of a distribution over integers."""
    return sum((k * p for k, p in odds.items()), ZERO)


# --- tests and contests ---------------------------------------------------------------


@dataclass(frozen=True)
class AbilityTestOdds:
    """The odds of one way of making a test: 1d6 + ability + boosts + trait modifiers
    (Rulebook: Basic Concepts > Tests)."""

    __test__ = False  # not a pytest test class

    ability: Ability
    """The ability tested."""
    ability_value: int
    """The ability value used (the character's, or the legend's when substituted)."""
    boosts: int
    """The boosts on the ability, added (and degraded) whatever the die."""
    modifier: int
    """Trait bonuses and penalties that apply."""
    legend: LegendId | None
    """The legend card used, None for the character alone."""
    legend_trait: Trait | None
    """With a legend: the trait it lends (None: it substitutes its ability value)."""
    totals: Mapping[int, Fraction]
    """Probability of each total (die + ability + boosts + modifier); sums to 1."""
    difficulty: int
    """The number to reach (``total >= difficulty`` succeeds)."""

    @property
    def success(self) -> Fraction:
        """Probability that the total reaches the difficulty."""
        return self.at_least(self.difficulty)

    @property
    def failure(self) -> Fraction:
        """1 - :attr:`success`."""
        return ONE - self.success

    def at_least(self, n: int) -> Fraction:
        """Probability of a total of ``n`` or more."""
        return sum((p for t, p in self.totals.items() if t >= n), ZERO)


@dataclass(frozen=True)
class AbilityTestAdvice:
    """A test's odds with the character alone and with each legend that could be used
    (Rulebook: Legends > Using Legend Cards)."""

    without_legend: AbilityTestOdds
    """The character's own ability, boosts and traits."""
    with_legend: tuple[AbilityTestOdds, ...]
    """Each held legend: substituting its ability value, then counting as having each of
    its traits that the test rewards (and the character lacks)."""

    @property
    def best(self) -> AbilityTestOdds:
        """The most likely way to succeed (the character alone on a tie: no card spent)."""
        best = self.without_legend
        for way in self.with_legend:
            if way.success > best.success:
                best = way
        return best


def _ways(
    character: Character,
    trait_modifiers: Mapping[Trait, int],
    legends: Iterable[Legend],
) -> list[tuple[Legend | None, Trait | None]]:
    """The ways to make a test: alone, then each held legend (substitute, or each trait
    that the test rewards and the character lacks)."""
    ways: list[tuple[Legend | None, Trait | None]] = [(None, None)]
    for legend in legends:
        if legend.id not in character.legends:
            continue
        ways.append((legend, None))
        for trait in legend.traits:
            if trait in trait_modifiers and trait not in character.traits:
                ways.append((legend, trait))
    return ways


def _test_totals(
    character: Character,
    ability: Ability,
    trait_modifiers: Mapping[Trait, int],
    legend: Legend | None,
    legend_trait: Trait | None,
) -> tuple[AbilityTestOdds, dict[int, Fraction]]:
    """Run the engine's :func:`~companion.rules.checks.ability_test` on each face."""
    totals: dict[int, Fraction] = {}
    result = None
    for face in range(1, DIE_SIDES + 1):
        result, _ = ability_test(
            character,
            ability,
            face,
            trait_modifiers=trait_modifiers,
            legend=legend,
            legend_trait=legend_trait,
        )
        totals[result.total] = totals.get(result.total, ZERO) + Fraction(1, DIE_SIDES)
    assert result is not None
    odds = AbilityTestOdds(
        ability,
        result.ability_value,
        result.boosts,
        result.modifier,
        result.legend_used,
        legend_trait,
        frozen(totals),
        0,
    )
    return odds, totals


def ability_test_odds(
    character: Character,
    ability: Ability,
    difficulty: int,
    *,
    trait_modifiers: Mapping[Trait, int] | None = None,
    legends: Iterable[Legend] = (),
) -> AbilityTestAdvice:
    """The odds of reaching ``difficulty`` or more in a test of ``ability``, before the
    die is rolled: 1d6 + ability + the boosts on it + trait bonuses/penalties
    (Rulebook: Basic Concepts > Tests; Mantle > Boost Slots).

    ``legends`` are the legend cards the character could use (those not held are
    ignored); each is reported both substituting its ability value and lending each of
    its traits that ``trait_modifiers`` rewards.

    >>> from companion.rules.character import Age, Character
    >>> ash = Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 4}, (), 3, 4, 4,
    ...                 boosts={Ability.MIGHT: (1,)})
    >>> ability_test_odds(ash, Ability.MIGHT, 8).without_legend.success
    Fraction(2, 3)
    """
    mods = dict(trait_modifiers or {})
    out: list[AbilityTestOdds] = []
    for legend, trait in _ways(character, mods, legends):
        odds, _ = _test_totals(character, ability, mods, legend, trait)
        out.append(_with_difficulty(odds, difficulty))
    return AbilityTestAdvice(out[0], tuple(out[1:]))


def _with_difficulty(odds: AbilityTestOdds, difficulty: int) -> AbilityTestOdds:
    return AbilityTestOdds(
        odds.ability,
        odds.ability_value,
        odds.boosts,
        odds.modifier,
        odds.legend,
        odds.legend_trait,
        odds.totals,
        difficulty,
    )


@dataclass(frozen=True)
class ContestOdds:
    """The odds of one way of making a contest (Rulebook: Behemoths > Contests; D16)."""

    test: AbilityTestOdds
    """The character's side (its ``difficulty`` is the behemoth's score + 1)."""
    behemoth_score: int
    """The behemoth's listed value plus its boosts on that ability."""
    outcomes: Mapping[ContestOutcome, Fraction]
    """Probability of success, stalemate and defeat; sums to 1."""

    @property
    def success(self) -> Fraction:
        """Probability of a success (the result is higher than the behemoth's score)."""
        return self.outcomes.get(ContestOutcome.SUCCESS, ZERO)

    @property
    def stalemate(self) -> Fraction:
        """Probability of a stalemate."""
        return self.outcomes.get(ContestOutcome.STALEMATE, ZERO)

    @property
    def defeat(self) -> Fraction:
        """Probability of a defeat."""
        return self.outcomes.get(ContestOutcome.DEFEAT, ZERO)


@dataclass(frozen=True)
class ContestAdvice:
    """A contest's odds alone and with each legend that could be used."""

    without_legend: ContestOdds
    """The character's own ability, boosts and traits."""
    with_legend: tuple[ContestOdds, ...]
    """Each held legend, as in :class:`AbilityTestAdvice`."""


def contest_odds(
    rules: RulesConstants,
    character: Character,
    ability: Ability,
    behemoth_value: int,
    behemoth_boosts: Sequence[int] = (),
    *,
    trait_modifiers: Mapping[Trait, int] | None = None,
    legends: Iterable[Legend] = (),
) -> ContestAdvice:
    """The odds of success, stalemate and defeat in a contest against a behemoth's
    ``ability`` (listed ``behemoth_value``, plus its ``behemoth_boosts``: 1 or 2 each),
    before the die is rolled (Rulebook: Behemoths > Contests; reading D16).

    >>> from companion.rules.character import Age, Character
    >>> from companion.content.schema.rules import Contest
    >>> class R: contest = Contest(stalemate_margin=4)
    >>> ash = Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 4}, (), 3, 4, 4)
    >>> odds = contest_odds(R, ash, Ability.MIGHT, 7, (2,)).without_legend  # type: ignore
    >>> odds.success, odds.stalemate, odds.defeat
    (Fraction(1, 6), Fraction(5, 6), Fraction(0, 1))
    """
    score = behemoth_value + sum(behemoth_boosts)
    mods = dict(trait_modifiers or {})
    out: list[ContestOdds] = []
    for legend, trait in _ways(character, mods, legends):
        test, totals = _test_totals(character, ability, mods, legend, trait)
        outcomes: dict[ContestOutcome, Fraction] = {}
        for total, p in totals.items():
            o = contest_outcome(rules, total, score)
            outcomes[o] = outcomes.get(o, ZERO) + p
        ordered = {o: outcomes[o] for o in ContestOutcome if o in outcomes}
        out.append(ContestOdds(_with_difficulty(test, score + 1), score, MappingProxyType(ordered)))
    return ContestAdvice(out[0], tuple(out[1:]))


# --- mining ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MiningPlan:
    """What ``draws`` more pulls from the bag may give (Rulebook: Mining, steps 4-5)."""

    draws: int
    """Chips pulled from now on (1: stop after this one; 2: pull twice)."""
    chips: Mapping[tuple[str, ...], Fraction]
    """Probability of each set of chips pulled (labels, sorted); sums to 1."""
    matches: Mapping[int, Fraction]
    """Probability of each number of chips whose omen matches a current omen."""
    yields: Mapping[tuple[tuple[str, int], ...], Fraction]
    """Probability of each yield: (resource, tokens) pairs, sorted; the chips' resources
    and the ``gain`` steps of their omen (or match) effects."""
    other_effects: Mapping[tuple[str, ...], Fraction]
    """Probability of each set of the chips' other effects (an injury, energy, activity
    ...), in game words, sorted; ``()`` for none."""

    @property
    def any_other_effect(self) -> Fraction:
        """The chance of at least one effect other than gaining resources."""
        return ONE - self.other_effects.get((), ZERO)

    @property
    def expected_tokens(self) -> Fraction:
        """The mean number of resource tokens gained."""
        return sum((p * sum(n for _, n in y) for y, p in self.yields.items()), ZERO)

    @property
    def expected_matches(self) -> Fraction:
        """The mean number of omen matches."""
        return _expectation(self.matches)

    def expected(self, resource: str) -> Fraction:
        """The mean number of ``resource`` tokens gained."""
        return sum((p * dict(y).get(resource, 0) for y, p in self.yields.items()), ZERO)


@dataclass(frozen=True)
class MiningOdds:
    """Stop after the next chip, or pull twice: one :class:`MiningPlan` each."""

    plans: tuple[MiningPlan, ...]
    """``plans[k - 1]`` pulls ``k`` chips, for k = 1 .. the pulls left."""

    @property
    def stop_after_one(self) -> MiningPlan:
        """Pull one chip and stop."""
        return self.plans[0]

    @property
    def draw_twice(self) -> MiningPlan | None:
        """Pull two chips (None if only one pull is left or the bag holds one chip)."""
        return self.plans[1] if len(self.plans) > 1 else None


def mining_odds(
    bag: Sequence[MiningChip], current_omens: Iterable[Omen], draws_left: int = 2
) -> MiningOdds:
    """Exact odds of the chips, omen matches and yield of pulling 1 .. ``draws_left``
    more chips from ``bag`` (without replacement, D14), given the current omens.

    Chips are told apart by :meth:`MiningChip.label` (chips of one material share their
    face; :func:`~companion.rules.mining.chips_for`). Uses
    :func:`~companion.rules.mining.chip_distribution`.

    >>> chips = [MiningChip("sunstone", Omen.SUN), MiningChip("clay", Omen.MOON)]
    >>> odds = mining_odds(chips, [Omen.SUN])
    >>> dict(odds.stop_after_one.matches), dict(odds.draw_twice.matches)
    ({0: Fraction(1, 2), 1: Fraction(1, 2)}, {1: Fraction(1, 1)})
    """
    omens = set(current_omens)
    face = {chip.label(): chip for chip in bag}
    labels = [chip.label() for chip in bag]
    plans: list[MiningPlan] = []
    for draws in range(1, min(draws_left, len(bag)) + 1):
        matches: dict[int, Fraction] = {}
        yields: dict[tuple[tuple[str, int], ...], Fraction] = {}
        others: dict[tuple[str, ...], Fraction] = {}
        chips = chip_distribution(labels, draws)
        for taken, p in chips.items():
            gained: Counter[str] = Counter()
            texts: list[str] = []
            matched = 0
            for label in taken:
                chip = face[label]
                gained[chip.material] += 1
                hit = chip.omen is not None and chip.omen in omens
                matched += hit
                for effect in chip.match_effects if hit else chip.effects:
                    if isinstance(effect, Gain):
                        gained[str(effect.resource)] += effect.amount
                    else:
                        texts.append(describe_effect(effect))
            key = tuple(sorted(gained.items()))
            other = tuple(sorted(texts))
            others[other] = others.get(other, ZERO) + p
            matches[matched] = matches.get(matched, ZERO) + p
            yields[key] = yields.get(key, ZERO) + p
        plans.append(
            MiningPlan(draws, frozen(chips), frozen(matches), frozen(yields), frozen(others))
        )
    return MiningOdds(tuple(plans))


# --- the Night's activity -------------------------------------------------------------


@dataclass(frozen=True)
class NightHex:
    """A hex with characters, as the Night cards' requirements see it."""

    hex: HexId
    """The hex."""
    features: frozenset[str] = frozenset()
    """Its features (a card's ``requires.features``)."""
    traits: frozenset[str] = frozenset()
    """The traits of the character who will draw (a card's ``requires.trait``)."""


def night_card_resolvable(card: NightCard, where: NightHex, *, unrest: int, activity: int) -> bool:
    """Whether ``card`` can be resolved in ``where`` (Rulebook: Draw Night Cards > Check
    Requirements), as :mod:`companion.rules.night` checks it; unrest and activity are
    their values at nightfall. Public because ``bench/odds.py`` and ``tests/rules/test_odds.py``
    check the Night odds with it; players reach it through the Night's odds advice."""
    needs = card.requires
    if needs.features and not any(str(f) in where.features for f in needs.features):
        return False
    if needs.trait is not None and str(needs.trait) not in where.traits:
        return False
    if needs.min_unrest is not None and unrest < needs.min_unrest:
        return False
    return needs.min_activity is None or activity >= needs.min_activity


_NightClass = tuple[int, tuple[bool, ...]]
"""A Night card as the odds see it: (its activity, where it can be resolved)."""


_Counts = tuple[dict[tuple[int, int], int], int]
"""Orders counted per (activity from cards, cards resolved), and the reshuffle factor."""


def _combine(parts: Sequence[tuple[int, int, _Counts]]) -> _Counts:
    """Sum weighted children counted over different reshuffle factors; a child whose
    card was resolved (``amount`` not -1) adds that amount and one card resolved."""
    top = max((r for _, _, (_, r) in parts), default=1)
    out: dict[tuple[int, int], int] = {}
    get = out.get
    for weight, amount, (found, r) in parts:
        scale = weight * (top // r)
        if amount < 0:
            for key, v in found.items():
                out[key] = get(key, 0) + v * scale
        else:
            for (a, q), v in found.items():
                key = (a + amount, q + 1)
                out[key] = get(key, 0) + v * scale
    return out, top


def _project(key: _NightClass, h: int) -> _NightClass:
    """The card seen from hex ``h`` on: its amount only if it can still be resolved."""
    ok = key[1][h:]
    return (key[0] if any(ok) else 0, ok)


@dataclass(frozen=True)
class NightActivityOdds:
    """The coming Night's activity increase (Rulebook: Night Phase > Increase Activity)."""

    from_cards: Mapping[int, Fraction]
    """Probability of each total of the resolved Night cards' amounts; sums to 1."""
    from_unrest: int
    """Unrest's addition this Night (D10), certain."""
    cards_resolved: Mapping[int, Fraction]
    """Probability of each number of cards resolved (a hex may get none: D20 cases)."""

    @property
    def increase(self) -> Mapping[int, Fraction]:
        """Probability of each total increase (cards + unrest); sums to 1."""
        return MappingProxyType({k + self.from_unrest: p for k, p in self.from_cards.items()})

    @property
    def expected(self) -> Fraction:
        """The mean increase."""
        return _expectation(self.increase)

    def at_least(self, n: int) -> Fraction:
        """Probability that activity rises by ``n`` or more."""
        return sum((p for k, p in self.increase.items() if k >= n), ZERO)


def night_activity_odds(
    rules: RulesConstants,
    pile: Sequence[NightCard],
    discard: Sequence[NightCard],
    hexes: Sequence[NightHex],
    *,
    unrest: int,
    activity: int,
) -> NightActivityOdds:
    """Exact odds of the activity the coming Night adds, over every order of the Night
    cards that can still be drawn (``pile``, in an order unknown to the players).

    Follows :mod:`companion.rules.night` (Rulebook: Draw Night Cards; Increase Activity):
    one card is resolved per hex in ``hexes`` (in drawing order); a card whose
    requirements are unmet there (:func:`night_card_resolvable`) is discarded and
    another drawn; an empty deck reshuffles the discard pile (``discard`` and every card
    drawn this Night); after as many misses as there are cards, the hex gets none. Then
    unrest adds its per-Night amount (D10).

    Cards are grouped by (activity, the hexes where they can still be resolved): while
    drawing for hex h, cards alike for hexes h.. are one class (a card no later hex can
    resolve loses its amount too), so the enumeration runs over counts of those classes,
    memoised, not over orders; each state counts orders in integers until the end.

    Not modelled: a Night card's effects that change unrest or activity before a later
    card's requirements are checked, and the hardcore-solo card burnt at nightfall
    (leave it out of ``pile`` once it is known).
    """
    n_hexes = len(hexes)

    def base(card: NightCard) -> _NightClass:
        ok = tuple(night_card_resolvable(card, h, unrest=unrest, activity=activity) for h in hexes)
        return (card.activity, ok)

    pile_base = Counter(base(c) for c in pile)
    full_base = pile_base + Counter(base(c) for c in discard)
    # Level h sees a card only through the hexes h.. still to draw for, and its amount
    # only if it can be resolved in one of them: cards alike from there on are merged.
    levels: list[list[_NightClass]] = []
    for h in range(n_hexes + 1):
        levels.append(sorted({_project(k, h) for k in full_base}))
    index = [{k: i for i, k in enumerate(level)} for level in levels]
    up = [[index[h + 1][_project(k, 1)] for k in levels[h]] for h in range(n_hexes)]

    def counts_at(h: int, counter: Counter[_NightClass]) -> tuple[int, ...]:
        out = [0] * len(levels[h])
        for k, c in counter.items():
            out[index[h][_project(k, h)]] += c
        return tuple(out)

    full = [counts_at(h, full_base) for h in range(n_hexes + 1)]
    ok_now = [[k[1][0] for k in levels[h]] for h in range(n_hexes)]
    amount_now = [[k[0] for k in levels[h]] for h in range(n_hexes)]
    total = sum(full_base.values())
    limit = total  # the engine gives a hex up after more misses than there are cards
    # Each state's result counts the orders of its pile (and of any reshuffled deck):
    # (counts of (activity, cards resolved), R), the probabilities being counts / (n! R)
    # with n the cards in its pile; integers only until the end.
    memo: dict[tuple[tuple[int, ...], int, int], _Counts] = {}

    def lift(h: int, counts: tuple[int, ...]) -> tuple[int, ...]:
        out = [0] * len(levels[h + 1])
        for i, c in enumerate(counts):
            out[up[h][i]] += c
        return tuple(out)

    def go(counts: tuple[int, ...], h: int, misses: int) -> _Counts:
        n = sum(counts)
        if h == n_hexes:
            return {(0, 0): factorial(n)}, 1
        if n == 0:
            if total == 0:
                return go(lift(h, counts), h + 1, 0)
            # the discard pile is shuffled into a new Night deck
            found, r = go(full[h], h, misses)
            return found, r * factorial(total)
        met = ok_now[h]
        unmet = n - sum(c for c, m in zip(counts, met, strict=True) if m)
        if unmet < n and misses + unmet <= limit:
            # a resolvable card comes before the pile runs out and before the miss
            # limit: the count of misses no longer matters (fewer states to remember)
            misses = 0
        state = (counts, h, misses)
        cached = memo.get(state)
        if cached is not None:
            return cached
        if unmet == n and misses + n <= limit:
            # nothing here can be resolved: the whole pile is drawn, in any order
            found, r = go(tuple(0 for _ in counts), h, misses + n)
            orders = factorial(n)
            result = ({key: v * orders for key, v in found.items()}, r)
        else:
            parts: list[tuple[int, int, _Counts]] = []
            lifted = lift(h, counts)
            amounts = amount_now[h]
            for k, c in enumerate(counts):
                if not c:
                    continue
                if met[k] or misses + 1 > limit:
                    m = up[h][k]
                    rest = lifted[:m] + (lifted[m] - 1,) + lifted[m + 1 :]
                    parts.append((c, amounts[k] if met[k] else -1, go(rest, h + 1, 0)))
                else:
                    rest = counts[:k] + (c - 1,) + counts[k + 1 :]
                    parts.append((c, -1, go(rest, h, misses + 1)))
            result = _combine(parts)
        memo[state] = result
        return result

    start = counts_at(0, pile_base)
    joint, r = go(start, 0, 0)
    denominator = factorial(sum(start)) * r
    from_cards: dict[int, Fraction] = {}
    resolved: dict[int, Fraction] = {}
    for (a, q), v in joint.items():
        p = Fraction(v, denominator)
        from_cards[a] = from_cards.get(a, ZERO) + p
        resolved[q] = resolved.get(q, ZERO) + p
    extra = activity_from_unrest(rules, unrest)
    return NightActivityOdds(frozen(from_cards), extra, frozen(resolved))


# --- the behemoth ---------------------------------------------------------------------


@dataclass(frozen=True)
class BehemothOdds:
    """Where the behemoth ends its next activation and whom it reaches."""

    end_hex: Mapping[HexId, Fraction]
    """Probability of each hex where it ends its activation; sums to 1."""
    reaches: Mapping[CharacterName, Fraction]
    """Per character, the probability that it enters their hex or ends there (or, with
    an encounter rule, that it encounters them by that rule)."""


def behemoth_odds(
    state: BehemothState,
    board: MovementBoard,
    roll: MovementRoll | None,
    target: HexId | None,
    characters: Mapping[CharacterName, HexId | None],
    *,
    rule: EncounterRule | None = None,
) -> BehemothOdds:
    """The behemoth's end hex next Night and the chance it reaches each character, over
    its movement roll and random tie-breaks (Rulebook: Behemoth Activation > Movement,
    Encounters). A thin adapter over :func:`companion.rules.behemoth.end_hex_distribution`
    and :func:`~companion.rules.behemoth.reach_probability`; see those for the arguments.
    """
    ends = end_hex_distribution(state, board, roll, target)
    reaches = reach_probability(state, board, roll, target, characters, rule=rule)
    return BehemothOdds(frozen(ends), MappingProxyType(dict(reaches)))
