"""Foraging (Rulebook: Foraging, steps 1-5, List of Objects, List of Bonus Objects,
Animal Encounters; readings D1, D5, D6).

The character builds a **tableau** of forage cards from the feature's deck (forest or
plains), each card three **rows** (front, middle, back) of objects; then harvests one
type of object **within reach**, up to the **harvest cap**, or has an animal encounter.

:class:`ForagingProcedure` walks the steps (chance as input, see
:mod:`companion.rules.procedure`); :func:`within_reach`, :func:`legal_expansion_choices`,
:func:`harvest_yield` and :func:`encounter_difficulty` are the pure pieces, and
:meth:`ForagingProcedure.view` is the tableau as data a dialog can draw.

Readings this module takes (each also where it is applied):

- *Reach, row by row.* A row of a card lies at the same distance as that row of every
  other card: an object is within reach in the front row, or when each earlier row holds,
  on some card of the tableau, an animal path or a chosen object of the same type. So
  animal paths chain across cards (an animal path in one card's front row and one in
  another card's middle row bring every back row within reach). Animal paths are never
  harvested themselves (they yield nothing).
- *Animals reached by their own kind.* Predators and large prey are chosen one at a
  time at most, so only animal paths bring them beyond the front row ("some animals can
  be reached only by animal paths"); small prey (up to three) follow the general rule.
- *A front-row predator at any time.* "If there is ever a predator in the tableau in the
  front row" applies to the card kept at step 1 as well as to each card added at step 2;
  the encounter then ends foraging with no harvest.
- *Bonus objects on animals.* Bonus objects on a hunted prey are gained only if the hunt
  succeeds; a predator encounter yields no harvest, bonus objects included (D20, the
  least favourable reading).
- *A short deck.* When fewer than two cards are left to draw at step 2, the character
  draws what is left; with none left they cannot continue searching.
- The action's energy cost (D1) is paid by the Forage action, not by this procedure.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from companion.content.schema.cards import Encounter, ForageBonus, ForageCard, ForageObject
from companion.content.schema.rules import Encounter as EncounterTest
from companion.content.schema.rules import Foraging
from companion.content.schema.world import Item
from companion.rules.character import Character
from companion.rules.checks import ability_test, stakes_prompt
from companion.rules.effects import (
    Tally,
    describe_effect,
    effects_text,
    referenced_resources,
    token_from_state,
    token_to_state,
)
from companion.rules.errors import IllegalAction
from companion.rules.ids import Trait
from companion.rules.night_codec import decode, encode
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

ROWS: tuple[str, ...] = ("front", "middle", "back")
"""A forage card's rows, nearest first (Rulebook: Foraging, step 1)."""

HARVEST = "harvest"
"""Step 3 option: harvest (go to step 4)."""
SEARCH = "search"
"""Step 3 option: continue searching (back to step 2)."""
DONE = "done"
"""Step 4 option: stop choosing objects and gain them."""
FIGHT = "fight"
"""Predator encounter option: fight (Might, D6)."""
FLEE = "flee"
"""Predator encounter option: flee (Dexterity, D6)."""

SpotKey = str
"""One object of the tableau: ``"<card id>/<row>/<n>"``, e.g. ``"FF01/middle/2"`` (n from 1)."""


# --- the tableau ----------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """One object on a card of the tableau."""

    key: SpotKey
    """Its key: card id, row and position in the row."""
    card: str
    """The card it is printed on."""
    row: int
    """0 front, 1 middle, 2 back."""
    object: str
    """The forage object's id (tree, predator, animal-path ...)."""
    bonus: tuple[str, ...]
    """The bonus objects drawn on it."""


def spots(cards: Iterable[ForageCard]) -> list[Spot]:
    """Every object of ``cards``, card by card, front row first."""
    out: list[Spot] = []
    for card in cards:
        for row, name in enumerate(ROWS):
            for i, spot in enumerate(getattr(card.rows, name)):
                key = f"{card.id}/{name}/{i + 1}"
                out.append(Spot(key, card.id, row, str(spot.object), tuple(map(str, spot.bonus))))
    return out


def _is_path(spot: Spot, objects: Mapping[str, ForageObject]) -> bool:
    obj = objects.get(spot.object)
    return obj is not None and obj.animal_path


def within_reach(
    tableau: Sequence[ForageCard],
    chosen: Collection[SpotKey],
    objects: Mapping[str, ForageObject],
) -> set[SpotKey]:
    """The objects of ``tableau`` within reach, given the objects ``chosen`` so far.

    Rulebook: Foraging, step 4: "An object is within reach if it appears in a front row,
    or if there are chosen objects of the same type or animal paths in each row before
    it on any card in your tableau." Rows line up across cards, so an animal path on one
    card and one on another chain into the back rows.

    >>> from companion.content.schema.cards import ForageCard, ForageObject
    >>> objects = {o: ForageObject(id=o, name=o, decks=["forest"], animal_path=o == "path")
    ...            for o in ("tree", "path")}
    >>> a = ForageCard(id="A", deck="forest", rows={"front": ["tree"], "middle": ["tree"],
    ...                                             "back": ["tree"]})
    >>> sorted(within_reach([a], [], objects))
    ['A/front/1']
    >>> sorted(within_reach([a], ["A/front/1"], objects))
    ['A/front/1', 'A/middle/1']
    """
    every = spots(tableau)
    by_key = {s.key: s for s in every}
    unknown = [k for k in chosen if k not in by_key]
    if unknown:
        raise IllegalAction(f"{', '.join(unknown)} is not an object of the tableau")
    chosen_spots = [by_key[k] for k in chosen]
    paths = {s.row for s in every if _is_path(s, objects)}
    reach: set[SpotKey] = set()
    for spot in every:
        openers = paths | {c.row for c in chosen_spots if c.object == spot.object}
        if all(row in openers for row in range(spot.row)):
            reach.add(spot.key)
    return reach


def _predator_rows(card: ForageCard, objects: Mapping[str, ForageObject]) -> list[int]:
    return [
        s.row
        for s in spots([card])
        if (o := objects.get(s.object)) is not None and o.encounter is Encounter.PREDATOR
    ]


def legal_expansion_choices(
    tableau: Sequence[ForageCard],
    a: ForageCard,
    b: ForageCard | None,
    objects: Mapping[str, ForageObject],
) -> tuple[str, ...]:
    """The cards the character may add to the tableau out of the two drawn (step 2).

    Rulebook: Foraging, step 2: "If there is a predator in your tableau already, you must
    choose another card with a predator, if able. If choosing between two cards with
    predators, you must choose a card with a predator in the same row as the closest
    predator in your tableau or closer, if able." ``b`` is None when only one card was
    left to draw.
    """
    drawn = [a] if b is None else [a, b]
    everyone = tuple(c.id for c in drawn)
    in_tableau = [row for card in tableau for row in _predator_rows(card, objects)]
    if not in_tableau or len(drawn) == 1:
        return everyone
    with_predator = [c for c in drawn if _predator_rows(c, objects)]
    if len(with_predator) == 1:
        return (with_predator[0].id,)
    if not with_predator:
        return everyone
    closest = min(in_tableau)
    as_close = [c for c in drawn if min(_predator_rows(c, objects)) <= closest]
    if len(as_close) == 1:
        return (as_close[0].id,)
    return everyone


def front_row_predator(tableau: Sequence[ForageCard], objects: Mapping[str, ForageObject]) -> bool:
    """Whether a predator is in a front row of the tableau (step 2: forces the encounter)."""
    return any(0 in _predator_rows(card, objects) for card in tableau)


def harvest_cap(rules: Foraging, items: Iterable[Item] = ()) -> int:
    """The harvest cap: 3 in the rulebook, plus each equipped item's bonus (step 4)."""
    return rules.harvest_cap + sum(item.harvest_cap_bonus for item in items)


def harvest_yield(
    tableau: Sequence[ForageCard],
    chosen: Collection[SpotKey],
    objects: Mapping[str, ForageObject],
    bonuses: Mapping[str, ForageBonus],
    *,
    with_objects: bool = True,
) -> list[str]:
    """The resource ids gained for the ``chosen`` objects (step 4): 1 per object that
    yields, then 1 per bonus object drawn on them (List of Objects, List of Bonus Objects).
    ``with_objects`` False gives the bonus objects only (a successful hunt)."""
    by_key = {s.key: s for s in spots(tableau)}
    picked = [by_key[k] for k in chosen]
    out: list[str] = []
    if with_objects:
        for spot in picked:
            obj = objects[spot.object]
            if obj.yields is not None:
                out.append(str(obj.yields))
    for spot in picked:
        out.extend(str(bonuses[b].yields) for b in spot.bonus)
    return out


def encounter_difficulty(test: EncounterTest, animals: int) -> int:
    """The number to reach: the test's difficulty plus ``per_extra_animal`` per animal
    chosen (reading D5: small prey 5 + 1 per prey, so 6/7/8 for 1/2/3).

    >>> from companion.content.schema.rules import Encounter as E
    >>> small = E(ability="dexterity", difficulty=5, per_extra_animal=1, max_animals=3)
    >>> [encounter_difficulty(small, n) for n in (1, 2, 3)]
    [6, 7, 8]
    """
    if not 1 <= animals <= test.max_animals:
        raise IllegalAction(f"this encounter takes 1 to {test.max_animals} animals; got {animals}")
    return test.difficulty + test.per_extra_animal * animals


# --- the procedure --------------------------------------------------------------------


class Phase(StrEnum):
    """Where a foraging activity stands."""

    DRAW_FIRST = "draw_first"
    """Step 1: drawing two cards."""
    KEEP_FIRST = "keep_first"
    """Step 1: choosing the card that begins the tableau."""
    DRAW_MORE = "draw_more"
    """Step 2: drawing two more cards."""
    KEEP_MORE = "keep_more"
    """Step 2: choosing the card added to the tableau."""
    DECIDE = "decide"
    """Step 3: harvest or continue searching."""
    HARVEST = "harvest"
    """Step 4: choosing objects within reach."""
    PREDATOR = "predator"
    """A predator encounter: fight or flee."""
    TEST = "test"
    """An encounter's test: roll one die."""
    DONE = "done"
    """Step 5: stop foraging."""


_TEST_NAMES = {
    "hunt_large_prey": "hunt the large prey",
    "hunt_small_prey": "hunt the small prey",
    "fight_predator": "fight the predator",
    "flee_predator": "flee the predator",
}


@dataclass(frozen=True)
class TableauSpot:
    """One object as the dialog draws it."""

    key: SpotKey
    object: str
    """The forage object's id."""
    name: str
    """The forage object's name."""
    bonus: tuple[str, ...]
    """Names of the bonus objects drawn on it."""
    within_reach: bool
    """Within reach now (given the objects chosen so far)."""
    chosen: bool
    """Chosen for the harvest."""


@dataclass(frozen=True)
class TableauCard:
    """One card of the tableau as the dialog draws it: its rows, nearest first."""

    card: str
    rows: tuple[tuple[TableauSpot, ...], tuple[TableauSpot, ...], tuple[TableauSpot, ...]]


@dataclass(frozen=True)
class ForagingProcedure:
    """The Forage activity, step by step (Rulebook: Foraging). Build it with :meth:`start`."""

    character: Character
    """Who forages (after the encounter's test: its boosts used and degraded)."""
    deck_name: str
    """The forage deck: forest or plains."""
    deck: tuple[ForageCard, ...]
    """The feature's forage deck."""
    objects: Mapping[str, ForageObject]
    """The pack's forage objects, by id."""
    bonuses: Mapping[str, ForageBonus]
    """The pack's bonus objects, by id."""
    rules: Foraging
    """Harvest cap and the encounter tests (RulesConstants.foraging)."""
    cap: int
    """The character's harvest cap (:func:`harvest_cap`)."""
    tokens: Mapping[str, BagToken]
    """Resource id -> token gained, for every resource foraging here can yield."""
    phase: Phase = Phase.DRAW_FIRST
    tableau: tuple[str, ...] = ()
    """Cards of the tableau, in the order placed."""
    drawn: tuple[str, ...] = ()
    """Cards drawn and not yet chosen (step 1 or 2)."""
    chosen: tuple[SpotKey, ...] = ()
    """Objects chosen for the harvest, in order."""
    test: str | None = None
    """The encounter test under way: a key of RulesConstants.foraging."""
    animals: int = 0
    """Animals in the encounter (small prey: up to three)."""
    tally: Tally = Tally()
    tests: tuple[Mapping[str, Any], ...] = ()
    """The tests made: ability, die, total, difficulty, success."""
    deck_json: str = field(default="", compare=False, repr=False)
    """The deck, objects and bonuses as JSON text (a cache for resuming)."""

    kind = "foraging"
    """Stable name used in saved state (a class attribute, not a field)."""

    @classmethod
    def start(
        cls,
        character: Character,
        deck_name: str,
        deck: Iterable[ForageCard],
        objects: Mapping[str, ForageObject],
        bonuses: Mapping[str, ForageBonus],
        rules: Foraging,
        tokens: Mapping[str, BagToken],
        cap: int | None = None,
    ) -> ForagingProcedure:
        """A new foraging activity with ``deck`` (``content.forage_deck(deck_name)``).

        ``cap`` is the harvest cap (:func:`harvest_cap` with the character's items;
        default the rules' cap); ``tokens`` is the pack's token catalogue."""
        cards = tuple(deck)
        if len({c.id for c in cards}) != len(cards):
            raise IllegalAction("the forage deck lists a card twice")
        if len(cards) < 2:
            raise IllegalAction("foraging draws two cards; the deck needs at least 2")
        if any(c.deck != deck_name for c in cards):
            raise IllegalAction(f"every card of the {deck_name} deck is a {deck_name} card")
        used = {s.object for s in spots(cards)}
        unknown = sorted(used - set(objects))
        if unknown:
            raise IllegalAction(f"the forage deck shows unknown objects: {', '.join(unknown)}")
        used_bonus = {b for s in spots(cards) for b in s.bonus}
        missing_bonus = sorted(used_bonus - set(bonuses))
        if missing_bonus:
            raise IllegalAction(f"unknown bonus objects: {', '.join(missing_bonus)}")
        objs = {k: objects[k] for k in sorted(used)}
        bons = {k: bonuses[k] for k in sorted(used_bonus)}
        wanted = (
            {str(o.yields) for o in objs.values() if o.yields is not None}
            | {str(b.yields) for b in bons.values()}
            | referenced_resources(
                e
                for name in _TEST_NAMES
                for t in [getattr(rules, name)]
                for e in (*t.success, *t.success_per_animal, *t.failure)
            )
        )
        missing = sorted(wanted - set(tokens))
        if missing:
            raise IllegalAction(f"no resource token is known for {', '.join(missing)}")
        text = _json(cards, objs, bons)
        shared_cards, shared_objects, shared_bonuses = _from_json(text)
        return cls(
            character=character,
            deck_name=deck_name,
            deck=shared_cards,
            objects=shared_objects,
            bonuses=shared_bonuses,
            rules=rules,
            cap=rules.harvest_cap if cap is None else cap,
            tokens={k: tokens[k] for k in sorted(wanted)},
            deck_json=text,
        )

    # -- reading the tableau ------------------------------------------------------

    def card(self, card_id: str) -> ForageCard:
        """A card of the deck by id."""
        for card in self.deck:
            if card.id == card_id:
                return card
        raise IllegalAction(f"{card_id} is not a card of the {self.deck_name} forage deck")

    @property
    def cards(self) -> tuple[ForageCard, ...]:
        """The tableau's cards, in the order placed."""
        return tuple(self.card(c) for c in self.tableau)

    def reach(self) -> set[SpotKey]:
        """The objects within reach now."""
        return within_reach(self.cards, self.chosen, self.objects)

    def view(self) -> tuple[TableauCard, ...]:
        """The tableau as data a dialog can draw: cards x rows x objects, with reach."""
        reach, chosen = self.reach(), set(self.chosen)
        out: list[TableauCard] = []
        for card in self.cards:
            rows: list[list[TableauSpot]] = [[], [], []]
            for s in spots([card]):
                rows[s.row].append(
                    TableauSpot(
                        s.key,
                        s.object,
                        self.objects[s.object].name,
                        tuple(self.bonuses[b].name for b in s.bonus),
                        s.key in reach,
                        s.key in chosen,
                    )
                )
            out.append(TableauCard(card.id, (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))))
        return tuple(out)

    def _remaining(self) -> tuple[str, ...]:
        """Cards that can be drawn now: the deck without the tableau and the cards drawn."""
        taken = set(self.tableau) | set(self.drawn)
        return tuple(c.id for c in self.deck if c.id not in taken)

    def _to_draw(self) -> int:
        """How many cards this draw step takes in all (two, or what is left)."""
        return min(2, len(self.deck) - len(self.tableau))

    def _spot(self, key: SpotKey) -> Spot:
        for s in spots(self.cards):
            if s.key == key:
                return s
        raise IllegalAction(f"{key} is not an object of the tableau")

    def _harvestable(self) -> list[Spot]:
        """Objects that may be chosen next (step 4)."""
        reach = self.reach()
        chosen = set(self.chosen)
        kind = self._spot(self.chosen[0]).object if self.chosen else None
        limit = self._limit(kind) if kind is not None else self.cap
        if len(self.chosen) >= limit:
            return []
        out = []
        for s in spots(self.cards):
            obj = self.objects[s.object]
            if s.key not in reach or s.key in chosen or obj.animal_path:
                continue
            if kind is not None and s.object != kind:
                continue
            if obj.yields is None and obj.encounter is None and not s.bonus:
                continue  # nothing to gain from it
            out.append(s)
        return out

    def _limit(self, kind: str) -> int:
        """How many objects of ``kind`` may be chosen: the cap, and the encounter's limit."""
        test = self._test_for(self.objects[kind].encounter)
        if test is None:
            return self.cap
        rule: EncounterTest = getattr(self.rules, "fight_predator" if test == "predator" else test)
        return min(self.cap, rule.max_animals)

    @staticmethod
    def _test_for(encounter: Encounter | None) -> str | None:
        if encounter is Encounter.LARGE_PREY:
            return "hunt_large_prey"
        if encounter is Encounter.SMALL_PREY:
            return "hunt_small_prey"
        if encounter is Encounter.PREDATOR:
            return "predator"
        return None

    def _label(self, s: Spot) -> str:
        bonus = "".join(f" + {self.bonuses[b].name}" for b in s.bonus)
        return f"{self.objects[s.object].name}{bonus} ({s.card}, {ROWS[s.row]} row)"

    # -- the protocol -------------------------------------------------------------

    def step(self) -> Step:
        """What is asked now."""
        phase = self.phase
        if phase is Phase.DRAW_FIRST:
            n = len(self.drawn) + 1
            return Step(f"Step 1: draw card {n} of 2", Decider.CARD, self._remaining())
        if phase is Phase.KEEP_FIRST:
            return Step(
                "Step 1: choose the card that begins your tableau",
                Decider.PLAYER,
                self.drawn,
            )
        if phase is Phase.DRAW_MORE:
            n, of = len(self.drawn) + 1, self._to_draw()
            return Step(f"Step 2: draw card {n} of {of}", Decider.CARD, self._remaining())
        if phase is Phase.KEEP_MORE:
            a = self.card(self.drawn[0])
            b = self.card(self.drawn[1]) if len(self.drawn) > 1 else None
            legal = legal_expansion_choices(self.cards, a, b, self.objects)
            return Step("Step 2: choose the card to add to your tableau", Decider.PLAYER, legal)
        if phase is Phase.DECIDE:
            options: tuple[str, ...] = (HARVEST, SEARCH) if self._to_draw() > 0 else (HARVEST,)
            labels = {HARVEST: "harvest", SEARCH: "continue searching"}
            return Step(
                "Step 3: harvest, or continue searching",
                Decider.PLAYER,
                options,
                labels={k: labels[k] for k in options},
            )
        if phase is Phase.HARVEST:
            can = self._harvestable()
            keys = [s.key for s in can]
            labels = {s.key: self._label(s) for s in can}
            if self.chosen or not can:
                keys.append(DONE)
                labels[DONE] = "gain the chosen objects" if self.chosen else "harvest nothing"
            what = "another object of the same type" if self.chosen else "an object"
            return Step(
                f"Step 4: choose {what} within reach ({len(self.chosen)} chosen, cap {self.cap})",
                Decider.PLAYER,
                tuple(keys),
                labels=labels,
            )
        if phase is Phase.PREDATOR:
            fight, flee = self.rules.fight_predator, self.rules.flee_predator
            return Step(
                "Predator encounter: fight or flee",
                Decider.PLAYER,
                (FIGHT, FLEE),
                labels={
                    FIGHT: f"fight: test {fight.ability.value}, {fight.difficulty}+",
                    FLEE: f"flee: test {flee.ability.value}, {flee.difficulty}+",
                },
            )
        if phase is Phase.TEST:
            assert self.test is not None
            test = getattr(self.rules, self.test)
            need = encounter_difficulty(test, self.animals)
            traits = {Trait(t): v for t, v in test.traits.items()}
            modifier = sum(v for t, v in traits.items() if t in self.character.traits)
            won = effects_text((*test.success_per_animal * self.animals, *test.success),
                               none="")
            if self.test.startswith("hunt"):
                won = "; ".join(w for w in (won, "the prey's objects are harvested") if w)
            return Step(
                stakes_prompt(self.character, test.ability, need, modifier=modifier,
                            purpose=f"to {_TEST_NAMES[self.test]}",
                            success=won or "nothing happens",
                            failure=effects_text(test.failure)),
                Decider.DICE,
                count=1,
            )
        raise IllegalAction("foraging is over")

    def apply(self, choice: Choice) -> ForagingProcedure:
        """The next state after ``choice``."""
        step = self.step()
        phase = self.phase
        if phase is Phase.TEST:
            return self._resolve_test(check_dice(step, choice)[0])
        key = check_option(step, choice)
        if phase in (Phase.DRAW_FIRST, Phase.DRAW_MORE):
            drawn = (*self.drawn, key)
            tally = self.tally.note(f"Drew {key}.")
            if len(drawn) < (2 if phase is Phase.DRAW_FIRST else self._to_draw()):
                return replace(self, drawn=drawn, tally=tally)
            keep = Phase.KEEP_FIRST if phase is Phase.DRAW_FIRST else Phase.KEEP_MORE
            return replace(self, drawn=drawn, phase=keep, tally=tally)
        if phase in (Phase.KEEP_FIRST, Phase.KEEP_MORE):
            others = [c for c in self.drawn if c != key]
            back = f"; {', '.join(others)} goes back into the deck" if others else ""
            tableau = (*self.tableau, key)
            # Step 1 begins the tableau, Step 2 expands it, then Step 3 decides: the first
            # harvest comes from a tableau of at least two cards (Rulebook: Foraging).
            proc = replace(
                self,
                tableau=tableau,
                drawn=(),
                phase=Phase.DRAW_MORE if phase is Phase.KEEP_FIRST else Phase.DECIDE,
                tally=self.tally.note(f"Added {key} to the tableau{back}."),
            )
            if front_row_predator(proc.cards, self.objects):
                # Rulebook: Foraging, step 2: a predator in the front row forces the encounter.
                return replace(
                    proc,
                    phase=Phase.PREDATOR,
                    animals=1,
                    tally=proc.tally.note("A predator is in the front row: predator encounter!"),
                )
            return proc
        if phase is Phase.DECIDE:
            if key == SEARCH:
                return replace(self, phase=Phase.DRAW_MORE, tally=self.tally.note("Searching on."))
            return replace(self, phase=Phase.HARVEST, tally=self.tally.note("Harvesting."))
        if phase is Phase.HARVEST:
            if key == DONE:
                return self._gather()
            return replace(self, chosen=(*self.chosen, key))
        # Phase.PREDATOR
        test = "fight_predator" if key == FIGHT else "flee_predator"
        return replace(
            self,
            phase=Phase.TEST,
            test=test,
            animals=1,
            tally=self.tally.note(f"{self.character.name} chooses to {key}."),
        )

    def _gather(self) -> ForagingProcedure:
        """Step 4 done choosing: gain the objects, or begin the animal encounter."""
        if not self.chosen:
            return replace(self, phase=Phase.DONE, tally=self.tally.note("Nothing harvested."))
        kind = self.objects[self._spot(self.chosen[0]).object]
        names = ", ".join(self._label(self._spot(k)) for k in self.chosen)
        tally = self.tally.note(f"Chose {names}.")
        test = self._test_for(kind.encounter)
        if test == "predator":
            # Rulebook: Animal Encounters > Predator: begun on purpose by an animal path.
            return replace(self, phase=Phase.PREDATOR, animals=1, tally=tally)
        if test is not None:
            return replace(self, phase=Phase.TEST, test=test, animals=len(self.chosen), tally=tally)
        gained = harvest_yield(self.cards, self.chosen, self.objects, self.bonuses)
        tally = self._gain(tally, gained)
        return replace(self, phase=Phase.DONE, tally=tally)

    def _gain(self, tally: Tally, resources: Sequence[str]) -> Tally:
        if not resources:
            return tally
        tokens = [self.tokens[r] for r in resources]
        return replace(tally, gained=(*tally.gained, *tokens)).note(
            f"Gained {', '.join(resources)}."
        )

    def _resolve_test(self, die: int) -> ForagingProcedure:
        """An encounter's test (Rulebook: Animal Encounters), then step 5."""
        assert self.test is not None
        test: EncounterTest = getattr(self.rules, self.test)
        need = encounter_difficulty(test, self.animals)
        traits = {Trait(t): v for t, v in test.traits.items()}
        result, character = ability_test(self.character, test.ability, die, trait_modifiers=traits)
        success = result.total >= need
        line = (
            f"{_TEST_NAMES[self.test].capitalize()}: {die} + {result.ability_value} "
            f"{test.ability.value}"
            + (f" + {result.boosts} boosts" if result.boosts else "")
            + (f" {result.modifier:+d} traits" if result.modifier else "")
            + f" = {result.total} vs {need}+: {'success' if success else 'failure'}."
        )
        tally = self.tally.note(line)
        if success:
            effects = (*test.success_per_animal * self.animals, *test.success)
            tally = tally.apply(effects, self.tokens)
            if effects:
                tally = tally.note(
                    "; ".join(describe_effect(e) for e in effects).capitalize() + "."
                )
            if self.test.startswith("hunt"):
                # reading: bonus objects on hunted prey come only with a successful hunt
                bonus = harvest_yield(
                    self.cards, self.chosen, self.objects, self.bonuses, with_objects=False
                )
                tally = self._gain(tally, bonus)
        else:
            tally = tally.apply(test.failure, self.tokens)
            if test.failure:
                texts = "; ".join(describe_effect(e) for e in test.failure)
                tally = tally.note(texts.capitalize() + ".")
        record = {
            "test": self.test,
            "ability": test.ability.value,
            "die": die,
            "total": result.total,
            "difficulty": need,
            "success": success,
        }
        return replace(
            self,
            character=character,
            phase=Phase.DONE,
            tally=tally,
            tests=(*self.tests, record),
        )

    def is_finished(self) -> bool:
        """Step 5: foraging has stopped."""
        return self.phase is Phase.DONE

    def outcome(self) -> Outcome:
        """What foraging did to the character (the character's boosts: :attr:`character`)."""
        return self.tally.outcome(
            {
                "tableau": list(self.tableau),
                "chosen": list(self.chosen),
                "tests": [dict(t) for t in self.tests],
            }
        )

    def describe(self) -> str:
        """The tableau and what happened so far."""
        lines = [f"{self.character.name} forages in the {self.deck_name}."]
        reach, chosen = self.reach(), set(self.chosen)
        for card in self.cards:
            for row, name in enumerate(ROWS):
                row_spots = [s for s in spots([card]) if s.row == row]
                if not row_spots:
                    continue
                texts = [
                    self._label(s).split(" (")[0]
                    + ("*" if s.key in chosen else "")
                    + ("" if s.key in reach else " (out of reach)")
                    for s in row_spots
                ]
                lines.append(f"{card.id} {name}: {', '.join(texts)}")
        lines.extend(self.tally.log)
        return "\n".join(lines)

    def to_state(self) -> dict[str, Any]:
        """JSON-safe snapshot (cards included, so it resumes without content)."""
        cards, objects, bonuses = json.loads(
            self.deck_json or _json(self.deck, self.objects, self.bonuses)
        )
        return {
            "kind": self.kind,
            "character": encode(self.character),
            "deck_name": self.deck_name,
            "deck": cards,
            "objects": objects,
            "bonuses": bonuses,
            "rules": self.rules.model_dump(mode="json"),
            "cap": self.cap,
            "tokens": {k: token_to_state(t) for k, t in self.tokens.items()},
            "phase": self.phase.value,
            "tableau": list(self.tableau),
            "drawn": list(self.drawn),
            "chosen": list(self.chosen),
            "test": self.test,
            "animals": self.animals,
            "tally": self.tally.to_state(),
            "tests": [dict(t) for t in self.tests],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> ForagingProcedure:
        """Rebuild a procedure from :meth:`to_state`."""
        if state.get("kind") != "foraging":
            raise IllegalAction(f"not a foraging state: {state.get('kind')!r}")
        text = json.dumps([state["deck"], state["objects"], state["bonuses"]])
        cards, objects, bonuses = _from_json(text)
        return cls(
            character=decode(Character, state["character"]),
            deck_name=state["deck_name"],
            deck=cards,
            objects=objects,
            bonuses=bonuses,
            rules=_rules_from_json(json.dumps(state["rules"])),
            cap=int(state["cap"]),
            tokens={k: token_from_state(t) for k, t in state["tokens"].items()},
            phase=Phase(state["phase"]),
            tableau=tuple(state["tableau"]),
            drawn=tuple(state["drawn"]),
            chosen=tuple(state["chosen"]),
            test=state["test"],
            animals=int(state["animals"]),
            tally=Tally.from_state(state["tally"]),
            tests=tuple(dict(t) for t in state["tests"]),
            deck_json=text,
        )


def _json(
    cards: Iterable[ForageCard],
    objects: Mapping[str, ForageObject],
    bonuses: Mapping[str, ForageBonus],
) -> str:
    return json.dumps(
        [
            [c.model_dump(mode="json") for c in cards],
            [o.model_dump(mode="json") for o in objects.values()],
            [b.model_dump(mode="json") for b in bonuses.values()],
        ]
    )


@lru_cache(maxsize=16)
def _from_json(
    text: str,
) -> tuple[tuple[ForageCard, ...], Mapping[str, ForageObject], Mapping[str, ForageBonus]]:
    # Validating the cards at every resume is the slow part; they are immutable, so
    # equal texts share them.
    cards, objects, bonuses = json.loads(text)
    objs = [ForageObject.model_validate(o) for o in objects]
    bons = [ForageBonus.model_validate(b) for b in bonuses]
    return (
        tuple(ForageCard.model_validate(c) for c in cards),
        {o.id: o for o in objs},
        {b.id: b for b in bons},
    )


@lru_cache(maxsize=16)
def _rules_from_json(text: str) -> Foraging:
    return Foraging.model_validate(json.loads(text))


_: type[Procedure] = ForagingProcedure
