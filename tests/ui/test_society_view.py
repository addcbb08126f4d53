"""The Society tab: tracks drawn as tracks, activity events, adjusting through operations."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from companion import operations
from companion.ui.views.society import SocietyView, activity_slots, lore_slots, unrest_slots
from tests.ui.helpers import make_window


@pytest.fixture
def society(qtbot: Any, demo: operations.Campaign) -> SocietyView:
    window = make_window(qtbot, demo)
    # Its tab in front, as a player sees it to click its buttons (a hidden tab waits,
    # issue 37).
    view = window.show_view("society")
    assert isinstance(view, SocietyView)
    return view


def test_track_slots_without_a_window() -> None:
    slots = unrest_slots(7, {6: "a", 11: "b", 16: "c"})
    assert len(slots) == 21 and slots[0].text == "0"
    assert [s.kind for s in slots[:8]] == ["", "filled", "filled", "filled", "filled",
                                           "filled", "reached", "filled"]
    assert slots[6].marked and slots[11].marked and slots[11].kind == ""
    assert len(unrest_slots(23, {})) == 24
    events = [(6, None, "Melt", True), (16, 20, "Cold", False), (21, None, "End", False)]
    slots = activity_slots(7, events)
    assert len(slots) == 22 and slots[6].kind == "fired" and slots[16].marked
    assert "Melt (fired)" in slots[6].tooltip
    assert [s.kind for s in lore_slots(2)][:3] == ["filled", "filled", ""]


def test_the_tracks_and_events_are_shown(society: SocietyView) -> None:
    assert society.unrest.text() == "0"
    assert society.unrest_track.kinds()[1:] == [""] * 20
    assert [i for i, s in enumerate(society.unrest_track.slots) if s.marked] == [6, 11, 16]
    events = [society.events.item(i).text() for i in range(society.events.count())]
    assert len(events) == 5
    assert events[0] == "○  Activity 6+ · Event · Melt floods the lowlands."
    assert events[3].startswith("○  Activity 16–20 · Ongoing")
    assert "The Long Thaw" in society.events_box.title()


def test_adjust_unrest_to_6_highlights_the_threshold_and_the_epoch_goal(
        society: SocietyView, demo: Any) -> None:
    assert "Quelling the Embers" not in society.goals.text()
    society.unrest_amount.setValue(6)
    society.unrest_reason.setText("the elders quarrel")
    society.unrest_button.click()
    assert demo.status().unrest == 6
    assert society.unrest.text() == "6"
    assert society.unrest_reason.text() == ""
    assert society.unrest_track.kinds()[6] == "reached"
    assert society.unrest_track.kinds()[5] == "filled"
    assert society.unrest_track.kinds()[11] == ""
    first = society.thresholds.item(0)
    assert first.text().startswith("● Unrest 6+") and first.font().bold()
    assert society.thresholds.item(1).text().startswith("○ Unrest 11+")
    assert "Quelling the Embers" in society.goals.text()
    assert "the elders quarrel" in demo.journal(limit=1)[0].text


def test_activity_fires_events_and_lore_refusals_are_shown(
        society: SocietyView, demo: Any, monkeypatch: Any) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *rest: shown.append(text))
    society.activity_amount.setValue(10)
    society.activity_button.click()
    assert demo.status().activity == 10
    # D7: a societal event fires as soon as activity reaches it; a general event waits
    # for the end of the Night.
    assert society.events.item(1).text().startswith("✔ fired  Activity 10+ · Societal")
    assert society.events.item(0).text().startswith("○  Activity 6+")
    assert society.activity_track.kinds()[10] == "fired"
    assert society.activity_track.kinds()[6] == "filled"
    society.lore_amount.setValue(3)
    society.lore_button.click()
    assert demo.status().lore == 3
    assert society.lore_track.kinds()[:4] == ["filled"] * 3 + [""]
    society.lore_amount.setValue(-5)
    society.lore_button.click()
    assert shown and demo.status().lore == 3
    society.unrest_amount.setValue(0)
    society.unrest_button.click()
    assert shown[-1] == "Change unrest by at least 1."


def test_activity_events_clicking_increase_activity_applies_the_event_effect(
        society: SocietyView, demo: Any) -> None:
    # Rulebook: Activity Events (D7): the societal event at 10 raises unrest by 2 at once.
    society.activity_amount.setValue(10)
    society.activity_button.click()
    assert demo.status().unrest == 2
    assert society.unrest.text() == "2"
    assert "The elders argue (unrest +2)" in demo.journal(limit=1)[0].text
