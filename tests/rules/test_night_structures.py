"""Rulebook: Night Phase (in order); Rest ("anything that grants shelter, such as a
structure effect"); Unrest 16+ (D10): cards and structures in play during the Night."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.content.schema.base import Ability, Omen
from companion.rules.ids import CharacterName, LegendId, Trait
from companion.rules.legends import Legend
from companion.rules.night import NightStage, TimedEffect
from companion.rules.society import Society
from tests.rules.test_night import FACTS, H1, effects, night_game, start, two, until

LORE = effects({"do": "lore", "amount": 1})
ENERGY = effects({"do": "energy", "amount": 1})


def _night(unrest: int = 0, energy: int = 2, **changes):  # type: ignore[no-untyped-def]
    game = night_game(two("Ash", hex=H1, energy=energy), society=Society(unrest=unrest))
    return start(game, facts=replace(FACTS, **changes))


@pytest.mark.parametrize(
    ("unrest", "lore"),
    [(0, 1), (15, 1), (16, 0)],  # Unrest 16+: no structure benefits (D10)
)
def test_night_phase_ends_structure_effect_at_the_end_of_the_night(
        unrest: int, lore: int) -> None:
    shrine = TimedEffect("Star Shrine (Hearth)", "gain 1 lore", LORE, structure=True)
    night = until(_night(unrest, at_end=(shrine,)), NightStage.DONE)
    assert night.result().game.society.lore == lore
    log = "\n".join(night.result().log)
    assert ("gives no benefit: unrest is 16" in log) == (unrest >= 16)


def test_night_phase_an_omen_condition_that_is_not_current_does_nothing() -> None:
    shrine = TimedEffect("Star Shrine", "if stars", LORE, structure=True, omen=Omen.STARS)
    night = until(_night(at_end=(shrine,)), NightStage.DONE)
    assert night.result().game.society.lore == 0
    assert any("stars is not a current omen" in line for line in night.result().log)


@pytest.mark.parametrize(
    ("stage", "after_rest"),
    [("rest", False), ("degrade_food", True), ("tend_fire", True), ("night_actions", True),
     ("night_cards", True)],
)
def test_night_phase_structure_effects_resolve_in_the_nights_order(
        stage: str, after_rest: bool) -> None:
    hearth = TimedEffect("Longhouse (Hearth)", "regain 1 energy", ENERGY,
                         CharacterName("Ash"), stage=stage, structure=True)
    night = until(_night(during=(hearth,)), NightStage.DONE)
    log = list(night.result().log)
    said = log.index("Longhouse (Hearth): regain 1 energy")
    rests = next(i for i, line in enumerate(log) if line.startswith("Ash rests"))
    cards = next(i for i, line in enumerate(log) if line.startswith("Ash draws"))
    assert (said > rests) == after_rest
    assert said < cards  # every one of these steps comes before the Night cards
    assert log[said + 1] == "Ash: energy +1 (now " + ("3)." if not after_rest else "5).")


@pytest.mark.parametrize(("unrest", "shelter"), [(0, 1), (16, 0)])
def test_rest_structure_grants_shelter_but_not_at_unrest_16(unrest: int, shelter: int) -> None:
    game = night_game(two("Ash", hex=H1, energy=0), society=Society(unrest=unrest))
    night = start(game, structure_shelter_hexes=frozenset({H1}))
    night = until(night, NightStage.DONE)
    (rest,) = night.result().rest
    assert rest.shelter == shelter


# --- Legends > Using Legend Cards at Night: a legend lends the trait a card requires ------

OLD_TAM = Legend(LegendId("1"), "Old Tam", {a: 3 for a in Ability}, (Trait("wise"),))


@pytest.mark.parametrize(("answer", "resolved"), [("legend:1", True), ("no", False)])
def test_using_legend_cards_at_night_lend_the_trait_a_night_card_requires(
        answer: str, resolved: bool) -> None:
    from tests.rules.test_night import make, play

    ash = make("Ash", traits=(), hex=H1, legends=(LegendId("1"),))
    game = night_game(ash)
    night = start(game, ["N-wise", "N-calm"], facts=replace(FACTS, legends={OLD_TAM.id: OLD_TAM}))
    night = until(night, NightStage.NIGHT_CARDS)
    while "may use a legend card" not in night.step().prompt:
        step = night.step()
        night = play(night, step.options[0])
    assert list(night.step().options) == ["legend:1", "no"]
    night = until(play(night, answer), NightStage.DONE)
    result = night.result()
    assert (result.resolved_cards[0] == "N-wise") == resolved
    assert result.legends_used == ((LegendId("1"),) if resolved else ())


def test_using_legend_cards_at_night_not_offered_without_a_lender() -> None:
    from tests.rules.test_night import make

    other = Legend(LegendId("2"), "Brae", {a: 3 for a in Ability}, (Trait("cunning"),))
    ash = make("Ash", traits=(), hex=H1, legends=(LegendId("2"),))
    night = start(night_game(ash), ["N-wise", "N-calm"],
                  facts=replace(FACTS, legends={other.id: other}))
    night = until(night, NightStage.DONE)
    assert night.result().resolved_cards == ("N-calm",)
    assert night.result().legends_used == ()


# --- Legends > Using Legend Cards in a behemoth encounter's contest (D16) -----------------


@pytest.mark.parametrize(
    ("choice", "total", "used"),
    [
        ("none", 4 + 3, None),      # Ash's might 4
        ("1", 3 + 3, "1"),          # Old Tam's might 3 substitutes
    ],
)
def test_contests_a_legend_card_in_a_behemoth_encounter(
        rules: object, choice: str, total: int, used: str | None) -> None:
    from tests.rules.test_behemoth import encounter

    proc = encounter(rules)  # type: ignore[arg-type]
    ash = replace(proc.character, legends=(LegendId("1"),))
    proc = replace(proc, character=ash, legends=(OLD_TAM,))
    proc = proc.apply("M1")
    step = proc.step()
    assert step.decider.value == "player" and list(step.options) == ["none", "1", "1:wise"]
    proc = proc.apply(choice).apply((3,))
    result = proc.result()
    assert result.contest is not None and result.contest.test.total == total
    assert result.contest.test.legend_used == used
    again = type(proc).from_state(proc.to_state(), proc.rules)
    assert again.result().contest == result.contest  # saved and resumed the same
