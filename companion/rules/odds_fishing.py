"""Exact fishing odds (issue 12; Rulebook: Activities > Fishing, steps 3-7; D20).

Two advisors, both exact over the outcome cards that can still come (the app's remaining
fishing deck, or the whole pack at the table, passed in as cards):

- :func:`fishing_chances`, before the roll (stock and water known): the chance of
  winning each target over the dice and the outcome card, assuming the best allocation
  for the dice rolled and the best strikes once the outcome is seen;
- :func:`rank_allocations`, after the roll: every legal allocation
  (:func:`~companion.rules.fishing.legal_allocations`) with its expected targets won and
  mishap risk, best first.

**The player's plan.** The dice are divided before the outcome is drawn; once it is seen
(every difficulty known), the player picks a line for each strike location with dice.
Strikes are then certain, so their order does not matter; a target pays once (the
engine's reading, D20), so the best strikes win the most distinct targets, then suffer
the fewest mishaps, then resolve the most bonuses. An allocation is ranked by expected
targets won, then by the chance of any mishap (lower first), then by expected bonuses.

**Speed.** A strike depends on its dice only through their sum, so an allocation is
reduced to its strike values; the best strikes for a given outcome depend only on which
lines each location would win or fail with a mishap, a small key that is memoised. Before
the roll, a roll's allocations are tried by a cheap upper bound on the targets they can
win (the lines each location could win, per card), best first, and the search stops when
no untried allocation can win more targets than the best found. Counts are integers until
the end, then made :class:`~fractions.Fraction`.

Among allocations that rank equal, the first in
:func:`~companion.rules.fishing.legal_allocations` order is ranked first after the roll;
before the roll any of them may be taken (their targets won, mishap chance and bonuses
agree; which target they win may not).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from math import factorial
from types import MappingProxyType

from companion.content.schema.base import WaterLine
from companion.content.schema.cards import FishingCard, StrikeLocation
from companion.rules.chance import DIE_SIDES
from companion.rules.checks import die
from companion.rules.errors import IllegalAction
from companion.rules.fishing import Allocation, final_difficulty

LINES: tuple[WaterLine, ...] = tuple(WaterLine)
"""The three lines, in a fixed order (bit ``1 << i`` is ``LINES[i]``)."""

_Option = tuple[int, int]
"""One line a strike location may strike along, for one outcome: (the line's bit if the
strike succeeds else 0, 1 if it fails with a mishap else 0)."""
_Profile = tuple[tuple[_Option, ...], ...]
"""The options of each strike location with dice, for one outcome card."""
_Best = tuple[int, int, int]
"""The best strikes: (lines won as bits, mishaps suffered, bonuses resolved)."""


@dataclass(frozen=True)
class StrikeCounts:
    """An allocation's best strikes counted over the outcome cards that can come (each
    count is out of the number of cards)."""

    per_line: tuple[int, ...]
    """Cards on which each line's target is won (red, white, black)."""
    won_count: tuple[int, ...]
    """Cards on which 0, 1, 2, 3 targets are won."""
    mishap_any: int
    """Cards with at least one mishap."""
    mishaps: int
    """Mishaps summed over the cards."""
    bonuses: int
    """Bonuses summed over the cards."""
    rank: tuple[int, int, int]
    """Targets won summed, minus ``mishap_any``, ``bonuses``: higher is better."""


@dataclass(frozen=True)
class FishingChances:
    """Fishing odds before the dice are rolled (the stock and water known)."""

    target_chances: Mapping[WaterLine, Fraction]
    """Per line, the probability of winning its target."""
    targets_won: Mapping[int, Fraction]
    """Probability of winning 0, 1, 2 or 3 targets; sums to 1."""
    mishap_chance: Fraction
    """Probability of suffering at least one mishap."""
    expected_mishaps: Fraction
    """The mean number of mishaps."""
    expected_bonuses: Fraction
    """The mean number of bonuses resolved."""

    @property
    def expected_targets(self) -> Fraction:
        """The mean number of targets won."""
        return sum((k * p for k, p in self.targets_won.items()), Fraction(0))


@dataclass(frozen=True)
class AllocationOdds:
    """One legal allocation of the rolled dice, with its odds over the outcome cards."""

    allocation: Allocation
    """Dice on each strike location, as :func:`~companion.rules.fishing.legal_allocations`
    gives it."""
    strike_values: tuple[int, ...]
    """The sum of the dice at each strike location (0: no dice)."""
    counts: StrikeCounts
    """The counts over the outcome cards the properties below are made of."""
    outcomes: int
    """The number of outcome cards that can come."""

    @property
    def target_chances(self) -> Mapping[WaterLine, Fraction]:
        """Per line, the probability of winning its target with the best strikes."""
        return _frac_lines(self.counts.per_line, self.outcomes)

    @property
    def targets_won(self) -> Mapping[int, Fraction]:
        """Probability of winning 0, 1, 2 or 3 targets; sums to 1."""
        return _frac_won(self.counts.won_count, self.outcomes)

    @property
    def mishap_chance(self) -> Fraction:
        """Probability of at least one mishap with the best strikes."""
        return Fraction(self.counts.mishap_any, self.outcomes)

    @property
    def expected_mishaps(self) -> Fraction:
        """The mean number of mishaps."""
        return Fraction(self.counts.mishaps, self.outcomes)

    @property
    def expected_bonuses(self) -> Fraction:
        """The mean number of bonuses resolved."""
        return Fraction(self.counts.bonuses, self.outcomes)

    @property
    def expected_targets(self) -> Fraction:
        """The mean number of targets won."""
        return Fraction(self.counts.rank[0], self.outcomes)


# --- the pieces -----------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _best_all(profile: _Profile) -> tuple[tuple[int, int], ...]:
    """Every undominated (lines won, mishaps) pair reachable: lines won as bits."""
    found: dict[int, int] = {}
    for pick in product(*profile):
        won = 0
        mishaps = 0
        for bit, mishap in pick:
            won |= bit
            mishaps += mishap
        if won not in found or mishaps < found[won]:
            found[won] = mishaps
    return tuple(found.items())


def _best_for(profile: _Profile, bonus_mask: int) -> _Best:
    """The best strikes for one outcome card (bonus lines ``bonus_mask``)."""
    best: tuple[int, int, int, int] | None = None
    for won, mishaps in _best_all(profile):
        score = (won.bit_count(), -mishaps, (won & bonus_mask).bit_count(), won)
        if best is None or score > best:
            best = score
    assert best is not None
    return (best[3], -best[1], best[2])


_BITS = 24
_MASK = (1 << _BITS) - 1


def _pack(won: int, mishaps: int, bonuses: int) -> int:
    """One outcome's result as counts packed in one integer (fields of ``_BITS`` bits):
    each line won, the number of targets won (one-hot), any mishap, mishaps, bonuses."""
    v = 0
    for i in range(len(LINES)):
        if won >> i & 1:
            v += 1 << (_BITS * i)
    v += 1 << (_BITS * (3 + won.bit_count()))
    v += int(mishaps > 0) << (_BITS * 7)
    v += mishaps << (_BITS * 8)
    v += bonuses << (_BITS * 9)
    return v


class _Layout:
    """The stock, water and outcome cards, precomputed for fast evaluation.

    For each strike location, the strike values that behave alike against every outcome
    card (win and fail on the same lines) share a *class*; class 0 is "no dice". An
    allocation is evaluated by its tuple of classes, one per location (its *key*)."""

    def __init__(
        self,
        stock: FishingCard,
        water: Sequence[StrikeLocation],
        outcomes: Sequence[FishingCard],
        dice: int,
    ) -> None:
        if not outcomes:
            raise IllegalAction("no outcome card can come: the fishing deck is empty")
        self.sizes = tuple(loc.size for loc in water)
        self.dice = dice
        self.surplus = max(0, dice - sum(self.sizes))
        self.room_after = tuple(sum(self.sizes[i + 1 :]) for i in range(len(self.sizes)))
        lines = [tuple(LINES.index(line) for line in loc.lines) for loc in water]
        top = 2 * DIE_SIDES + 1
        rules = []
        self.bonus: tuple[int, ...] = ()
        bonus: list[int] = []
        for card in outcomes:
            difficulty = [
                final_difficulty(stock.targets[line].difficulty, card.modifiers[line])
                for line in LINES
            ]
            mishap = [int(card.modifiers[line].extra == "mishap") for line in LINES]
            bonus.append(
                sum(1 << i for i, line in enumerate(LINES) if card.modifiers[line].extra == "bonus")
            )
            rules.append((difficulty, mishap))
        self.bonus = tuple(bonus)
        self.cards = len(outcomes)
        # value_class[i][s]: the class of strike value s at location i (0: no dice);
        # signatures[c][o]: the options of class c against outcome card o. Locations
        # crossed by the same lines share their classes.
        self.signatures: list[tuple[tuple[_Option, ...], ...]] = [()]
        seen: dict[tuple[tuple[_Option, ...], ...], int] = {}
        self.value_class: list[list[int]] = []
        for loc_lines in lines:
            classes = [0]
            for s in range(1, top):
                sig = tuple(
                    tuple(
                        sorted(
                            {
                                (1 << i, 0) if s >= difficulty[i] else (0, mishap[i])
                                for i in loc_lines
                            }
                        )
                    )
                    for difficulty, mishap in rules
                )
                if sig not in seen:
                    seen[sig] = len(self.signatures)
                    self.signatures.append(sig)
                classes.append(seen[sig])
            self.value_class.append(classes)
        self._memo: dict[tuple[int, ...], StrikeCounts] = {}
        self._card_memo: dict[tuple[int, _Profile], int] = {}
        # an allocation's classes packed in one integer, ``bits`` bits per location
        self.bits = max(1, len(self.signatures).bit_length())
        self._packed_memo: dict[int, StrikeCounts] = {}
        self._suffix_memo: dict[tuple[int, tuple[int, ...]], frozenset[int]] = {}
        # winnable[c][i]: the outcome cards (as bits) on which class c can win line i
        self.winnable = [
            [
                sum(1 << o for o, opts in enumerate(sig) if any(b == 1 << i for b, _ in opts))
                for i in range(len(LINES))
            ]
            for sig in self.signatures
        ]
        self._bound_memo: dict[int, int] = {}

    def bound(self, packed: int) -> int:
        """An upper bound on the targets won summed over the outcome cards: per card, the
        lines some location could win (cheap: no strike plan is searched)."""
        found = self._bound_memo.get(packed)
        if found is None:
            mask = (1 << self.bits) - 1
            lines = [0] * len(LINES)
            for i in range(len(self.sizes)):
                for n, cards in enumerate(self.winnable[(packed >> (self.bits * i)) & mask]):
                    lines[n] |= cards
            found = sum(cards.bit_count() for cards in lines)
            self._bound_memo[packed] = found
        return found

    def key(self, values: Sequence[int]) -> tuple[int, ...]:
        """The class of each location's strike value (0: no dice)."""
        return tuple(self.value_class[i][v] for i, v in enumerate(values))

    def evaluate(self, key: tuple[int, ...]) -> StrikeCounts:
        """Counts over the outcome cards for the allocation with classes ``key``."""
        found = self._memo.get(key)
        if found is None:
            # the order of the locations does not change the best strikes
            canonical = tuple(sorted(c for c in key if c))
            found = self._memo.get(canonical)
            if found is None:
                found = self._evaluate(canonical)
                self._memo[canonical] = found
            self._memo[key] = found
        return found

    def _evaluate(self, key: tuple[int, ...]) -> StrikeCounts:
        used = [self.signatures[c] for c in key]
        profiles: Iterable[_Profile] = zip(*used, strict=True) if used else [()] * self.cards
        memo = self._card_memo
        packed = 0
        for bonus_mask, profile in zip(self.bonus, profiles, strict=True):
            v = memo.get((bonus_mask, profile))
            if v is None:
                v = _pack(*_best_for(profile, bonus_mask))
                memo[(bonus_mask, profile)] = v
            packed += v
        f = [(packed >> (_BITS * k)) & _MASK for k in range(10)]
        won_count = tuple(f[3:7])
        expected = sum(k * c for k, c in enumerate(won_count))
        return StrikeCounts(tuple(f[0:3]), won_count, f[7], f[8], f[9], (expected, -f[7], f[9]))

    def packed_evaluate(self, packed: int) -> StrikeCounts:
        """:meth:`evaluate` for an allocation's classes packed in one integer."""
        found = self._packed_memo.get(packed)
        if found is None:
            mask = (1 << self.bits) - 1
            key = tuple((packed >> (self.bits * i)) & mask for i in range(len(self.sizes)))
            found = self.evaluate(key)
            self._packed_memo[packed] = found
        return found

    def best(self, dice: tuple[int, ...]) -> StrikeCounts:
        """The best allocation's counts for ``dice``: the allocations are tried by their
        :meth:`bound`, highest first, until no untried one can win more targets."""
        bounds = self._bound_memo
        found = self.keys(dice)
        for packed in [k for k in found if k not in bounds]:
            self.bound(packed)
        keys = sorted(found, key=bounds.__getitem__, reverse=True)
        best: StrikeCounts | None = None
        for packed in keys:
            if best is not None and bounds[packed] < best.rank[0]:
                break
            counts = self.packed_evaluate(packed)
            if best is None or counts.rank > best.rank:
                best = counts
        assert best is not None
        return best

    def keys(self, dice: tuple[int, ...]) -> frozenset[int]:
        """The packed keys of every legal allocation of ``dice`` (sorted high to low)."""
        return self._suffix(0, dice)

    def _suffix(self, i: int, left: tuple[int, ...]) -> frozenset[int]:
        """Packed keys for locations ``i``.. with the dice ``left`` still to place (all
        of them, or all but the surplus the water cannot hold)."""
        if i == len(self.sizes):
            return frozenset({0}) if len(left) == self.surplus else frozenset()
        memo = self._suffix_memo.get((i, left))
        if memo is not None:
            return memo
        out: set[int] = set()
        classes = self.value_class[i]
        shift = self.bits * i
        for chosen, rest in _splits(left, self.sizes[i]):
            if len(rest) - self.surplus > self.room_after[i]:
                continue
            c = classes[sum(chosen)] << shift
            out.update(c + tail for tail in self._suffix(i + 1, rest))
        result = frozenset(out)
        self._suffix_memo[(i, left)] = result
        return result


def allocations(water: Sequence[StrikeLocation], dice: Sequence[int]) -> list[Allocation]:
    """Every legal allocation, as :func:`~companion.rules.fishing.legal_allocations` lists
    them (the same list, built with memoised splits)."""
    sizes = [loc.size for loc in water]
    to_place = min(len(dice), sum(sizes))
    surplus = len(dice) - to_place
    room_after = [sum(sizes[i + 1 :]) for i in range(len(sizes))]
    found: list[Allocation] = []

    def place(i: int, left: tuple[int, ...], placed: tuple[tuple[int, ...], ...]) -> None:
        if i == len(sizes):
            if len(left) == surplus:
                found.append(placed)
            return
        for chosen, rest in _splits(left, sizes[i]):
            if len(rest) - surplus <= room_after[i]:
                place(i + 1, rest, (*placed, chosen))

    place(0, tuple(sorted(dice, reverse=True)), ())
    return sorted(set(found))


@lru_cache(maxsize=4096)
def _splits(
    values: tuple[int, ...], most: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Each distinct sub-multiset of ``values`` (sorted high to low) of at most ``most``
    items, with what is left."""
    out: dict[tuple[int, ...], tuple[int, ...]] = {}
    for k in range(most + 1):
        for idx in combinations(range(len(values)), k):
            chosen = tuple(values[j] for j in idx)
            if chosen not in out:
                out[chosen] = tuple(v for j, v in enumerate(values) if j not in idx)
    return tuple(sorted(out.items()))


def _frac_lines(per_line: Sequence[int], total: int) -> Mapping[WaterLine, Fraction]:
    return MappingProxyType({LINES[i]: Fraction(per_line[i], total) for i in range(len(LINES))})


def _frac_won(won_count: Sequence[int], total: int) -> Mapping[int, Fraction]:
    return MappingProxyType({k: Fraction(c, total) for k, c in enumerate(won_count) if c})


# --- the advisors ---------------------------------------------------------------------


def rank_allocations(
    stock: FishingCard,
    water: Sequence[StrikeLocation],
    dice: Sequence[int],
    outcomes: Iterable[FishingCard],
) -> tuple[AllocationOdds, ...]:
    """Every legal allocation of the rolled ``dice`` to the ``water``'s strike locations,
    with its odds over the outcome cards that can still come (``outcomes``, each equally
    likely to be drawn), best first (Rulebook: Fishing, steps 4-7).

    Ranked by expected targets won, then lower mishap chance, then expected bonuses.
    """
    cards = tuple(outcomes)
    layout = _Layout(stock, water, cards, len(dice))
    ranked: list[tuple[tuple[int, int, int], int, AllocationOdds]] = []
    for n, allocation in enumerate(allocations(water, [die(d) for d in dice])):
        values = tuple(sum(d) for d in allocation)
        ev = layout.evaluate(layout.key(values))
        odds = AllocationOdds(allocation, values, ev, layout.cards)
        ranked.append((ev.rank, -n, odds))
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    return tuple(r[2] for r in ranked)


def fishing_chances(
    stock: FishingCard,
    water: Sequence[StrikeLocation],
    outcomes: Iterable[FishingCard],
    dice: int = 4,
) -> FishingChances:
    """The odds of fishing before the roll: over every roll of ``dice`` dice (rules:
    ``RulesConstants.fishing.dice``) and every outcome card in ``outcomes``, with the
    best allocation for each roll (as :func:`rank_allocations` ranks them) and the best
    strikes once the outcome is seen (Rulebook: Fishing, steps 3-7)."""
    cards = tuple(outcomes)
    layout = _Layout(stock, water, cards, dice)
    per_line = [0, 0, 0]
    won_count = [0, 0, 0, 0]
    mishap_any = mishaps = bonuses = 0
    for roll in combinations_with_replacement(range(DIE_SIDES, 0, -1), dice):
        ways = _arrangements(roll)
        best = layout.best(roll)
        for i in range(len(LINES)):
            per_line[i] += ways * best.per_line[i]
        for k in range(len(won_count)):
            won_count[k] += ways * best.won_count[k]
        mishap_any += ways * best.mishap_any
        mishaps += ways * best.mishaps
        bonuses += ways * best.bonuses
    total = DIE_SIDES**dice * layout.cards
    return FishingChances(
        _frac_lines(per_line, total),
        _frac_won(won_count, total),
        Fraction(mishap_any, total),
        Fraction(mishaps, total),
        Fraction(bonuses, total),
    )


def _arrangements(roll: tuple[int, ...]) -> int:
    """How many ordered rolls give the multiset ``roll``."""
    ways = factorial(len(roll))
    for v in set(roll):
        ways //= factorial(roll.count(v))
    return ways
