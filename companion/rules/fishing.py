"""Fishing (Rulebook: Activities > Fishing, steps 1-7; readings D3, D15).

The fishing deck's cards serve three ways: the first card drawn is the **stock** (its
face: three targets, each a base difficulty and contents), the second the **water** (its
back: strike locations holding 1 or 2 dice, crossed by the red, white and black lines),
the third the **outcome** (its face: a difficulty modifier per line, maybe with Bonus or
Mishap). Four dice are rolled and divided between the strike locations *before* the
outcome is drawn; then each strike location with dice is resolved along one line that
crosses it.

:class:`FishingProcedure` walks the steps (chance as input, see
:mod:`companion.rules.procedure`); :func:`legal_allocations`, :func:`final_difficulty`
and :func:`resolve_strike` are the pure pieces, usable by the odds advisor.

Readings this module takes (each also in its docstring):

- *Every die is placed.* "Divide these dice as you choose between the strike locations"
  divides all of them; only when the water holds fewer dice than were rolled are the
  surplus dice left off (the player chooses which, by where the water fills up).
- *A target pays once.* "The rewards in each target box can be collected only once": a
  success on a line whose target was already collected gains nothing, and its Bonus
  (printed under the modifier, resolved as part of acquiring the target) is not
  resolved either (D20, the least favourable reading). A failure still resolves Mishap.
- The action's energy cost (D3) is paid by the Fish action, not by this procedure; the
  outcome's ``energy`` is only what fishing itself costs (the lake's mishap).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.content.schema.base import WaterLine
from companion.content.schema.cards import (
    FishingCard,
    FishingModifier,
    FishingTarget,
    StrikeLocation,
)
from companion.content.schema.effects import Effect
from companion.content.schema.world import FishingTerrain
from companion.rules.decks import card_of, deck_from_json, deck_state, deck_text, resource_tokens
from companion.rules.effects import Tally as Tally
from companion.rules.effects import describe_effect as describe_effect
from companion.rules.effects import referenced_resources as referenced_resources
from companion.rules.effects import token_catalogue as token_catalogue
from companion.rules.effects import token_from_state as token_from_state
from companion.rules.effects import token_to_state as token_to_state
from companion.rules.errors import IllegalAction
from companion.rules.procedure import (
    Choice,
    Decider,
    Outcome,
    Procedure,
    Step,
    check_dice,
    check_option,
)
from companion.rules.resources import BagToken

# --- the pure pieces ------------------------------------------------------------------

Allocation = tuple[tuple[int, ...], ...]
"""Dice placed on each strike location of the water, in the water's order; each
location's dice sorted from high to low (so equal allocations compare equal)."""


def legal_allocations(water: Sequence[StrikeLocation], dice: Sequence[int]) -> list[Allocation]:
    """Every distinct way to divide ``dice`` between the strike locations (Step 4).

    Each location holds at most its size. Every die is placed; if the water holds fewer
    dice than were rolled, it is filled and the surplus left off (reading: "Divide these
    dice as you choose" divides them all). Sorted, without duplicates.

    >>> from companion.content.schema.cards import StrikeLocation as S
    >>> legal_allocations([S(size=1, lines=["red"]), S(size=2, lines=["white"])], [6, 1, 1])
    [((1,), (6, 1)), ((6,), (1, 1))]
    """
    sizes = [loc.size for loc in water]
    to_place = min(len(dice), sum(sizes))
    found: set[Allocation] = set()

    def place(index: int, left: tuple[int, ...], placed: list[tuple[int, ...]]) -> None:
        if index == len(sizes):
            if len(dice) - len(left) == to_place:
                found.add(tuple(placed))
            return
        for chosen in _sub_multisets(left, sizes[index]):
            rest = list(left)
            for value in chosen:
                rest.remove(value)
            place(index + 1, tuple(rest), [*placed, chosen])

    place(0, tuple(sorted(dice, reverse=True)), [])
    return sorted(found)


def _sub_multisets(values: tuple[int, ...], most: int) -> set[tuple[int, ...]]:
    """Distinct sub-multisets of ``values`` (sorted high to low) of at most ``most`` items."""
    out: set[tuple[int, ...]] = {()}
    for _ in range(most):
        out |= {
            tuple(sorted((*chosen, v), reverse=True))
            for chosen in out
            for v in set(values)
            if chosen.count(v) + 1 <= values.count(v)
        }
    return {c for c in out if len(c) <= most}


def final_difficulty(base: int, modifier: FishingModifier) -> int:
    """The line's final difficulty: the base difficulty +Y, -Y or xY (Step 6).

    >>> from companion.content.schema.cards import FishingModifier as M
    >>> [final_difficulty(6, M.model_validate(t)) for t in ("+2", "-1 mishap", "x2 bonus")]
    [8, 5, 12]
    """
    return modifier.apply(base)


@dataclass(frozen=True)
class Strike:
    """The result of one strike (Step 6)."""

    strike_value: int
    """Sum of the dice at the strike location."""
    difficulty: int
    """The line's final difficulty."""
    success: bool
    """strike value >= final difficulty."""
    contents: tuple[Effect, ...]
    """What is acquired: the target's contents, or nothing (failure, or already collected)."""
    bonus: bool
    """Resolve the terrain's bonus."""
    mishap: bool
    """Resolve the terrain's mishap."""


def resolve_strike(
    target: FishingTarget, modifier: FishingModifier, dice: Sequence[int], *, collected: bool
) -> Strike:
    """Resolve a strike of ``dice`` along a line to ``target`` with ``modifier`` (Step 6).

    Success when the strike value equals or exceeds the final difficulty; then the
    target's contents are acquired and, if the modifier says Bonus, the terrain's bonus.
    On failure, Mishap if the modifier says so. A target already ``collected`` pays
    nothing (Step 7), and its Bonus is not resolved (reading, D20).

    Public because ``bench/odds.py`` and ``tests/rules/test_odds_fishing.py`` check the
    fishing odds against it; players reach it through the fishing procedure's strike step.
    """
    value = sum(dice)
    difficulty = final_difficulty(target.difficulty, modifier)
    success = value >= difficulty
    pays = success and not collected
    return Strike(
        strike_value=value,
        difficulty=difficulty,
        success=success,
        contents=target.contents if pays else (),
        bonus=pays and modifier.extra == "bonus",
        mishap=not success and modifier.extra == "mishap",
    )


def _modifier_text(modifier: FishingModifier) -> str:
    text = f"{modifier.op}{modifier.value}"
    return f"{text} {modifier.extra}" if modifier.extra else text


def _location_text(index: int, loc: StrikeLocation) -> str:
    lines = ", ".join(line.value for line in loc.lines)
    return f"location {index + 1} (holds {loc.size}; {lines})"


# --- the procedure --------------------------------------------------------------------


@dataclass(frozen=True)
class FishingProcedure:
    """The Fish activity, step by step (Rulebook: Fishing, steps 1-7).

    Build it with :meth:`start`; every input goes through :meth:`apply`.
    """

    character: str
    """Who fishes."""
    terrain: str
    """The feature fished (lake, river, wetlands ...)."""
    fishing: FishingTerrain
    """The terrain's bonus and mishap (reading D15)."""
    deck: tuple[FishingCard, ...]
    """The fishing deck (shuffled at step 1: any card can come)."""
    tokens: Mapping[str, BagToken]
    """Resource id -> token gained, for every resource this fishing can yield."""
    dice_count: int
    """Dice rolled at step 3 (RulesConstants.fishing.dice)."""
    stock: str | None = None
    water: str | None = None
    dice: tuple[int, ...] | None = None
    placed: tuple[tuple[int, ...], ...] = ()
    """Dice placed on each strike location, in the order placed (see :attr:`allocation`)."""
    outcome_card: str | None = None
    struck: tuple[int, ...] = ()
    """Strike locations resolved (their dice removed), in order."""
    collected: tuple[WaterLine, ...] = ()
    """Lines whose target has been collected."""
    choosing_bonus: bool = False
    """The terrain's bonus is a choice (wetlands) and the player is choosing."""
    tally: Tally = Tally()
    deck_json: str = field(default="", compare=False, repr=False)
    """The deck as JSON text (a cache: saving and resuming a procedure re-reads the same
    cards at every step, and equal decks then share their card objects)."""

    kind = "fishing"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        character: str,
        terrain: str,
        fishing: FishingTerrain,
        deck: Iterable[FishingCard],
        tokens: Mapping[str, BagToken],
        dice_count: int,
    ) -> FishingProcedure:
        """A new fishing activity at ``terrain``, from the pack's fishing ``deck``.

        ``tokens`` is the pack's :func:`token_catalogue` (only the resources this
        fishing can yield are kept)."""
        cards = tuple(deck)
        if len({c.id for c in cards}) != len(cards):
            raise IllegalAction("the fishing deck lists a card twice")
        if len(cards) < 3:
            raise IllegalAction("fishing needs a deck of at least 3 cards (stock, water, outcome)")
        if dice_count < 1:
            raise IllegalAction("fishing rolls at least one die")
        wanted = referenced_resources(
            [e for c in cards for t in c.targets.values() for e in t.contents]
            + list(fishing.bonus)
            + list(fishing.mishap)
        )
        known = resource_tokens(wanted, tokens)
        text = deck_text(cards)
        return cls(
            character=character,
            terrain=terrain,
            fishing=fishing,
            deck=deck_from_json(FishingCard, text),
            tokens=known,
            dice_count=dice_count,
            deck_json=text,
        )

    # -- reading the layout -------------------------------------------------------

    def card(self, card_id: str) -> FishingCard:
        """A card of the deck by id."""
        return card_of(self.deck, card_id, f"{card_id} is not a card of the fishing deck")

    @property
    def locations(self) -> tuple[StrikeLocation, ...]:
        """The water's strike locations (empty before the water is drawn)."""
        return self.card(self.water).water if self.water else ()

    @property
    def allocation(self) -> Allocation:
        """The dice placed so far, as one of :func:`legal_allocations` once all are placed."""
        return tuple(tuple(sorted(dice, reverse=True)) for dice in self.placed)

    def _to_place(self) -> int:
        assert self.dice is not None
        return min(len(self.dice), sum(loc.size for loc in self.locations))

    def _placed_count(self) -> int:
        return sum(len(p) for p in self.placed)

    def _waiting(self) -> list[int]:
        """Strike locations that still have dice."""
        return [i for i, p in enumerate(self.placed) if p and i not in self.struck]

    # -- the protocol -------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        drawn = {self.stock, self.water, self.outcome_card}
        remaining = tuple(c.id for c in self.deck if c.id not in drawn)
        if self.stock is None:
            return Step("Step 1: draw the stock card", Decider.CARD, remaining)
        if self.water is None:
            return Step("Step 2: draw the water card", Decider.CARD, remaining)
        if self.dice is None:
            return Step(f"Step 3: roll {self.dice_count} dice", Decider.DICE, count=self.dice_count)
        if self._placed_count() < self._to_place():
            n = self._placed_count()
            value = self.dice[n]
            room = [i for i, loc in enumerate(self.locations) if len(self.placed[i]) < loc.size]
            options = tuple(str(i + 1) for i in room)
            labels = {str(i + 1): _location_text(i, self.locations[i]) for i in room}
            return Step(
                f"Step 4: place the {value} (die {n + 1} of {len(self.dice)}) on a strike location",
                Decider.PLAYER,
                options,
                labels=labels,
            )
        if self.outcome_card is None:
            return Step("Step 5: draw the outcome card", Decider.CARD, remaining)
        if self.choosing_bonus:
            options = tuple(str(i + 1) for i in range(len(self.fishing.bonus)))
            labels = {str(i + 1): describe_effect(e) for i, e in enumerate(self.fishing.bonus)}
            return Step(
                f"Bonus at the {self.terrain}: choose one", Decider.PLAYER, options, labels=labels
            )
        options_list: list[str] = []
        labels = {}
        for i in self._waiting():
            for line in self.locations[i].lines:
                key = f"{i + 1}/{line.value}"
                options_list.append(key)
                labels[key] = self._strike_label(i, line)
        if options_list:
            return Step(
                "Step 6: choose a strike location with dice and a line through it",
                Decider.PLAYER,
                tuple(options_list),
                labels=labels,
            )
        raise IllegalAction("fishing is over")

    def _strike_label(self, index: int, line: WaterLine) -> str:
        stock, outcome = self.card(self.stock or ""), self.card(self.outcome_card or "")
        target, modifier = stock.targets[line], outcome.modifiers[line]
        dice = self.placed[index]
        difficulty = final_difficulty(target.difficulty, modifier)
        paid = " (already collected)" if line in self.collected else ""
        contents = ", ".join(describe_effect(e) for e in target.contents)
        return (
            f"location {index + 1}, {line.value} line: "
            f"{'+'.join(map(str, dice))} = {sum(dice)} vs {target.difficulty} "
            f"{_modifier_text(modifier)} = {difficulty} for {contents}{paid}"
        )

    def apply(self, choice: Choice) -> FishingProcedure:
        """The next state after ``choice``."""
        if self.is_finished():
            raise IllegalAction("fishing is over")
        step = self.step()
        if self.stock is None:
            card = check_option(step, choice)
            return replace(self, stock=card, tally=self.tally.note(f"Stock: {card}."))
        if self.water is None:
            card = check_option(step, choice)
            water = self.card(card).water
            return replace(
                self,
                water=card,
                placed=tuple(() for _ in water),
                tally=self.tally.note(f"Water: {card} ({len(water)} strike locations)."),
            )
        if self.dice is None:
            dice = check_dice(step, choice)
            return replace(
                self, dice=dice, tally=self.tally.note(f"Rolled {', '.join(map(str, dice))}.")
            )
        if self._placed_count() < self._to_place():
            index = int(check_option(step, choice)) - 1
            value = self.dice[self._placed_count()]
            placed = list(self.placed)
            placed[index] = (*placed[index], value)
            return replace(
                self,
                placed=tuple(placed),
                tally=self.tally.note(f"Placed the {value} on location {index + 1}."),
            )
        if self.outcome_card is None:
            card = check_option(step, choice)
            return replace(self, outcome_card=card, tally=self.tally.note(f"Outcome: {card}."))
        if self.choosing_bonus:
            effect = self.fishing.bonus[int(check_option(step, choice)) - 1]
            tally = self.tally.apply([effect], self.tokens)
            return replace(
                self, choosing_bonus=False, tally=tally.note(f"Bonus: {describe_effect(effect)}.")
            )
        return self._strike(check_option(step, choice))

    def _strike(self, key: str) -> FishingProcedure:
        where, line_name = key.split("/")
        index, line = int(where) - 1, WaterLine(line_name)
        stock, outcome = self.card(self.stock or ""), self.card(self.outcome_card or "")
        modifier = outcome.modifiers[line]
        strike = resolve_strike(
            stock.targets[line], modifier, self.placed[index], collected=line in self.collected
        )
        head = (
            f"Location {index + 1}, {line.value} line: strike {strike.strike_value} "
            f"vs difficulty {strike.difficulty}"
        )
        tally = self.tally
        collected = self.collected
        choosing = False
        if strike.success and strike.contents:
            collected = (*collected, line)
            gains = ", ".join(describe_effect(e) for e in strike.contents)
            tally = tally.apply(strike.contents, self.tokens).note(f"{head}: success, {gains}.")
        elif strike.success:
            tally = tally.note(f"{head}: success, but the {line.value} target was collected.")
        else:
            tally = tally.note(f"{head}: failure.")
        if strike.bonus:
            if self.fishing.bonus_choice and len(self.fishing.bonus) > 1:
                choosing = True
            else:
                texts = ", ".join(describe_effect(e) for e in self.fishing.bonus)
                tally = tally.apply(self.fishing.bonus, self.tokens).note(f"Bonus: {texts}.")
        if strike.mishap:
            texts = ", ".join(describe_effect(e) for e in self.fishing.mishap)
            tally = tally.apply(self.fishing.mishap, self.tokens).note(f"Mishap: {texts}.")
        return replace(
            self,
            struck=(*self.struck, index),
            collected=collected,
            choosing_bonus=choosing,
            tally=tally,
        )

    def is_finished(self) -> bool:
        """Every strike location with dice has been resolved."""
        if self.outcome_card is None or self.dice is None or self.choosing_bonus:
            return False
        return self._placed_count() >= self._to_place() and not self._waiting()

    def outcome(self) -> Outcome:
        """What fishing did to the character."""
        return self.tally.outcome({"collected": [line.value for line in self.collected]})

    def describe(self) -> str:
        """The layout and what happened so far."""
        lines = [f"{self.character} fishes at the {self.terrain}."]
        if self.stock:
            stock = self.card(self.stock)
            lines.append(
                "Stock "
                + self.stock
                + ": "
                + "; ".join(
                    f"{line.value} {t.difficulty} for "
                    + ", ".join(describe_effect(e) for e in t.contents)
                    for line, t in stock.targets.items()
                )
            )
        if self.water:
            lines.append(
                "Water "
                + self.water
                + ": "
                + "; ".join(
                    _location_text(i, loc)
                    + (f" dice {list(self.placed[i])}" if self.placed[i] else "")
                    for i, loc in enumerate(self.locations)
                )
            )
        if self.outcome_card:
            outcome = self.card(self.outcome_card)
            lines.append(
                "Outcome "
                + self.outcome_card
                + ": "
                + "; ".join(
                    f"{line.value} {_modifier_text(m)}" for line, m in outcome.modifiers.items()
                )
            )
        lines.extend(self.tally.log)
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (cards and terrain included, so it resumes without content)."""
        return {
            "kind": self.kind,
            "character": self.character,
            "terrain": self.terrain,
            "fishing": self.fishing.model_dump(mode="json"),
            "deck": deck_state(self.deck_json, self.deck),
            "tokens": {k: token_to_state(t) for k, t in self.tokens.items()},
            "dice_count": self.dice_count,
            "stock": self.stock,
            "water": self.water,
            "dice": list(self.dice) if self.dice is not None else None,
            "placed": [list(p) for p in self.placed],
            "outcome_card": self.outcome_card,
            "struck": list(self.struck),
            "collected": [line.value for line in self.collected],
            "choosing_bonus": self.choosing_bonus,
            "tally": self.tally.to_state(),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> FishingProcedure:
        """Rebuild a procedure from :meth:`to_state`."""
        if state.get("kind") != "fishing":
            raise IllegalAction(f"not a fishing state: {state.get('kind')!r}")
        dice = state["dice"]
        deck_json = json.dumps(state["deck"])
        return cls(
            character=state["character"],
            terrain=state["terrain"],
            fishing=FishingTerrain.model_validate(state["fishing"]),
            deck=deck_from_json(FishingCard, deck_json),
            tokens={k: token_from_state(t) for k, t in state["tokens"].items()},
            dice_count=int(state["dice_count"]),
            stock=state["stock"],
            water=state["water"],
            dice=tuple(int(d) for d in dice) if dice is not None else None,
            placed=tuple(tuple(int(d) for d in p) for p in state["placed"]),
            outcome_card=state["outcome_card"],
            struck=tuple(int(i) for i in state["struck"]),
            collected=tuple(WaterLine(v) for v in state["collected"]),
            choosing_bonus=bool(state["choosing_bonus"]),
            tally=Tally.from_state(state["tally"]),
            deck_json=deck_json,
        )


_: type[Procedure] = FishingProcedure
