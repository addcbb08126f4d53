"""The Forage activity step by step: :class:`ForagingProcedure` (Rulebook: Foraging,
steps 1-5; Animal Encounters), saved and resumed with its cards."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from companion.content.schema.cards import Encounter, ForageBonus, ForageCard, ForageObject
from companion.content.schema.rules import Encounter as EncounterTest
from companion.content.schema.rules import Foraging
from companion.rules.character import Character
from companion.rules.decks import card_of, resource_tokens
from companion.rules.effects import Tally, referenced_resources, token_from_state, token_to_state
from companion.rules.errors import IllegalAction
from companion.rules.foraging.harvest import (
    TEST_NAMES,
    encounter_step,
    harvest_yield,
    resolve_encounter,
)
from companion.rules.foraging.tableau import (
    ROWS,
    Spot,
    SpotKey,
    TableauCard,
    TableauSpot,
    front_row_predator,
    legal_expansion_choices,
    spots,
    within_reach,
)
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

__all__ = ["DONE", "FIGHT", "FLEE", "HARVEST", "SEARCH", "ForagingProcedure", "Phase"]

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
                for name in TEST_NAMES
                for t in [getattr(rules, name)]
                for e in (*t.success, *t.success_per_animal, *t.failure)
            )
        )
        known = resource_tokens(wanted, tokens)
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
            tokens=known,
            deck_json=text,
        )

    # -- reading the tableau ------------------------------------------------------

    def card(self, card_id: str) -> ForageCard:
        """A card of the deck by id."""
        return card_of(self.deck, card_id,
                       f"{card_id} is not a card of the {self.deck_name} forage deck")

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
            return encounter_step(self.character, self.test, test, self.animals)
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
        character, tally, record = resolve_encounter(
            self.character, self.test, test, self.animals, die, self.tally, self.tokens
        )
        if record["success"] and self.test.startswith("hunt"):
            # reading: bonus objects on hunted prey come only with a successful hunt
            bonus = harvest_yield(
                self.cards, self.chosen, self.objects, self.bonuses, with_objects=False
            )
            tally = self._gain(tally, bonus)
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
