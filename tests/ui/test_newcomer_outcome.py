"""Issue 27 (a newcomer at the table), item 7: End Challenge asked for an outcome number
the sample challenge never named. The sample's challenge cards name it; End Challenge
shows it, filled in, in view at 1366×768 and at the larger text size; the CLI says it
(tests/cli/test_challenge_card_cmd.py). Rulebook: Continuing Play; Using the Journal
("record the entry number for the outcome to the challenge that you resolved")."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QDialog

from companion.ui import fit
from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then 25% larger


def test_end_challenge_names_the_outcome_the_card_names(qtbot: Any, demo: Any,
                                                        monkeypatch: Any,
                                                        refusals: list[str],
                                                        font_scale: float) -> None:
    from companion.ui.play_dialogs import EndChallengeDialog

    monkeypatch.setattr(QDialog, "exec", lambda self: self.show() or 0)
    window = make_window(qtbot, demo)
    action = next(a for m in window.menuBar().actions() for a in m.menu().actions()
                  if a.text() == "En&d Challenge…")
    action.trigger()
    [dialog] = [d for d in window.findChildren(EndChallengeDialog) if d.isVisible()]
    qtbot.addWidget(dialog)
    QApplication.processEvents()
    card = demo.content.challenges[demo.status().challenge_id]
    assert card.outcome == "301"
    assert dialog.outcome.text() == "301"
    said = dialog.outcome_source
    assert said.isVisible() and "The challenge card names entry 301" in said.text()
    assert dialog.end_button.isEnabled() and not dialog.problem.isVisible()
    # In view: inside the dialog, which fits a laptop's screen.
    inside = QRect(said.mapTo(dialog, said.rect().topLeft()), said.size())
    assert dialog.rect().contains(inside)
    assert dialog.width() <= fit.LAPTOP_WINDOW.width()
    assert dialog.height() <= fit.LAPTOP_WINDOW.height()
    qtbot.mouseClick(dialog.end_button, Qt.MouseButton.LeftButton)
    assert not refusals
    line = next(e.text for e in demo.journal(5) if "ends:" in e.text)
    assert "outcome entry 301" in line
