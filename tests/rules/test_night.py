"""Rulebook: Game Structure > Night Phase (Rest, Degrade Food, Tend Fire, Night Actions,
Reconcile Inventory, Draw Night Cards, Solo / Champion / Group, Increase Activity);
Mantle > Incapacitation; Character Death; Tracks > Activity Events, Unrest; Omens > Current
Omen; Behemoths > Habits, Learning the Secret; Solo Play > Hardcore Solo. Readings D7, D9,
D10, D18, D19.

The Night deck is stacked in each test (``draw_pile``, top first), so every card is known
and every outcome hand-computed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import Content, load_content
from companion.content.schema.base import Ability, Omen, Slot
from companion.content.schema.base import HealthToken as H
from companion.content.schema.cards import NightCard
from companion.content.schema.world import NightAction
from companion.rules.chance import Chance
from companion.rules.character import Age, Character
from companion.rules.day import check_can_act
from companion.rules.errors import IllegalAction
from companion.rules.game import Day, Game, Phase
from companion.rules.ids import (
    CharacterName,
    ContainerId,
    EventId,
    FeatureId,
    HexId,
    ItemId,
    NightCardId,
)
from companion.rules.inventory import Container
from companion.rules.night import (
    BehemothAtNight,
    NightFacts,
    NightItem,
    NightProcedure,
    NightStage,
    NightTable,
    RestBreakdown,
    TimedEffect,
)
from companion.rules.procedure import Choice, Decider, Procedure, Step, run_to_end
from companion.rules.resources import BagToken, Side
from companion.rules.society import ActivityEvent, EventKind, Society
from companion.rules.valley import HexTokens
from tests.rules.factories import HARDCORE, load_rules, make

RULES = load_rules()
H1, H2, H3 = HexId("H1"), HexId("H2"), HexId("H3")


def card(
    id: str, type: str, activity: int, omens: Sequence[str] = ("moon",), **more: Any
) -> NightCard:
    return NightCard.model_validate(
        {
            "id": id,
            "name": id.removeprefix("N-").capitalize(),
            "type": type,
            "text": f"{id}.",
            "omens": list(omens),
            "activity": activity,
            **more,
        }
    )


CARDS = {
    c.id: c
    for c in [
        card("N-calm", "solo", 1, ["sun"]),
        card("N-frost", "champion", 1, ["comet"], effects=[{"do": "energy", "amount": -1}]),
        card(
            "N-wolves",
            "solo",
            1,
            ["cloud"],
            effects=[
                {
                    "do": "test",
                    "ability": "might",
                    "difficulty": 6,
                    "failure": [{"do": "suffer", "token": "minor_injury"}],
                }
            ],
        ),
        card(
            "N-dreams",
            "group",
            2,
            ["stars"],
            effects=[
                {
                    "do": "test",
                    "ability": "awareness",
                    "difficulty": 7,
                    "success": [{"do": "lore", "amount": 1}],
                    "failure": [{"do": "unrest", "amount": 1}],
                }
            ],
        ),
        card("N-lake", "solo", 5, ["sun"], requires={"features": ["lake"]}),
        card("N-wise", "solo", 1, ["moon"], requires={"trait": "wise"}),
        card(
            "N-unrest",
            "solo",
            2,
            ["moon", "cloud"],
            requires={"min_unrest": 6},
            effects=[{"do": "lore", "amount": 1}],
        ),
        card("N-busy", "solo", 1, ["sun"], requires={"min_activity": 3}),
        card("N-boost", "solo", 0, ["stars"], effects=[{"do": "boost"}]),
        card(
            "N-gifts",
            "solo",
            0,
            ["comet"],
            effects=[
                {"do": "gain", "resource": "wood", "amount": 2},
                {"do": "lose", "resource": "flint"},
                {"do": "gain_item", "item": "stone-knife"},
                {"do": "place", "token": "shelter"},
                {"do": "read", "outcome": 104},
                {"do": "unlock", "flag": "delving"},
                {"do": "activity", "amount": 2},
            ],
        ),
    ]
}
CLOAK = NightItem(ItemId("cloak"), (NightAction(text="Wrap a companion."),))
FLUTE = NightItem(
    ItemId("flute"),
    (
        NightAction.model_validate(
            {
                "text": "Play: spend 1 lore, gain 1 energy.",
                "effects": [{"do": "lore", "amount": -1}, {"do": "energy", "amount": 1}],
            }
        ),
    ),
)
BASKET = NightItem(ItemId("basket"), storage=2)
EVENTS = (
    ActivityEvent(EventId("E6"), EventKind.GENERAL, 6),
    ActivityEvent(EventId("E10"), EventKind.SOCIETAL, 10),
    ActivityEvent(EventId("E14"), EventKind.OUTPOST, 14),
    ActivityEvent(EventId("O7"), EventKind.ONGOING, 7, until=9),
)
FACTS = NightFacts(
    RULES,
    CARDS,
    items={i.id: i for i in (CLOAK, FLUTE, BASKET)},
    resources={"wood": BagToken.material("wood"), "water": BagToken.water()},
    events=EVENTS,
)

FISH, ROOT = BagToken.perishable("fish"), BagToken.perishable("root")
WATER, WOOD, FLINT = BagToken.water(), BagToken.material("wood"), BagToken.material("flint")
NUT = BagToken.tough("nut")


def fermented(token: BagToken) -> BagToken:
    return replace(token, side=Side.FERMENTED)


def night_game(*characters: Character, **changes: Any) -> Game:
    return Game(tuple(characters), day=Day(phase=Phase.NIGHT), **changes)


def table(game: Game, pile: Sequence[str] = ("N-calm",), **changes: Any) -> NightTable:
    return NightTable(game, tuple(NightCardId(c) for c in pile), **changes)


def two(name: str, **changes: Any) -> Character:
    """A character of a two-character game (D8: 5 health, 5 energy)."""
    return make(name, **{"health_max": 5, "energy_max": 5, "energy": 5, **changes})


def play(night: NightProcedure, *choices: Choice) -> NightProcedure:
    for choice in choices:
        assert not night.is_finished(), f"the Night ended before {choice!r}"
        night = night.apply(choice)
    return night


def start(
    game: Game, pile: Sequence[str] = ("N-calm",), facts: NightFacts = FACTS, **changes: Any
) -> NightProcedure:
    return NightProcedure.start(facts, table(game, pile, **changes))


def until(night: NightProcedure, stage: NightStage) -> NightProcedure:
    """Play the first option of every step until ``stage`` (dice: 6)."""
    while night.stage is not stage:
        step = night.step()
        night = night.apply((6,) * step.count if step.decider is Decider.DICE else step.options[0])
    return night


def who(night: NightProcedure, name: str) -> Character:
    return night.game.character(name)


# --- whole Nights -----------------------------------------------------------------------


def test_night_whole_two_characters() -> None:
    ash = two("Ash", energy=1, bag=(FISH, FISH, WATER, WOOD), health=(H.MAJOR_INJURY,))
    bryn = two("Bryn", energy=0, hex=H2)
    game = night_game(
        ash, bryn, tokens=HexTokens(fires=frozenset({H1})), society=Society(activity=4)
    )
    night = start(
        game,
        ["N-wolves", "N-lake", "N-dreams", "N-calm"],
        hex_features={H2: frozenset({FeatureId("plains")})},
    )
    night = play(
        night,
        "eat:0",
        "drink",
        "might",
        "degrade:0",  # Ash: 1 + 2 auto + 1 fire + 1 + 1 = 5 (cap)
        "wood:Ash",  # Tend Fire in H1
        "N-wolves",
        (1,),  # 1 + might 4 + boost 1 = 6 >= 6
        "N-lake",
        "N-dreams",
        (1,),  # N-lake needs a lake; 1 + awareness 5 = 6 < 7
    )
    assert night.is_finished()
    end = night.final_game()
    ash, bryn = end.character("Ash"), end.character("Bryn")
    assert (ash.energy, ash.health, ash.boosts) == (5, (H.MINOR_INJURY,), {})  # boost used
    assert ash.bag == (fermented(FISH),)
    assert (bryn.energy, bryn.health) == (2, (H.MINOR_INJURY,))  # starving
    assert end.tokens.fires == {H1}
    assert (end.society.activity, end.society.unrest) == (4 + 3, 1)
    assert end.society.triggered_events == {"E6"}
    assert end.day == Day()
    result = night.result()
    assert result.rest == (
        RestBreakdown(CharacterName("Ash"), 1, 5, 2, 1, 1, 1, "fresh fish", True),
        RestBreakdown(CharacterName("Bryn"), 0, 5, 2, 0),
    )
    assert result.rest[0].lost_to_cap == 1
    assert result.resolved_cards == ("N-wolves", "N-dreams")
    assert result.discard == ("N-wolves", "N-lake", "N-dreams")
    assert result.draw_pile == ("N-calm",)
    assert result.current_omens == {Omen.STARS}
    assert (result.activity_from_cards, result.activity_from_unrest) == (3, 0)
    assert (result.events_fired, result.ongoing_event) == (("E6",), "O7")
    assert result.perished == () and not result.behemoth_activates
    outcome = night.outcome()
    assert outcome.extra["game"] == end and outcome.log == result.log


def test_night_whole_three_characters() -> None:
    ash = make("Ash", health_max=4, energy=2, bag=(WATER,), items=((CLOAK.id, Slot.BODY),))
    bryn = make(
        "Bryn",
        health_max=4,
        energy=0,
        bag=(replace(NUT, side=Side.PROCESSED), NUT),
        items=((FLUTE.id, Slot.GEAR),),
    )
    cade = make("Cade", health_max=4, energy=3, hex=H2)
    game = night_game(
        ash,
        bryn,
        cade,
        tokens=HexTokens(shelters=frozenset({H1})),
        society=Society(unrest=6, lore=2),
    )
    night = start(
        game,
        ["N-frost", "N-unrest", "N-calm"],
        behemoth=BehemothAtNight(H3, adjacent=frozenset({H2})),
    )
    assert night.step().options == ("drink", "none")
    night = play(night, "drink", "dexterity")  # Ash: 2 + 1 + 1 + 1 = 5, capped at 4
    assert night.step().options == ("eat:0", "none")  # the unprocessed nut is not edible
    night = play(night, "eat:0")  # Bryn: 0 + 1 + 1 + 1 = 3
    night = play(night, "conviction")  # Cade: 3 + 1 = 4, energized, starving
    assert night.stage is NightStage.NIGHT_ACTIONS
    assert night.step().options == ("Ash: cloak 1", "Bryn: flute 1", "done")
    night = play(night, "Bryn: flute 1")
    assert night.step().options == ("Ash: cloak 1", "done")
    night = play(night, "done", "Bryn", "N-frost", "Ash", "N-unrest")
    assert night.is_finished()
    end = night.final_game()
    assert [(c.energy, c.boosts, c.health) for c in end.characters] == [
        (3, {Ability.DEXTERITY: (1,)}, ()),
        (4, {}, ()),
        (4, {Ability.CONVICTION: (1,)}, (H.MINOR_INJURY,)),
    ]
    assert end.character("Bryn").bag == (NUT,)
    assert (end.society.lore, end.society.activity) == (2 - 1 + 1, 1 + 2 + 1)
    result = night.result()
    assert (result.activity_from_cards, result.activity_from_unrest) == (3, 1)
    assert result.behemoth_activates and result.learned == ()
    assert "The society has 2 lore; learning its habits costs 4." in result.log


def test_night_whole_four_characters() -> None:
    night = four_character_night()
    night = play(night, *FOUR_SCRIPT)
    assert night.is_finished()
    end = night.final_game()
    ash, bryn, cade, dara = end.characters
    assert (ash.energy, ash.health, ash.boosts) == (4, (), {Ability.MIGHT: (1,)})
    assert (bryn.energy, bryn.health, bryn.boosts) == (4, (H.MINOR_INJURY,), {})
    assert (cade.energy, cade.health, cade.bag) == (
        3,
        (H.MINOR_INJURY,),
        (fermented(ROOT),) + (FLINT,) * 11,
    )
    assert (dara.energy, dara.health) == (1, ())
    assert end.containers[0].tokens == (fermented(FISH),)
    assert end.society == Society(
        unrest=12,
        activity=10 + 3 + 2,
        lore=3 + 2 - 4,
        triggered_events=frozenset({EventId("E6"), EventId("E10"), EventId("E14")}),
    )
    result = night.result()
    assert result.resolved_cards == ("N-dreams", "N-calm")
    assert (result.draw_pile, result.reshuffled) == (("N-dreams", "N-frost"), True)
    assert result.discard == ("N-calm",)
    assert result.current_omens == {Omen.SUN}
    assert result.events_fired == ("E14",)
    assert result.learned == ("habits",) and result.read == ("301",)
    assert result.behemoth_activates


def four_character_night() -> NightProcedure:
    """Four characters (D8: 3 health, 4 energy), unrest 11+, a shelter structure in H1."""
    ash = make("Ash", energy=1, bag=(fermented(FISH), WATER), health=(H.MINOR_DISEASE,))
    bryn = make("Bryn", energy=4)
    cade = make("Cade", energy=2, bag=(ROOT,) + (FLINT,) * 12)
    dara = make("Dara", energy=0, hex=H2, bag=(WATER,))
    game = night_game(
        ash,
        bryn,
        cade,
        dara,
        society=Society(
            unrest=11,
            activity=10,
            lore=3,
            triggered_events=frozenset({EventId("E6"), EventId("E10")}),
        ),
        containers=(Container(ContainerId("pit"), H1, (FISH,)),),
    )
    return start(
        game,
        ["N-dreams"],
        discard=(NightCardId("N-calm"), NightCardId("N-frost")),
        shelter_hexes=frozenset({H1}),
        behemoth=BehemothAtNight(H1, habits_outcome="301"),
    )


FOUR_SCRIPT: tuple[Choice, ...] = (
    "eat:0",
    "drink",
    "might",
    "degrade:0",  # Ash: 1 + 0 auto + 1 + 1 + 1 = 4
    "awareness",  # Bryn: full already, nothing to eat or drink: energized and starving
    "none",  # Cade keeps his root: 2 + 1 shelter = 3, starving
    "drink",  # Dara: 0 + 1 = 1
    "discard:1",  # Cade's 13 cells: a flint goes
    "Ash",
    "N-dreams",
    (6,),
    (1,),
    (1,),  # Ash 11, Bryn 1 + 5 + boost 1 = 7, Cade 6: unrest
    "N-calm",  # the deck ran out: the discard (calm, frost, dreams) is reshuffled
    "habits",
)


def test_night_whole_hardcore_solo() -> None:
    solo = make("Solo", health_max=5, energy_max=5, energy=0, track_rules=HARDCORE)
    night = start(night_game(solo), ["N-frost"], hardcore=True)
    night = play(night, "N-frost")  # Champion: the solo character selects themself
    end = night.final_game()
    assert end.character("Solo").energy == 2 - 1  # D19: hardcore rest_automatic_energy 2
    assert end.character("Solo").health == (H.MINOR_INJURY,)  # starving
    assert end.society.activity == 1


def hardcore_solo(*health: H) -> Character:
    """A lone hardcore character at 0 energy, its two health slots holding ``health``."""
    return make("Solo", health_max=2, energy_max=5, energy=0, track_rules=HARDCORE,
                health=health)


def test_night_hardcore_solo_perishing_burns_a_night_card() -> None:
    solo = hardcore_solo(H.MAJOR_INJURY, H.MAJOR_DISEASE)
    night = start(night_game(solo), ["N-dreams", "N-calm"], hardcore=True)
    assert night.stage is NightStage.START and night.step().decider is Decider.CARD
    night = play(night, "N-dreams")
    assert night.is_finished()
    result = night.result()
    assert [c.age for c in result.perished] == [Age.LEGEND]
    assert result.game.characters == ()
    assert result.game.society.activity == 1 + 2  # D19: +1 + its amount, not resolved
    assert result.discard == ("N-dreams",) and result.resolved_cards == ()
    assert result.draw_pile == ("N-calm",)


def test_night_hardcore_solo_minor_tokens_do_not_incapacitate() -> None:
    solo = hardcore_solo(H.MAJOR_INJURY, H.MINOR_DISEASE)
    night = play(start(night_game(solo), ["N-calm"], hardcore=True), "N-calm")
    assert night.result().perished == ()


# --- Night Phase Begins ----------------------------------------------------------------


def test_night_start_incapacitated_characters_perish() -> None:
    ash = make("Ash", health=(H.MINOR_INJURY,) * 3)
    night = start(night_game(ash, make("Bryn")))
    assert [c.name for c in night.game.characters] == ["Bryn"]
    assert [(c.name, c.age) for c in night.result().perished] == [("Ash", Age.LEGEND)]
    night = until(night, NightStage.DONE)
    assert night.outcome().extra["perished"][0].name == "Ash"


def test_night_start_effects_apply_before_perishing() -> None:
    hurt = TimedEffect(
        "Cold Snap",
        "Ash suffers.",
        character=CharacterName("Ash"),
        effects=effects({"do": "suffer", "token": "minor_injury"}),
    )
    facts = replace(FACTS, at_start=(hurt,))
    night = start(night_game(make("Ash", health=(H.MINOR_INJURY,) * 2), make("Bryn")), facts=facts)
    assert night.result().perished[0].name == "Ash"
    assert night.result().log[1] == "Cold Snap: Ash suffers."


def test_night_phase_refuses_day_actions_and_ends_with_a_new_day() -> None:
    game = Game((make("Ash"), make("Bryn")), day=Day(passed=frozenset({"Ash"})))
    with pytest.raises(IllegalAction, match="Bryn passes"):
        start(game)
    night = start(replace(game, day=Day(passed=frozenset({"Ash", "Bryn"}))))
    assert night.game.day.phase is Phase.NIGHT
    with pytest.raises(IllegalAction, match="only during the Day"):
        check_can_act(night.game, "Ash")
    with pytest.raises(IllegalAction, match="not over"):
        night.final_game()
    night = until(night, NightStage.DONE)
    assert night.final_game().day == Day()
    check_can_act(night.final_game(), "Ash")


# --- Rest -------------------------------------------------------------------------------


def rest_of(night: NightProcedure, name: str) -> RestBreakdown:
    return next(r for r in night.rest if r.character == name)


def test_night_rest_energized_gains_minor_boost() -> None:
    night = start(night_game(make("Ash", energy=3), make("Bryn", energy=4), make("Cade")))
    step = night.step()
    assert step.options == tuple(a.value for a in Ability)
    assert "Ash is energized" in step.prompt
    night = play(night, "awareness")
    assert who(night, "Ash").boosts == {Ability.AWARENESS: (RULES.rest.energized_boost,)}


def test_night_rest_not_energized_when_track_not_full() -> None:
    night = start(night_game(make("Ash", energy=1), make("Bryn"), make("Cade")))
    night = until(night, NightStage.DONE)
    assert rest_of(night, "Ash").after == 2 and who(night, "Ash").boosts == {}


def test_night_rest_needs_met_degrades_one_token() -> None:
    ash = two("Ash", energy=0, bag=(FISH, WATER), health=(H.MAJOR_DISEASE, H.MINOR_INJURY))
    night = play(start(night_game(ash, two("Bryn", hex=H2))), "eat:0", "drink")
    step = night.step()
    assert step.options == ("degrade:0", "degrade:1", "none")
    assert play(night, "degrade:0").game.character("Ash").health == (
        H.MINOR_DISEASE,
        H.MINOR_INJURY,
    )
    assert play(night, "degrade:1").game.character("Ash").health == (H.MAJOR_DISEASE,)
    assert play(night, "none").game.character("Ash").health == (H.MAJOR_DISEASE, H.MINOR_INJURY)


def test_night_rest_needs_met_without_tokens_asks_nothing() -> None:
    ash = two("Ash", energy=0, bag=(FISH, WATER))
    night = play(start(night_game(ash, two("Bryn", hex=H2))), "eat:0", "drink")
    assert night.stage is not NightStage.REST or "Bryn" in night.step().prompt
    assert who(night, "Ash").health == ()


def test_night_rest_starving_suffers_minor_injury() -> None:
    night = start(night_game(two("Ash", energy=0), two("Bryn", energy=0, bag=(WATER,))))
    night = play(night, "none")  # Bryn drinks nothing either
    assert who(night, "Ash").health == (RULES.rest.starving_token,)
    assert who(night, "Bryn").health == (H.MINOR_INJURY,)


def test_night_rest_food_or_water_alone_is_neither_starving_nor_needs_met() -> None:
    night = start(
        night_game(
            two("Ash", energy=0, bag=(NUT, replace(NUT, side=Side.PROCESSED))),
            two("Bryn", energy=0, bag=(WATER,)),
        )
    )
    assert night.step().options == ("eat:1", "none")
    night = play(night, "eat:1", "drink")
    assert who(night, "Ash").health == () and who(night, "Bryn").health == ()
    assert who(night, "Ash").energy == 3 and who(night, "Bryn").energy == 3


@pytest.mark.parametrize(
    ("tokens", "shelters", "gain"),
    [
        (HexTokens(), frozenset(), 0),
        (HexTokens(shelters=frozenset({H1})), frozenset(), 1),
        (HexTokens(fires=frozenset({H1})), frozenset(), 1),
        (HexTokens(), frozenset({H1}), 1),  # a structure grants shelter
        (HexTokens(shelters=frozenset({H2})), frozenset(), 0),
    ],
)
def test_night_rest_shelter_or_fire_present(
    tokens: HexTokens, shelters: frozenset[HexId], gain: int
) -> None:
    game = night_game(two("Ash", energy=0), two("Bryn", hex=H2, energy=0), tokens=tokens)
    night = start(game, shelter_hexes=shelters)
    assert rest_of(night, "Ash").shelter == gain
    assert who(night, "Ash").energy == 2 + gain


@pytest.mark.parametrize(
    ("count", "unrest", "automatic"),
    [(2, 0, 2), (3, 0, 1), (4, 0, 1), (2, 10, 2), (2, 11, 1), (3, 11, 0), (4, 16, 0)],
)
def test_night_rest_automatic_energy_by_count_and_unrest(
    count: int, unrest: int, automatic: int
) -> None:
    names = ["Ash", "Bryn", "Cade", "Dara"][:count]
    game = night_game(
        *(make(n, energy=0, hex=HexId(n)) for n in names), society=Society(unrest=unrest)
    )
    night = start(game)
    assert [r.automatic for r in night.rest] == [automatic] * count  # D9, D10: never below 0
    assert [c.energy for c in night.game.characters] == [automatic] * count


def test_night_rest_capped_at_energy_max() -> None:
    ash = two("Ash", energy=4, bag=(FISH, WATER))
    night = play(start(night_game(ash, two("Bryn", hex=H2))), "eat:0", "drink")
    rest = rest_of(night, "Ash")
    assert (rest.total, rest.after, rest.lost_to_cap, rest.energized) == (4, 5, 3, True)
    assert "capped at 5" in str(rest)


def test_night_rest_breakdown_is_shown_while_choosing() -> None:
    night = start(
        night_game(two("Ash", energy=0, bag=(FISH, WATER)), two("Bryn", hex=H2)),
        shelter_hexes=frozenset({H1}),
    )
    assert night.rest == (RestBreakdown(CharacterName("Ash"), 0, 5, 2, 1),)
    assert "automatic 2, shelter/fire 1" in night.step().prompt
    night = play(night, "eat:0")
    assert night.rest[-1].ate == "fresh fish" and night.rest[-1].total == 4


# --- Degrade Food, Tend Fire -------------------------------------------------------------


def test_night_degrade_food_in_bags_and_containers() -> None:
    ash = two("Ash", bag=(FISH, fermented(ROOT), WOOD, NUT))
    pit = Container(ContainerId("pit"), H1, (FISH, fermented(FISH), WOOD))
    night = start(night_game(ash, two("Bryn", hex=H2), containers=(pit,)))
    night = play(night, "none", "might")  # Ash eats nothing, is energized
    night = until(night, NightStage.NIGHT_CARDS)
    assert who(night, "Ash").bag == (fermented(FISH), WOOD, NUT)
    assert night.game.containers[0].tokens == (fermented(FISH), WOOD)


def test_night_tend_fire_without_wood_the_fire_goes_out() -> None:
    game = night_game(
        two("Ash", bag=(FLINT,)),
        two("Bryn", hex=H2, bag=(WOOD,)),
        tokens=HexTokens(fires=frozenset({H1})),
    )
    night = until(start(game), NightStage.NIGHT_CARDS)
    assert night.game.tokens.fires == frozenset()
    assert "The fire in hex H1 goes out." in night.result().log
    assert who(night, "Bryn").bag == (WOOD,)


def test_night_tend_fire_spending_wood_keeps_it() -> None:
    wood = BagToken.material("wood")
    game = night_game(
        two("Ash", bag=(replace(wood, side=Side.PROCESSED), wood)),
        two("Bryn", bag=(WOOD,)),
        tokens=HexTokens(fires=frozenset({H1, H2})),
    )
    night = until(start(game), NightStage.TEND_FIRE)
    step = night.step()
    assert step.options == ("wood:Ash", "wood:Bryn", "out") and "hex H1" in step.prompt
    kept = play(night, "wood:Ash")
    assert who(kept, "Ash").bag == (replace(wood, side=Side.PROCESSED),)  # unprocessed first
    assert kept.game.tokens.fires == {H1}  # nobody in H2
    out = play(night, "out")
    assert out.game.tokens.fires == frozenset() and who(out, "Ash").bag == who(night, "Ash").bag


# --- Night Actions ------------------------------------------------------------------------


def test_night_actions_once_per_character_in_any_order() -> None:
    ash = two("Ash", energy=4, items=((FLUTE.id, Slot.GEAR), (CLOAK.id, Slot.BODY)))
    bryn = two("Bryn", energy=4, items=((FLUTE.id, Slot.GEAR), (FLUTE.id, Slot.GEAR)))
    game = night_game(ash, bryn, society=Society(lore=1))
    night = until(start(game), NightStage.NIGHT_ACTIONS)
    assert night.step().options == ("Ash: flute 1", "Ash: cloak 1", "Bryn: flute 1", "done")
    night = play(night, "Ash: cloak 1")
    assert night.step().options == ("Ash: flute 1", "Bryn: flute 1", "done")
    night = play(night, "Bryn: flute 1")  # spends the last lore: no flute can be played now
    assert who(night, "Bryn").energy == 5 and night.game.society.lore == 0
    assert night.stage is not NightStage.NIGHT_ACTIONS
    assert "Ash takes a Night action (cloak): Wrap a companion." in night.result().log


def test_night_actions_are_not_taken_by_an_incapacitated_character() -> None:
    ash = make("Ash", health=(H.MINOR_INJURY,) * 2, items=((CLOAK.id, Slot.BODY),))
    night = start(night_game(ash, make("Bryn", hex=H2), make("Cade", hex=H3)))
    stages = []
    while not night.is_finished():  # Ash starves at Rest: the track is full
        stages.append(night.stage)
        step = night.step()
        night = night.apply((6,) if step.decider is Decider.DICE else step.options[0])
    assert night.final_game().character("Ash").incapacitated
    assert NightStage.NIGHT_ACTIONS not in stages


def test_night_actions_done_ends_them() -> None:
    game = night_game(two("Ash", items=((CLOAK.id, Slot.BODY),)), two("Bryn"))
    night = play(until(start(game), NightStage.NIGHT_ACTIONS), "done")
    assert night.stage is NightStage.NIGHT_CARDS


# --- Reconcile Inventory ----------------------------------------------------------------


def test_night_reconcile_inventory_discards_until_it_fits() -> None:
    big = BagToken.material("hide", large=True)
    ash = two("Ash", bag=(big,) * 6 + (FLINT, NUT))  # 12 + 1 + 1 cells > 12
    night = until(start(night_game(ash, two("Bryn", hex=H2))), NightStage.RECONCILE)
    step = night.step()
    assert step.options == ("discard:0", "discard:6", "discard:7")
    assert "holds 12 cells; the tokens cover 14" in step.prompt
    night = play(night, "discard:6")
    assert night.stage is NightStage.RECONCILE
    night = play(night, "discard:0")
    assert who(night, "Ash").bag == (big,) * 5 + (NUT,)
    assert night.stage is NightStage.NIGHT_CARDS


def test_night_reconcile_inventory_counts_item_storage() -> None:
    ash = two("Ash", bag=(FLINT,) * 14, items=((BASKET.id, Slot.BODY),))
    night = until(start(night_game(ash, two("Bryn", hex=H2))), NightStage.NIGHT_CARDS)
    assert len(who(night, "Ash").bag) == 14


# --- Draw Night Cards --------------------------------------------------------------------


def test_night_cards_one_per_hex_drawer_chosen_when_several() -> None:
    game = night_game(two("Ash"), two("Bryn"))
    night = until(start(game, ["N-wolves"]), NightStage.NIGHT_CARDS)
    step = night.step()
    assert (step.decider, step.options) == (Decider.PLAYER, ("Ash", "Bryn"))
    night = play(night, "Bryn", "N-wolves")
    assert "Bryn tests might" in night.step().prompt


def test_night_cards_requirement_unmet_discarded_and_another_drawn() -> None:
    game = night_game(
        make("Ash", traits=()),
        make("Bryn", hex=H2),
        make("Cade", hex=H3),
        society=Society(unrest=5, activity=2),
    )
    pile = ["N-lake", "N-wise", "N-unrest", "N-busy", "N-calm", "N-frost", "N-gifts"]
    night = until(
        start(game, pile, hex_features={H1: frozenset({FeatureId("river")})}),
        NightStage.NIGHT_CARDS,
    )
    night = play(night, "N-lake", "N-wise", "N-unrest", "N-busy", "N-calm")  # Ash, in H1
    result = night.result()
    assert result.discard == ("N-lake", "N-wise", "N-unrest", "N-busy", "N-calm")
    assert result.resolved_cards == ("N-calm",)
    log = "\n".join(result.log)
    assert "needs lake in the hex" in log and "does not have the trait wise" in log
    assert "unrest 6+ (unrest is 5)" in log and "activity 3+ (activity is 2)" in log


def test_night_cards_requirements_met_are_resolved() -> None:
    game = night_game(make("Ash", hex=H2), society=Society(unrest=6, activity=3))
    night = start(
        game,
        ["N-lake", "N-wise", "N-unrest", "N-busy"],
        hex_features={H2: frozenset({FeatureId("lake")})},
    )
    night = play(until(night, NightStage.NIGHT_CARDS), "N-lake")
    assert night.result().resolved_cards == ("N-lake",)


def test_night_cards_reshuffle_when_the_deck_runs_out() -> None:
    game = night_game(two("Ash", traits=()), two("Bryn", hex=H2))
    night = start(game, ["N-wise"], discard=(NightCardId("N-calm"), NightCardId("N-frost")))
    night = play(until(night, NightStage.NIGHT_CARDS), "N-wise")  # unmet: discarded
    step = night.step()
    assert step.decider is Decider.CARD
    assert step.options == ("N-calm", "N-frost", "N-wise")  # the shuffled discard: any may come
    assert night.draw_pile == ("N-calm", "N-frost", "N-wise")
    assert night.result().discard == () and night.result().reshuffled
    assert "shuffled into a new Night deck" in night.result().log[-1]
    night = play(night, "N-frost", "N-calm")
    result = night.result()
    assert result.discard == ("N-frost", "N-calm") and result.draw_pile == ("N-wise",)


def test_night_cards_the_table_may_type_any_card_still_in_the_deck() -> None:
    game = night_game(two("Ash"), two("Bryn", hex=H2))
    night = until(start(game, ["N-calm", "N-frost", "N-wolves"]), NightStage.NIGHT_CARDS)
    assert night.step().options == ("N-calm",)  # the app draws the top card
    night = play(night, "N-frost")  # the table drew N-frost
    assert night.draw_pile == ("N-calm", "N-wolves")
    assert night.step().options == ("N-calm",)
    with pytest.raises(IllegalAction, match="not in the Night deck"):
        night.apply("N-frost")


def test_night_cards_champion_chooses_who_resolves() -> None:
    game = night_game(two("Ash"), two("Bryn"))
    night = play(until(start(game, ["N-frost"]), NightStage.NIGHT_CARDS), "Ash", "N-frost")
    assert night.step().options == ("Ash", "Bryn") and "Champion" in night.step().prompt
    night = play(night, "Bryn")
    assert (who(night, "Ash").energy, who(night, "Bryn").energy) == (5, 4)


def test_night_cards_group_each_character_in_the_hex_resolves() -> None:
    game = night_game(two("Ash"), two("Bryn"), two("Cade", hex=H2))
    night = play(
        until(start(game, ["N-dreams", "N-calm"]), NightStage.NIGHT_CARDS), "Ash", "N-dreams"
    )
    assert "Ash tests awareness" in night.step().prompt
    night = play(night, (2,))
    assert "Bryn tests awareness" in night.step().prompt
    night = play(night, (1,), "N-calm")
    assert (night.game.society.lore, night.game.society.unrest) == (1, 1)


def test_night_cards_effects_of_the_vocabulary() -> None:
    game = night_game(two("Ash", bag=(FLINT, FLINT)), two("Bryn", hex=H2))
    night = play(
        until(start(game, ["N-gifts", "N-boost"]), NightStage.NIGHT_CARDS), "N-gifts", "N-boost"
    )
    assert night.step().options == tuple(a.value for a in Ability)
    night = play(night, "conviction")
    assert night.is_finished()
    result = night.result()
    ash = result.game.character("Ash")
    assert ash.bag == (FLINT, WOOD, WOOD)
    assert result.game.character("Bryn").boosts == {
        Ability.MIGHT: (1,),  # energized at Rest
        Ability.CONVICTION: (1,),
    }
    assert result.items_gained == (("Ash", "stone-knife"),)
    assert result.game.tokens.shelters == {H1}
    assert result.read == ("104",)
    assert result.game.society.delving_unlocked
    assert result.game.society.activity == 2  # the gifts' +2; both cards' amounts are 0


def test_night_current_omens_are_the_top_of_the_discard() -> None:
    night = start(night_game(two("Ash"), two("Bryn")), ["N-calm"], starting_omens=(Omen.MOON,))
    assert night.result().current_omens == {Omen.MOON}
    night = until(night, NightStage.DONE)
    assert night.outcome().extra["current_omens"] == {Omen.SUN}


# --- Increase Activity, Night Phase Ends ---------------------------------------------------


def test_night_activity_rises_by_cards_then_unrest() -> None:
    game = night_game(
        make("Ash"), make("Bryn", hex=H2), make("Cade", hex=H3), society=Society(unrest=16)
    )
    night = until(start(game, ["N-calm", "N-frost", "N-dreams"]), NightStage.DONE)
    result = night.result()
    assert (result.activity_from_cards, result.activity_from_unrest) == (1 + 1 + 2, 3)
    assert result.game.society.activity == 7


def test_night_end_events_fire_once_and_ongoing_by_range() -> None:
    game = night_game(two("Ash"), two("Bryn"), society=Society(activity=8))
    night = until(start(game, ["N-dreams"]), NightStage.DONE)  # +2: activity 10
    result = night.result()
    # The Societal event at 10 fires as soon as reached (Set Up; D7), the General one at
    # 6 at the end of the Night.
    assert result.events_fired == ("E6",) and result.ongoing_event is None
    assert result.fired_at_once == ("E10",)
    again = replace(result.game, day=Day(phase=Phase.NIGHT))
    night = until(start(again, ["N-calm"]), NightStage.DONE)
    assert night.result().events_fired == ()


def effects(*steps: dict[str, Any]) -> tuple[Any, ...]:
    return NightAction.model_validate({"text": "-", "effects": list(steps)}).effects


def test_night_end_event_effects_resolve_when_they_fire() -> None:
    facts = replace(
        FACTS,
        event_effects={
            EventId("E6"): TimedEffect(
                "E6", "The elders argue.", effects({"do": "unrest", "amount": 2})
            ),
            EventId("O7"): TimedEffect(
                "O7",
                "The cold bites.",
                effects({"do": "energy", "amount": -1}),
                character=CharacterName("Ash"),
            ),
        },
    )
    game = night_game(two("Ash"), two("Bryn"), society=Society(activity=6))
    night = until(start(game, ["N-calm"], facts=facts), NightStage.DONE)  # activity 7
    result = night.result()
    assert (result.events_fired, result.ongoing_event) == (("E6",), "O7")
    assert result.game.society.unrest == 2
    assert result.game.character("Ash").energy == 4 and result.game.character("Bryn").energy == 5
    assert "E6: The elders argue." in result.log


def test_night_end_behemoth_habits_and_secret_need_lore() -> None:
    game = night_game(two("Ash"), two("Bryn"), society=Society(lore=5))
    behemoth = BehemothAtNight(H2, adjacent=frozenset({H1}), habits_outcome="301")
    night = until(start(game, ["N-calm"], behemoth=behemoth), NightStage.END)
    step = night.step()
    assert step.options == ("habits", "done")
    with pytest.raises(IllegalAction, match="has 5 lore; learning the behemoth's secret costs 7"):
        night.apply("secret")
    assert play(night, "done").result().learned == ()
    night = play(night, "habits")
    result = night.result()
    assert result.learned == ("habits",) and result.read == ("301",)
    assert result.game.society.lore == 1 and result.behemoth_activates


def test_night_end_behemoth_secret_then_habits() -> None:
    game = night_game(two("Ash"), two("Bryn"), society=Society(lore=11))
    night = until(start(game, ["N-calm"], behemoth=BehemothAtNight(H1)), NightStage.END)
    night = play(night, "secret")
    assert night.step().options == ("habits", "done")
    night = play(night, "habits")
    assert night.result().learned == ("secret", "habits") and night.is_finished()


def test_night_end_behemoth_far_away_offers_nothing_but_activates() -> None:
    game = night_game(two("Ash"), two("Bryn"), society=Society(lore=10))
    behemoth = BehemothAtNight(H3, adjacent=frozenset({H2}), habits_known=True)
    night = until(start(game, ["N-calm"], behemoth=behemoth), NightStage.DONE)
    assert night.result().behemoth_activates and night.result().learned == ()
    near = until(start(game, ["N-calm"], behemoth=replace(behemoth, hex=H1)), NightStage.END)
    assert near.step().options == ("secret", "done")  # its habits are known already


# --- resuming, refusing -----------------------------------------------------------------


def roundtrip(night: NightProcedure, facts: NightFacts = FACTS) -> NightProcedure:
    return NightProcedure.from_state(json.loads(json.dumps(night.to_state())), facts)


def test_night_resumes_at_every_step_with_the_same_result() -> None:
    night = four_character_night()
    straight = play(night, *FOUR_SCRIPT)
    for index, choice in enumerate(FOUR_SCRIPT):
        again = roundtrip(night)
        assert again == night and again.to_state() == night.to_state()
        assert again.stage is night.stage and again.step() == night.step()
        assert again.rest == night.rest and again.result() == night.result()
        resumed = play(again, *FOUR_SCRIPT[index:])
        assert resumed == straight and resumed.result() == straight.result()
        night = night.apply(choice)
    assert roundtrip(night) == straight and roundtrip(night).final_game() == straight.final_game()


def illegal_inputs(step: Step) -> list[Choice]:
    if step.decider is Decider.DICE:
        return ["1", (), (1,) * (step.count + 1), (7,) * step.count, (0,) * step.count]
    return ["\x00nonsense", "", (1,), "N-nope", "eat:99", "discard:-1"]


def test_night_illegal_choice_at_any_step_is_refused_and_changes_nothing() -> None:
    night = four_character_night()
    for choice in FOUR_SCRIPT:
        before, state = copy.deepcopy(night), night.to_state()
        for bad in illegal_inputs(night.step()):
            with pytest.raises(IllegalAction):
                night.apply(bad)
        assert night == before and night.to_state() == state
        night = night.apply(choice)
    with pytest.raises(IllegalAction, match="over"):
        night.apply("done")


def test_night_state_from_another_content_is_refused() -> None:
    night = play(four_character_night(), *FOUR_SCRIPT[:5])
    state = json.loads(json.dumps(night.to_state()))
    with pytest.raises(IllegalAction):
        NightProcedure.from_state({**state, "kind": "fishing"}, FACTS)
    fewer = replace(FACTS, cards={k: v for k, v in CARDS.items() if k != "N-calm"})
    with pytest.raises(IllegalAction, match="no Night card N-calm"):
        NightProcedure.from_state(state, fewer)


def test_night_damaged_state_is_refused() -> None:
    state = json.loads(json.dumps(four_character_night().to_state()))
    del state["table"]["game"]
    with pytest.raises(IllegalAction, match="damaged"):
        NightProcedure.from_state(state, FACTS)


def test_night_table_is_checked() -> None:
    game = night_game(make("Ash"))
    with pytest.raises(IllegalAction, match="no Night card N-zzz"):
        start(game, ["N-zzz"])
    with pytest.raises(IllegalAction, match="twice"):
        start(game, ["N-calm"], discard=(NightCardId("N-calm"),))


# --- random play ----------------------------------------------------------------------------


@cache
def sample_content() -> Content:
    return load_content("sample")


def night_facts(content: Content) -> NightFacts:
    """NightFacts from a loaded pack, as the operations layer would build them."""
    resources: dict[str, BagToken] = {}
    for material in content.materials.values():
        resources[material.id] = BagToken.material(material.id, large=material.size == "large")
    for food in content.foods.values():
        kind = food.kind.value
        resources[food.id] = (
            BagToken.water()
            if kind == "water"
            else BagToken.perishable(food.id)
            if kind == "perishable"
            else BagToken.tough(food.id)
        )
    items = {
        ItemId(i.id): NightItem(ItemId(i.id), i.night_actions, i.storage)
        for i in content.items.values()
    }
    events = tuple(
        ActivityEvent(
            EventId(f"E{n}"),
            EventKind(e.type.value) if e.type.value != "event" else EventKind.GENERAL,
            e.threshold,
            e.until,
        )
        for n, e in enumerate(next(iter(content.challenges.values())).events)
    )
    return NightFacts(content.rules, dict(content.night_cards), items, resources, events)


def start_night(content: Content, chance: Chance) -> NightProcedure:
    """A random nightfall: 1-4 characters (1: hardcore solo), bags, fires, unrest, lore."""
    facts = night_facts(content)
    hardcore = chance.choice([True, False, False])
    count = 1 if hardcore else chance.choice([2, 3, 4])
    scale = content.rules.hardcore_solo if hardcore else content.rules.scale_for(count)
    hexes = [HexId(f"H{n}") for n in range(1, 4)]
    pool = list(facts.resources.values())
    items = [ItemId(i) for i in sorted(content.items)]
    characters = []
    for name in ["Ash", "Bryn", "Cade", "Dara"][:count]:
        health = tuple(
            chance.choice(list(H)) for _ in range(chance.choice(range(scale.health + 1)))
        )
        characters.append(
            make(
                name,
                health_max=scale.health,
                energy_max=scale.energy,
                energy=chance.choice(range(scale.energy + 1)),
                health=health,
                hex=chance.choice(hexes),
                track_rules=HARDCORE if hardcore else make().track_rules,
                bag=tuple(chance.choice(pool) for _ in range(chance.choice(range(16)))),
                items=tuple(
                    (chance.choice(items), Slot.GEAR) for _ in range(chance.choice(range(3)))
                ),
            )
        )
    game = Game(
        tuple(characters),
        society=Society(
            unrest=chance.choice(range(18)),
            activity=chance.choice(range(20)),
            lore=chance.choice(range(12)),
        ),
        tokens=HexTokens(
            fires=frozenset(h for h in hexes if chance.choice([0, 1])),
            shelters=frozenset(h for h in hexes if chance.choice([0, 1])),
        ),
        day=Day(phase=Phase.NIGHT),
    )
    deck = chance.shuffle(sorted(facts.cards))
    cut = chance.choice(range(len(deck) + 1))
    features = sorted(content.features)
    behemoth = None
    if chance.choice([True, False]):
        behemoth = BehemothAtNight(chance.choice(hexes), frozenset(chance.choice([[], hexes[:2]])))
    table_ = NightTable(
        game,
        tuple(NightCardId(c) for c in deck[:cut]),
        tuple(NightCardId(c) for c in deck[cut:]),
        hex_features={h: frozenset({FeatureId(chance.choice(features))}) for h in hexes},
        behemoth=behemoth,
        hardcore=hardcore,
        starting_omens=(Omen.MOON,),
    )
    return NightProcedure.start(facts, table_)


@cache
def sample_facts() -> NightFacts:
    return night_facts(sample_content())


def night_from_state(state: Mapping[str, Any]) -> NightProcedure:
    """``NightProcedure.from_state`` with the sample pack's facts (for the random-play test)."""
    return NightProcedure.from_state(state, sample_facts())


def check_night(proc: Procedure) -> None:
    """Invariants at the end of a Night: tracks within bounds, the deck conserved, Day."""
    assert isinstance(proc, NightProcedure)
    result = proc.result()
    game = proc.final_game()
    assert game.day == Day()
    for character in game.characters:
        assert 0 <= character.energy <= character.energy_max
        assert len(character.health) <= character.health_max
    deck = sorted((*result.draw_pile, *result.discard))
    assert deck == sorted((*proc.table.draw_pile, *proc.table.discard))
    assert game.society.activity >= proc.table.game.society.activity
    assert game.society.lore >= 0
    names = {c.name for c in game.characters} | {c.name for c in result.perished}
    assert names == {c.name for c in proc.table.game.characters}


def test_night_random_play_on_the_sample_pack() -> None:
    content = sample_content()
    for seed in range(25):
        chance = Chance(seed)
        night = start_night(content, chance)
        end = run_to_end(night, chance, limit=500)
        check_night(end)
        assert roundtrip(end, night_facts(content)) == end


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_night_random_nights_hold_the_invariants(seed: int) -> None:
    chance = Chance(seed)
    end = run_to_end(start_night(sample_content(), chance), chance, limit=500)
    check_night(end)
    rested = {r.character for r in end.result().rest}
    assert rested == {c.name for c in end.table.game.characters} - {
        c.name for c in end.result().perished
    }
    for rest in end.result().rest:
        assert rest.after == min(rest.energy_max, rest.before + rest.total)


# --- Set Up: an Immediate or Societal event "occurs as soon as the number is reached" ---

THREE = card("N-three", "solo", 3, ["sun"])


@pytest.mark.parametrize(
    ("kind", "unrest", "activity", "threshold", "event_unrest", "want_activity",
     "want_unrest", "at_once", "at_end"),
    [
        # Issue 26's example: 2 + 3 (card) = 5 reaches the Societal event at 4, which
        # fires now: unrest 1 + 5 = 6; then +1 for unrest 6+ (D10): activity 6.
        ("societal", 1, 2, 4, 5, 6, 6, ("EV",), ()),
        # An Immediate event alike: 2 + 3 = 5, unrest 6, + 1 = 6.
        ("immediate", 1, 2, 4, 5, 6, 6, ("EV",), ()),
        # A General event waits for the end of the Night: 2 + 3 + 0 (unrest 1) = 5; its
        # steps are resolved there by the operations layer, so unrest stays 1 here.
        ("event", 1, 2, 4, 5, 5, 1, (), ("EV",)),
        # Reached only by the unrest step: 2 + 3 = 5 < 6; + 1 (unrest 6) = 6 reaches
        # the event at 6, which fires: unrest 6 + 5 = 11, no second increase: 6.
        ("societal", 6, 2, 6, 5, 6, 11, ("EV",), ()),
        # Not reached: 0 + 3 + 0 = 3 < 4; nothing fires.
        ("societal", 1, 0, 4, 5, 3, 1, (), ()),
    ],
)
def test_set_up_immediate_and_societal_events_fire_before_the_unrest_increase(
    kind: str, unrest: int, activity: int, threshold: int, event_unrest: int,
    want_activity: int, want_unrest: int, at_once: tuple[str, ...], at_end: tuple[str, ...],
) -> None:
    """Rulebook: Set Up ("If it is an Immediate or Societal event, it occurs as soon as
    the number is reached"); Night Phase > Increase Activity ("Then, increase the
    activity based on the current level of unrest"); readings D7, D10."""
    kinds = {"event": EventKind.GENERAL, "societal": EventKind.SOCIETAL,
             "immediate": EventKind.IMMEDIATE}
    event = ActivityEvent(EventId("EV"), kinds[kind], threshold)
    facts = replace(
        FACTS, cards={**CARDS, THREE.id: THREE}, events=(event,),
        event_steps={EventId("EV"): effects({"do": "unrest", "amount": event_unrest})},
        event_texts={EventId("EV"): f"Activity {threshold}: the elders argue."})
    game = night_game(two("Ash"), two("Bryn"),
                      society=Society(unrest=unrest, activity=activity))
    night = until(start(game, ["N-three"], facts=facts), NightStage.DONE)
    result = night.result()
    assert result.game.society.activity == want_activity
    assert result.game.society.unrest == want_unrest
    assert result.fired_at_once == at_once
    assert result.events_fired == at_end
    if at_once:
        assert any("Event: Activity" in line for line in result.log)
