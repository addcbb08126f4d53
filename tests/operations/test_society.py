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
    assert "Activity 10: The elders argue (unrest +2)" in changes.summary
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


# --- Activity Events and Unrest by any route (Rulebook: Tracks; D7, D10) -----------------


def _game(campaign: Campaign):  # type: ignore[no-untyped-def]
    from companion.operations.state import load_game

    with campaign.file.read() as session:
        return load_game(session, campaign.content)


def test_activity_events_the_dial_applies_the_event_effect(demo: Campaign) -> None:
    # C1 at 10: "The elders argue (unrest +2)" (societal) raises unrest by 2.
    changes = operations.increase_activity(demo, amount=10)
    assert demo.status().unrest == 2
    assert "unrest +2" in changes.summary
    assert "The elders argue (unrest +2)" in demo.journal(limit=1)[0].text


def test_activity_events_a_card_effect_fires_the_event_too(demo: Campaign) -> None:
    from companion.operations.effects import apply_effects

    apply_effects(demo, name="Ash", effects=[{"do": "activity", "amount": 11}],
                  source="a Night card read at the table")
    assert (demo.status().activity, demo.status().unrest) == (11, 2)
    assert "The elders argue (unrest +2)" in demo.journal(limit=1)[0].text


def test_unrest_6_by_a_card_effect_puts_quelling_the_embers_in_play(demo: Campaign) -> None:
    from companion.operations.effects import apply_effects

    apply_effects(demo, name="Ash", effects=[{"do": "unrest", "amount": 6}])
    assert ("quelling-the-embers", "epoch") in goals(demo)
    assert "Quelling the Embers" in demo.journal(limit=1)[0].text


def test_activity_events_end_of_night_general_event_applies_its_effect(demo: Campaign) -> None:
    from tests.operations.test_procedures import night, play_out

    operations.increase_activity(demo, amount=6)
    assert _game(demo).tokens.lore == {}  # a general event waits for the end of the Night
    night(demo)
    play_out(demo)
    # "Melt floods the lowlands." places a lore token in each hex with characters.
    assert dict(_game(demo).tokens.lore) == {"E01": 1}
    assert "Melt floods the lowlands (lore placed in each hex" in demo.journal(limit=1)[0].text


def test_activity_events_undo_takes_the_event_back_with_the_dial(demo: Campaign) -> None:
    operations.increase_activity(demo, amount=10)
    operations.undo(demo)
    assert (demo.status().activity, demo.status().unrest) == (0, 0)
