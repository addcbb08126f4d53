"""The Day tab: whose turn, the actions here with their cost, taking them by clicking."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox

from companion import operations
from companion.operations.day import ActionOption
from companion.ui.views.day import DayView, action_rows, turn_text
from tests.ui.helpers import energy


def test_action_rows_without_a_window() -> None:
    rows = action_rows("Ash", [
        ActionOption("explore", "Explore E09: 2 energy", 2, "E09"),
        ActionOption("fish", "Fish at the river: 2 energy", 2, "river"),
        ActionOption("gather_water", "Gather Water at the river: 1 energy", 1, "river",
                     "Ash has 0 energy; Gather Water costs 1"),
    ])
    assert rows[0].enabled and rows[0].operation == "move"
    assert dict(rows[0].kwargs) == {"name": "Ash", "to_hex": "E09"}
    assert rows[1].enabled and rows[1].operation == "activity"
    assert dict(rows[1].kwargs) == {"kind": "fishing", "name": "Ash", "feature": "river"}
    assert not rows[2].enabled and rows[2].reason == "Ash has 0 energy; Gather Water costs 1"
    assert turn_text({"phase": "day", "may_act": ["Bryn"], "passed": [],
                      "last_actor": "Ash"}) == \
        "May act now: Bryn. Passed: nobody. Acted last: Ash."


def test_every_action_here_is_shown_with_its_cost(day: DayView) -> None:
    assert day.turn.text() == "May act now: Ash, Bryn. Passed: nobody. Acted last: nobody yet."
    texts = [b.text() for b in day.buttons["Ash"]]
    # Face down, E09 is named by where it lies (Valley > Hexes).
    assert "Explore the unexplored hex north-east of Ashen Ford: 2 energy" in texts
    assert "Gather Water at the river: 1 energy" in texts
    forage = day.button("Ash", "Forage")
    assert forage.isEnabled() and forage.text().endswith("2 energy")
    assert day.button("Ash", "Pass").isEnabled()
    assert not day.night_button.isEnabled()


def test_an_activity_starts_from_the_panel_and_opens_its_dialog(day: DayView, demo: Any) -> None:
    day.button("Ash", "Fish at the river").click()
    from companion.operations import procedures

    assert procedures.in_progress(demo).kind == "fishing"
    assert energy(demo, "Ash") == 3
    assert day.night_button.text().replace("&", "").startswith("Continue the fishing")
    for dialog in day.window_.findChildren(object):
        if type(dialog).__name__ == "ProcedureDialog":
            dialog.close()


def test_the_night_begins_from_the_panel_once_everyone_passed(day: DayView, demo: Any) -> None:
    day.button("Ash", "Pass").click()
    day.button("Bryn", "Pass").click()
    assert day.night_button.isEnabled()
    day.night_button.click()
    from companion.operations import procedures

    assert procedures.in_progress(demo).kind == "night"
    for dialog in day.window_.findChildren(object):
        if type(dialog).__name__ == "NightWizard":
            dialog.close()


def test_explore_by_clicking_then_a_second_action_in_a_row_is_disabled(
        day: DayView, demo: Any) -> None:
    day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford").click()
    assert energy(demo, "Ash") == 3
    assert "Ash" in demo.journal(limit=1)[0].text and "E09" in demo.journal(limit=1)[0].text
    assert day.turn.text().endswith("Acted last: Ash.")
    assert "3/5 energy" in day.boxes["Ash"].title()
    again = day.button("Ash", "Explore")
    assert not again.isEnabled()
    reason = day.reasons["Ash"][day.buttons["Ash"].index(again)].text()
    assert "already taken the last action" in reason and "Bryn" in reason
    assert "already taken the last action" in again.toolTip()
    assert day.button("Bryn", "Gather Water").isEnabled()


def test_passing_and_gathering_water(day: DayView, demo: Any) -> None:
    day.button("Bryn", "Gather Water").click()
    assert energy(demo, "Bryn") == 4
    day.button("Bryn", "Pass").click()
    assert "Passed: Bryn." in day.turn.text()
    assert not day.button("Bryn", "Pass").isEnabled()
    assert not day.button("Bryn", "Explore").isEnabled()
    # With Bryn passed, Ash may act twice in a row.
    day.button("Ash", "Explore the unexplored hex south-east of Ashen Ford").click()
    assert day.button("Ash", "Gather Water").isEnabled()


def test_revive_is_offered_for_an_incapacitated_character_in_the_hex(
        day: DayView, demo: Any, monkeypatch: Any) -> None:
    # No operation injures a character yet, so the game the panel reads is given here;
    # the click is checked to call the revive operation with the chosen token.
    from companion.content.schema.base import HealthToken
    from companion.rules.health import suffer
    from companion.ui import widgets
    from companion.ui.views import day as day_module

    game = widgets.read_game(demo)
    bryn = game.character("Bryn")
    for token in [HealthToken.MINOR_INJURY] * 4 + [HealthToken.MAJOR_INJURY]:
        bryn = suffer(bryn, token)
    hurt = game.with_characters(bryn)
    monkeypatch.setattr(day_module, "read_game", lambda campaign: hurt)
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(operations, "revive",
                        lambda campaign, **kwargs: calls.append(kwargs) or
                        operations.Changes("revived", characters=True))
    day.refresh()
    revive = day.button("Ash", "Revive Bryn")
    assert revive.isEnabled() and revive.text() == "Revive Bryn: 2 energy"
    combo = revive.parentWidget().findChild(QComboBox)
    assert combo is not None and combo.count() == 5
    combo.setCurrentIndex(4)
    revive.click()
    assert calls == [{"name": "Ash", "target": "Bryn", "token": 4}]
    assert not any(b.text().startswith("Revive") for b in day.buttons["Bryn"])


def test_a_discovery_card_is_drawn_from_the_panel_after_exploring(day: DayView,
                                                                 demo: Any) -> None:
    day.button("Ash", "Explore the unexplored hex north-east of Ashen Ford").click()
    assert operations.discovery_due(demo)["character"] == "Ash"
    day.discovery_draw.click()
    assert operations.discovery_due(demo) is None
    assert "Discovery" in demo.journal(limit=1)[0].text or demo.journal(limit=1)[0].kind
