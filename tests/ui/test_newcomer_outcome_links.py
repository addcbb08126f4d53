"""Issue 27 item 6: a Discovery drawn on the Valley map that says "Read Codex outcome
109" offers "Read outcome 109…" in the status bar, from any tab; the button shows the
outcome (only that one) and acts on it in one undoable operation (Rulebook: Using the
Codex > Outcomes; Actions > Move)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from companion import operations
from companion.ui.codex_outcome import OutcomeDialog
from tests.ui.test_newcomer_discovery import arrive


def test_a_discovery_that_names_an_outcome_offers_it_and_applies_what_it_did(
        qtbot: Any, demo: operations.Campaign, refusals: list[str]) -> None:
    view = arrive(qtbot, demo)
    window = view.window()
    edit = view.discovery_card.combo.lineEdit()
    assert edit is not None
    qtbot.keyClicks(edit, "DI06")
    qtbot.mouseClick(view.discovery_card.use_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert "Read Codex outcome 109" in demo.journal(1)[0].text
    button = window.findChild(QPushButton, "outcome109")
    assert button is not None and button.isVisible()
    assert button.text() == "Read outcome 109…"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    [shown] = [d for d in window.findChildren(OutcomeDialog) if d.isVisible()]
    assert "Tracks circle your camp" in shown.text.toPlainText()
    assert "no effects the app can apply" in shown.status.text()
    lore = demo.status().lore
    shown.line.setFocus()
    qtbot.keyClicks(shown.line, "lore +1")
    qtbot.mouseClick(shown.apply_button, Qt.MouseButton.LeftButton)
    assert demo.status().lore == lore + 1
    assert not button.isVisible()  # the last result names no outcome now
    operations.undo(demo)
    assert demo.status().lore == lore


def test_a_result_that_names_no_outcome_offers_none(
        qtbot: Any, demo: operations.Campaign, refusals: list[str]) -> None:
    view = arrive(qtbot, demo)
    edit = view.discovery_card.combo.lineEdit()
    assert edit is not None
    qtbot.keyClicks(edit, "DI07")
    qtbot.mouseClick(view.discovery_card.use_button, Qt.MouseButton.LeftButton)
    assert refusals == []
    assert view.window().findChildren(QPushButton, "outcome109") == []
