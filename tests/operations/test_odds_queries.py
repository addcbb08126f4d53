"""The odds advisor's queries (issue 12): the numbers are the pure advisors' own, built
from the campaign and the procedure in progress; distributions sum to 1."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest

from companion import operations
from companion.operations import Campaign, activities, odds, procedures
from companion.rules.foraging import Phase
from companion.rules.odds import mining_odds
from companion.rules.odds_fishing import LINES, fishing_chances, rank_allocations
from companion.rules.procedure import Decider


def fishing_at_the_dice(demo: Campaign) -> Any:
    procedures.start_fishing(demo, name="Ash", feature="river")
    procedures.advance(demo)  # the stock, drawn in the app
    procedures.advance(demo)  # the water
    procedure = procedures.current(demo)
    assert procedure.step().decider is Decider.DICE
    return procedure


def sums_to_one(report: odds.OddsReport) -> None:
    assert report.distributions
    for name, distribution in report.distributions.items():
        assert sum(distribution.values()) == 1, name


def test_fishing_before_the_roll_matches_the_rules(demo: Campaign) -> None:
    procedure = fishing_at_the_dice(demo)
    report = odds.advice(demo)
    assert report is not None and report.title == "Fishing: before the roll"
    outcomes = [c for c in procedure.deck if c.id not in {procedure.stock, procedure.water}]
    direct = fishing_chances(procedure.card(procedure.stock), procedure.locations, outcomes,
                             demo.content.rules.fishing.dice)
    for line in LINES:
        assert report.chances[line.value] == direct.target_chances[line]
    assert report.chances["mishap"] == direct.mishap_chance
    assert report.distributions["targets won"] == dict(direct.targets_won)
    sums_to_one(report)
    # shown as percentages with one decimal, the exact fraction in the tooltip
    first = report.tables[0].rows[0][1]
    assert first.text == odds.percent(direct.target_chances[LINES[0]])
    assert first.text.endswith("%") and "." in first.text
    assert first.tooltip == odds.exact(direct.target_chances[LINES[0]])


def test_fishing_after_the_roll_ranks_the_allocations_and_suggests_a_place(
        demo: Campaign) -> None:
    procedure = fishing_at_the_dice(demo)
    procedures.advance(demo, choice=(3, 4, 2, 6))
    report = odds.advice(demo)
    assert report is not None and report.suggestion is not None
    outcomes = [c for c in procedure.deck if c.id not in {procedure.stock, procedure.water}]
    best = rank_allocations(procedure.card(procedure.stock), procedure.locations,
                            (3, 4, 2, 6), outcomes)[0]
    assert report.chances["mishap"] == best.mishap_chance
    assert len(report.tables[0].rows) == odds.TOP_ALLOCATIONS
    sums_to_one(report)
    # Following the suggestion die by die places the best allocation.
    while (report := odds.advice(demo)) is not None:
        procedures.advance(demo, choice=report.suggestion.choice)
    assert procedures.current(demo).allocation == best.allocation


def test_fishing_odds_stop_once_the_outcome_is_drawn(demo: Campaign) -> None:
    fishing_at_the_dice(demo)
    procedures.advance(demo)
    while procedures.current(demo).step().decider is Decider.PLAYER:
        procedures.advance(demo, choice=procedures.current(demo).step().options[0])
    procedures.advance(demo)  # the outcome card
    assert odds.advice(demo) is None


def test_a_large_case_is_not_computed(demo: Campaign, monkeypatch: Any) -> None:
    fishing_at_the_dice(demo)
    monkeypatch.setattr(odds, "MAX_FISHING_OUTCOMES", 2)
    report = odds.advice(demo)
    assert report is not None and report.unavailable and not report.tables


def test_mining_stop_or_pull_again(demo: Campaign) -> None:
    operations.move(demo, name="Ash", to_hex="E09")
    operations.pass_turn(demo, name="Bryn")
    mine = next(a for a in operations.available_actions(demo, "Ash") if a.action == "mine")
    procedures.start_mining(demo, name="Ash", feature=mine.target)
    procedure = procedures.current(demo)
    report = odds.advice(demo)
    assert report is not None
    direct = mining_odds(procedure.bag, procedure.omens, 2)
    assert report.distributions["this chip, then stop: chips"] == dict(direct.plans[0].chips)
    sums_to_one(report)
    procedures.advance(demo)  # a chip, drawn in the app
    if not procedures.current(demo).is_finished():
        report = odds.advice(demo)
        assert report is not None and report.tables[0].rows[0][0].text == "stop now"
        sums_to_one(report)


def test_foraging_keep_steps_and_encounters(demo: Campaign) -> None:
    activities.start_foraging(demo, name="Ash", feature="plains")
    seen: set[str] = set()
    for _ in range(60):
        procedure = procedures.current(demo)
        if procedure is None or procedure.is_finished():
            break
        report = odds.advice(demo)
        if procedure.phase in (Phase.KEEP_FIRST, Phase.KEEP_MORE):
            assert report is not None and report.title == "Foraging: which card to keep"
            assert len(report.tables[0].rows) == len(procedure.drawn)
            for p in report.chances.values():
                assert 0 <= p <= 1
            seen.add("keep")
        if procedure.phase in (Phase.PREDATOR, Phase.TEST):
            assert report is not None and report.chances
            seen.add("encounter")
        step = procedure.step()
        procedures.advance(demo, choice=step.options[0] if step.decider is Decider.PLAYER
                           else None)
    assert "keep" in seen


def test_the_night_before_its_cards(demo: Campaign) -> None:
    operations.pass_turn(demo, name="Bryn")
    operations.pass_turn(demo, name="Ash")
    procedures.start_night(demo)
    report = odds.advice(demo)
    assert report is not None and report.title == "The Night: activity"
    sums_to_one(report)
    assert all(k >= 0 for k in report.distributions["increase"])
    if "next event" in report.chances:
        assert Fraction(0) <= report.chances["next event"] <= 1


def test_percent_and_exact() -> None:
    assert odds.percent(Fraction(2, 3)) == "66.7%"
    assert odds.exact(Fraction(2, 3)) == "exactly 2/3"


def test_the_switch_is_saved() -> None:
    assert odds.advisor_on()
    odds.set_advisor(False)
    assert not odds.advisor_on()
    odds.set_advisor(True)
    assert odds.advisor_on()


def test_a_behemoth_contest_before_the_die(demo: Campaign) -> None:
    from companion.operations import behemoth as bh
    from companion.rules.odds import contest_odds

    bh.set_up_behemoth(demo, behemoth="rimeback")
    bh.start_encounter(demo, name="Bryn")
    seen = 0
    for _ in range(20):
        procedure = procedures.current(demo)
        if procedure is None:
            break
        report = odds.advice(demo)
        if procedure.step().decider is Decider.DICE:
            card = procedure.resolving()
            direct = contest_odds(demo.content.rules, procedure.character, card.contest,
                                  procedure.abilities[card.contest],
                                  tuple(procedure.behemoth.boosts.get(card.contest, ())))
            assert report is not None
            assert report.chances["success"] == direct.without_legend.success
            assert report.chances["defeat"] == direct.without_legend.defeat
            sums_to_one(report)
            seen += 1
        else:
            assert report is None
        procedures.advance(demo)
    assert seen


def test_a_test_is_shown_alone_and_with_each_held_legend() -> None:
    from dataclasses import replace

    from companion.content.schema.base import Ability
    from companion.rules.character import Age, Character
    from companion.rules.ids import LegendId
    from companion.rules.legends import Legend
    from companion.rules.odds import ability_test_odds

    legend = Legend(LegendId("7"), "Old Wren", {Ability.MIGHT: 6}, ())
    ash = replace(Character("Ash", "p", Age.YOUNG, {Ability.MIGHT: 2}, (), 3, 4, 4),
                  legends=(legend.id,))
    advice = ability_test_odds(ash, Ability.MIGHT, 8, legends=[legend])
    rows = odds._test_rows(advice, [legend], "might 8+")
    assert [r[0].text for r in rows] == ["might 8+, alone", "might 8+, with Old Wren's legend"]
    assert [r[1].value for r in rows] == [Fraction(1, 6), Fraction(5, 6)]


# Rulebook: Foraging > Animal Encounters (D5, D6): the advisor reads the rules' encounter odds.
@pytest.mark.parametrize(
    ("phase", "test", "animals", "expected"),
    [
        (Phase.PREDATOR, None, 1, {"fight": Fraction(2, 6), "flee": Fraction(2, 6)}),
        (Phase.TEST, "hunt_small_prey", 2, {"success": Fraction(1, 2)}),  # 7+ on 1d6 + 3
        (Phase.TEST, "hunt_large_prey", 1, {"success": Fraction(1, 3)}),  # 8+ on 1d6 + 3
        (Phase.TEST, "fight_predator", 1, {"success": Fraction(2, 6)}),  # 10+ on 1d6 + 4 + 1
    ],
)
def test_animal_encounters_advice_uses_the_rules_encounter_odds(
    phase: Phase, test: str | None, animals: int, expected: dict[str, Fraction]
) -> None:
    from companion.content import load_content
    from companion.content.schema.base import Ability
    from tests.rules.factories import make

    rules = load_content("sample").rules.foraging
    ash = make(boosts={Ability.MIGHT: (1,)})
    procedure = SimpleNamespace(phase=phase, test=test, animals=animals, rules=rules,
                                character=ash)
    report = odds.foraging_report(procedure)
    assert report is not None and report.chances == expected
