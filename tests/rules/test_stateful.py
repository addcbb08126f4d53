"""Random legal and illegal action sequences hold the rules' invariants.

Invariants: energy within 0..max, health tokens within the track, lore >= 0, at most
``structure_limit`` structures per outpost, items within their slots, and a refused action
changes nothing (the game equals a deep copy taken before the attempt).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.content.schema.base import Ability, HealthToken, Omen, Slot
from companion.rules import day, health, inventory, society
from companion.rules.character import Character
from companion.rules.checks import ability_test
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game, Phase
from companion.rules.ids import (
    FeatureId,
    HexId,
    Icon,
    ItemId,
    OutpostId,
    StructureId,
    Technology,
)
from companion.rules.inventory import ItemFacts
from companion.rules.omens import investigate
from companion.rules.outposts import FeatureAction, FeatureFacts, MaterialCost, StructureFacts
from companion.rules.resources import BagToken
from companion.rules.society import Society
from tests.rules.factories import HARDCORE, load_rules, make

RULES = load_rules()
HEXES = [HexId("H1"), HexId("H2"), HexId("H3")]
WOOD = Technology("wood")
BLADE = Icon("blade")
ITEMS = {
    ItemId("axe"): ItemFacts(ItemId("axe"), Slot.HAND, frozenset({WOOD}), (BLADE,)),
    ItemId("cloak"): ItemFacts(ItemId("cloak"), Slot.BODY),
    ItemId("pouch"): ItemFacts(ItemId("pouch"), Slot.GEAR),
    ItemId("knife"): ItemFacts(ItemId("knife"), Slot.HAND, processing_icons=(BLADE, BLADE)),
}
FEATURES = [
    FeatureFacts(
        FeatureId("forest"), outpost_technology=WOOD, actions=frozenset({FeatureAction.FORAGE})
    ),
    FeatureFacts(
        FeatureId("cave"),
        actions=frozenset({FeatureAction.PREPARE_SHELTER, FeatureAction.MINE, FeatureAction.DELVE}),
    ),
    FeatureFacts(
        FeatureId("lake"),
        outpost_technology=Technology("water"),
        actions=frozenset({FeatureAction.GATHER_WATER, FeatureAction.FISH}),
    ),
    FeatureFacts(FeatureId("plains"), open_terrain=True, actions=frozenset({FeatureAction.FORAGE})),
]
STRUCTURES = [
    StructureFacts(StructureId("hut"), 2, (MaterialCost("fiber"),)),
    StructureFacts(StructureId("kiln"), 1, (), frozenset({WOOD})),
    StructureFacts(StructureId("shrine"), 0),
]
NEEDS = {"fiber": (BLADE,), "bone": (BLADE, Icon("energy")), "nuts": (Icon("energy"),)}
TOKENS = [
    BagToken.material("fiber"),
    BagToken.material("bone", large=True),
    BagToken.tough("nuts"),
    BagToken.perishable("fish"),
    BagToken.water(),
]

names = st.sampled_from(["Ash", "Bryn", "Tam", "Nobody"])
hexes = st.sampled_from(HEXES)
amounts = st.integers(min_value=-1, max_value=6)
indices = st.lists(st.integers(min_value=-1, max_value=6), max_size=4)
maybe_contributions: st.SearchStrategy[dict[str, int]] = st.one_of(
    st.just({}), st.dictionaries(names, amounts, max_size=2)
)
maybe_materials: st.SearchStrategy[dict[str, list[int]]] = st.one_of(
    st.just({}), st.dictionaries(names, indices, max_size=2), st.just({"Ash": [0]})
)


class RulesMachine(RuleBasedStateMachine):
    """Drives a Game with random actions, legal or not."""

    game: Game

    @initialize(solo=st.booleans(), lore=st.integers(0, 5))
    def start(self, solo: bool, lore: int) -> None:
        chars: tuple[Character, ...]
        if solo:
            chars = (make("Ash", track_rules=HARDCORE, health_max=5, energy_max=5, energy=5),)
        else:
            chars = (
                make("Ash", items=((ItemId("axe"), Slot.HAND),), bag=tuple(TOKENS[:3])),
                make("Bryn", items=((ItemId("knife"), Slot.HAND),), bag=tuple(TOKENS[2:])),
                make("Tam", hex=HexId("H2")),
            )
        self.game = Game(chars, society=Society(lore=lore))
        self.outposts = 0

    def attempt(self, action: Callable[[Game], Game]) -> None:
        """Apply an action; if refused, the game must be exactly as before."""
        before = copy.deepcopy(self.game)
        try:
            after = action(self.game)
        except IllegalAction:
            assert self.game == before
        else:
            self.game = after

    def on_character(self, name: str, change: Callable[..., object]) -> None:
        def act(g: Game) -> Game:
            return g.with_characters(change(g.character(name)))  # type: ignore[arg-type]

        self.attempt(act)

    # --- Day actions ---------------------------------------------------------------

    @rule(name=names, to=hexes, obstructed=st.booleans())
    def move(self, name: str, to: HexId, obstructed: bool) -> None:
        self.attempt(lambda g: day.move(RULES, g, name, to, obstructed=obstructed))

    @rule(name=names, to=hexes)
    def explore(self, name: str, to: HexId) -> None:
        self.attempt(lambda g: day.explore(RULES, g, name, to))

    @rule(name=names, patient=st.sampled_from(["Ash", "Bryn", "Tam"]), token=st.integers(-1, 3))
    def revive(self, name: str, patient: str, token: int) -> None:
        self.attempt(lambda g: day.revive(RULES, g, name, patient, token))

    @rule(
        name=names, feature=st.sampled_from(FEATURES), action=st.sampled_from(list(FeatureAction))
    )
    def feature_action(self, name: str, feature: FeatureFacts, action: FeatureAction) -> None:
        if action is FeatureAction.PREPARE_SHELTER:
            self.attempt(lambda g: day.prepare_shelter(RULES, g, name, feature))
        elif action is FeatureAction.GATHER_WATER:
            self.attempt(lambda g: day.gather_water(RULES, g, name, feature, 2))
        else:
            self.attempt(lambda g: day.feature_action(RULES, g, name, action, feature))

    @rule(name=names, chosen=indices)
    def process(self, name: str, chosen: list[int]) -> None:
        self.attempt(lambda g: day.process(RULES, g, name, chosen, NEEDS, ITEMS))

    @rule(name=names, feature=st.sampled_from(FEATURES), contributions=maybe_contributions)
    def build_outpost(
        self, name: str, feature: FeatureFacts, contributions: dict[str, int]
    ) -> None:
        self.outposts += 1
        oid = OutpostId(f"o{self.outposts % 3}")
        self.attempt(
            lambda g: day.build_outpost(
                RULES,
                g,
                name,
                outpost_id=oid,
                outpost_name=oid,
                epoch=1,
                covers=feature,
                items=ITEMS,
                contributions=contributions,
            )
        )

    @rule(
        name=names,
        outpost=st.integers(0, 2),
        structure=st.sampled_from(STRUCTURES),
        materials=maybe_materials,
        contributions=maybe_contributions,
    )
    def build_structure(
        self,
        name: str,
        outpost: int,
        structure: StructureFacts,
        materials: dict[str, list[int]],
        contributions: dict[str, int],
    ) -> None:
        self.attempt(
            lambda g: day.build_structure(
                RULES,
                g,
                name,
                outpost=OutpostId(f"o{outpost}"),
                structure=structure,
                items=ITEMS,
                materials=materials,
                contributions=contributions,
            )
        )

    @rule(name=names)
    def pass_turn(self, name: str) -> None:
        self.attempt(lambda g: day.pass_turn(g, name))

    @rule()
    def night_and_new_day(self) -> None:
        # Once all have passed the Night falls (rules.night plays it): the incapacitated
        # perish and a new Day begins with no one passed (Rulebook: Incapacitation).
        if day.all_passed(self.game):
            alive = tuple(c for c in self.game.characters if not c.incapacitated)
            self.game = replace(self.game, characters=alive, day=Day())

    @rule(giver=names, receiver=names, item=st.sampled_from(list(ITEMS)))
    def exchange_item(self, giver: str, receiver: str, item: ItemId) -> None:
        self.attempt(lambda g: day.exchange_item(RULES, g, giver, receiver, item))

    @rule(giver=names, receiver=names, chosen=indices)
    def exchange_tokens(self, giver: str, receiver: str, chosen: list[int]) -> None:
        self.attempt(lambda g: day.exchange_tokens(g, giver, receiver, chosen))

    @rule(name=names, omen=st.sampled_from(list(Omen)), component=st.sampled_from(["A01", ""]))
    def investigate(self, name: str, omen: Omen, component: str) -> None:
        self.attempt(lambda g: investigate(g, name, omen, component, frozenset({Omen.MOON}))[0])

    # --- effects on characters and the society -------------------------------------

    @rule(name=names, token=st.sampled_from(list(HealthToken)))
    def suffer(self, name: str, token: HealthToken) -> None:
        self.on_character(name, lambda c: health.suffer(c, token))

    @rule(name=names, token=st.sampled_from(list(HealthToken)))
    def wound_badly(self, name: str, token: HealthToken) -> None:
        for _ in range(3):
            self.on_character(name, lambda c: health.suffer(c, token))

    @rule(name=names, index=st.integers(-1, 5))
    def degrade(self, name: str, index: int) -> None:
        self.on_character(name, lambda c: health.degrade(c, index))

    @rule(name=names, amount=st.integers(0, 6))
    def rest(self, name: str, amount: int) -> None:
        self.on_character(name, lambda c: health.gain_energy(c, amount))

    @rule(
        name=names,
        ability=st.sampled_from(list(Ability)),
        face=st.integers(0, 3),
        rolled=st.integers(0, 7),
    )
    def boost_and_test(self, name: str, ability: Ability, face: int, rolled: int) -> None:
        self.on_character(name, lambda c: health.add_boost(c, ability, face))
        self.on_character(name, lambda c: ability_test(c, ability, rolled)[1])

    @rule(
        name=names,
        item=st.sampled_from(list(ITEMS)),
        excess=st.sampled_from([*ITEMS, None]),
        to=st.sampled_from([*["Ash", "Bryn", "Tam"], None]),
    )
    def receive_item(self, name: str, item: ItemId, excess: ItemId | None, to: str | None) -> None:
        def act(g: Game) -> Game:
            other = g.character(to) if to is not None else None
            me, them, _ = inventory.receive_item(
                RULES, g.character(name), ITEMS[item], excess=excess, give_excess_to=other
            )
            return g.with_characters(me, *([them] if them else []))

        self.attempt(act)

    @rule(name=names, token=st.sampled_from(TOKENS))
    def gain_token(self, name: str, token: BagToken) -> None:
        self.on_character(name, lambda c: inventory.gain_tokens(c, [token]))

    @rule(amount=amounts, spend=st.booleans())
    def lore(self, amount: int, spend: bool) -> None:
        if spend:
            self.attempt(lambda g: replace(g, society=society.spend_lore(RULES, g.society, amount)))
        else:
            self.attempt(lambda g: replace(g, society=society.gain_lore(g.society, amount)))

    @rule()
    def unlock_delving(self) -> None:
        self.attempt(lambda g: replace(g, society=society.unlock_delving(g.society)))

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def energy_within_track(self) -> None:
        for c in self.game.characters:
            assert 0 <= c.energy <= c.energy_max

    @invariant()
    def health_within_track(self) -> None:
        for c in self.game.characters:
            assert len(c.health) <= c.health_max

    @invariant()
    def lore_never_negative(self) -> None:
        assert self.game.society.lore >= RULES.lore.minimum >= 0

    @invariant()
    def structures_within_limit(self) -> None:
        for o in self.game.outposts:
            assert len(o.structures) <= RULES.outposts.structure_limit

    @invariant()
    def items_within_slots(self) -> None:
        for c in self.game.characters:
            for slot, limit in RULES.item_slots.items():
                assert c.slots_used(slot) <= limit

    @invariant()
    def boosts_are_tokens(self) -> None:
        for c in self.game.characters:
            assert all(face in (1, 2) for faces in c.boosts.values() for face in faces)

    @invariant()
    def day_bookkeeping_names_characters(self) -> None:
        names = {c.name for c in self.game.characters}
        if self.game.day.phase is Phase.DAY:
            assert self.game.day.passed <= names


RulesMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRules = RulesMachine.TestCase
