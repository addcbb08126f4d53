"""Rulebook: Tracks > Activity (Activity Events), Lore, Unrest; Continuing Play > Mantle
Power; Journal > Culture; readings D7, D10."""

from __future__ import annotations

import pytest

from companion.content.schema.rules import RulesConstants
from companion.rules.errors import IllegalAction
from companion.rules.ids import CultureAbilityId, EventId, MantleId, MantlePowerId
from companion.rules.society import (
    ActivityEvent,
    EventKind,
    MantlePowerFacts,
    Society,
    activity_from_unrest,
    add_culture_ability,
    choose_mantle_power,
    due_events,
    fire_events,
    gain_lore,
    increase_activity,
    increase_unrest,
    ongoing_event,
    spend_lore,
    unrest_effects,
)
from tests.rules.factories import make


@pytest.mark.parametrize(
    ("unrest", "activity", "energy", "rest", "disabled", "goals"),
    [
        (0, 0, 0, 0, False, ()),
        (5, 0, 0, 0, False, ()),
        (6, 1, -1, 0, False, ("quelling-the-embers",)),
        (10, 1, -1, 0, False, ("quelling-the-embers",)),
        (11, 2, -1, -1, False, ("quelling-the-embers",)),
        (16, 3, -1, -1, True, ("quelling-the-embers",)),
        (30, 3, -1, -1, True, ("quelling-the-embers",)),
    ],
)
def test_unrest_thresholds_cumulative_d10(
    rules: RulesConstants,
    unrest: int,
    activity: int,
    energy: int,
    rest: int,
    disabled: bool,
    goals: tuple[str, ...],
) -> None:
    e = unrest_effects(rules, unrest)
    assert (
        e.activity_per_night,
        e.starting_energy_delta,
        e.rest_automatic_energy_delta,
        e.structures_disabled,
        e.epoch_goals,
    ) == (activity, energy, rest, disabled, goals)


def test_unrest_persists_and_never_below_zero() -> None:
    assert increase_unrest(Society(unrest=5), 2).unrest == 7
    assert increase_unrest(Society(unrest=1), -3).unrest == 0


@pytest.mark.parametrize(("unrest", "extra"), [(0, 0), (5, 0), (6, 1), (16, 3)])
def test_night_phase_increase_activity_from_unrest(
    rules: RulesConstants, unrest: int, extra: int
) -> None:
    assert activity_from_unrest(rules, unrest) == extra


def test_activity_only_increases() -> None:
    with pytest.raises(IllegalAction):
        increase_activity(Society(), -1)


EVENTS = (
    ActivityEvent(EventId("storm"), EventKind.GENERAL, 5),
    ActivityEvent(EventId("council"), EventKind.SOCIETAL, 7),
    ActivityEvent(EventId("raid"), EventKind.OUTPOST, 9),
    ActivityEvent(EventId("chill"), EventKind.ONGOING, 4),
    ActivityEvent(EventId("frost"), EventKind.ONGOING, 8, until=10),
)


@pytest.mark.parametrize(
    ("activity", "fired", "end_of_night", "due"),
    [
        (4, (), True, ()),
        (5, (), True, ("storm",)),  # reached: >= (D7)
        (8, (), True, ("storm", "council")),
        (8, (), False, ("council",)),  # societal events fire as soon as reached
        (8, ("storm",), True, ("council",)),  # once per challenge
        (12, ("storm", "council"), True, ("raid",)),
    ],
)
def test_activity_events_fire_once_when_reached_d7(
    activity: int, fired: tuple[str, ...], end_of_night: bool, due: tuple[str, ...]
) -> None:
    society = Society(activity=activity, triggered_events=frozenset(EventId(f) for f in fired))
    assert tuple(e.id for e in due_events(society, EVENTS, end_of_night=end_of_night)) == due


def test_activity_events_fired_are_recorded() -> None:
    society = fire_events(Society(activity=6), [EVENTS[0]])
    assert due_events(society, EVENTS, end_of_night=True) == ()


@pytest.mark.parametrize(
    ("activity", "ongoing"),
    [(3, None), (4, "chill"), (7, "chill"), (8, "frost"), (10, "frost"), (11, None)],
)
def test_activity_ongoing_events_by_range(activity: int, ongoing: str | None) -> None:
    event = ongoing_event(Society(activity=activity), EVENTS)
    assert (event.id if event else None) == ongoing


def test_lore_gain_and_spend(rules: RulesConstants) -> None:
    society = gain_lore(Society(), 5)
    assert spend_lore(rules, society, 5).lore == 0
    with pytest.raises(IllegalAction, match="^the society has 5 lore; this costs 6$"):
        spend_lore(rules, society, 6)
    with pytest.raises(IllegalAction):
        gain_lore(society, -1)


def test_culture_abilities_added_once() -> None:
    society = add_culture_ability(Society(), CultureAbilityId("weaving"))
    assert society.culture_abilities == ("weaving",)
    with pytest.raises(IllegalAction, match="already has"):
        add_culture_ability(society, CultureAbilityId("weaving"))


SIGHT = MantlePowerFacts(MantlePowerId("second-sight"), MantleId("mystic"))


def test_mantle_power_unlocked_and_matching_mantle() -> None:
    mystic = make(mantle=MantleId("mystic"))
    with pytest.raises(IllegalAction, match="has not unlocked"):
        choose_mantle_power(Society(), mystic, SIGHT)
    society = Society(mantle_powers=frozenset({SIGHT.id}))
    assert choose_mantle_power(society, mystic, SIGHT).mantle_power == "second-sight"
    with pytest.raises(IllegalAction, match="Ash wears seeker"):
        choose_mantle_power(society, make(mantle=MantleId("seeker")), SIGHT)
