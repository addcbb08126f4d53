"""Society tracks through the operations (Rulebook: Tracks; readings D7, D10)."""

from __future__ import annotations

import pytest

from companion import operations
from companion.operations import Campaign, Refused
from companion.operations.setup import goals


def test_tracks_unrest_6_puts_quelling_the_embers_in_play(demo: Campaign) -> None:
    changes = operations.change_unrest(demo, amount=6, reason="a feud")
    assert "Quelling the Embers" in changes.summary
    assert ("quelling-the-embers", "epoch") in goals(demo)
    assert [line.active for line in demo.status().unrest_thresholds] == [True, False, False]


def test_tracks_unrest_never_below_zero(demo: Campaign) -> None:
    operations.change_unrest(demo, amount=-3)
    assert demo.status().unrest == 0


def test_activity_events_immediate_and_societal_fire_as_soon_as_reached(demo: Campaign) -> None:
    # C1: threshold 6 is a general event (end of Night only); 10 is societal (D7).
    changes = operations.increase_activity(demo, amount=10)
    assert "Activity 10: The elders argue." in changes.summary
    assert "Melt floods" not in changes.summary
    again = operations.increase_activity(demo, amount=1)
    assert "Event" not in again.summary  # once per challenge


def test_lore_spending_more_than_held_is_refused(demo: Campaign) -> None:
    operations.gain_lore(demo, amount=3)
    with pytest.raises(Refused, match="has 3 lore; this costs 4"):
        operations.spend_lore(demo, amount=4)
    operations.spend_lore(demo, amount=3)
    assert demo.status().lore == 0


def test_culture_abilities_and_mantle_powers_show_in_the_status(demo: Campaign) -> None:
    operations.add_culture_ability(demo, name="Smoke Signals")
    power = next(iter(demo.content.mantle_powers))
    operations.unlock_mantle_power(demo, power=power)
    culture = demo.status().culture
    assert "Smoke Signals" in culture and any(power in c for c in culture)
    with pytest.raises(Refused, match="already unlocked"):
        operations.unlock_mantle_power(demo, power=power)
