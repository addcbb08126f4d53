"""Issue 27 (a newcomer at the table), item 11: nothing moves under the mouse. A click
lands on what was under the pointer when the player aimed: turning a token does not
resize the code panel (Rulebook: Processing & Crafting > Crafting Items), and a hint
that disappears in End Challenge does not move the looming list."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then 25% larger


def where(widget: QWidget, top: QWidget) -> QRect:
    return QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())


def test_crafting_turning_a_token_keeps_every_button_in_place(qtbot: Any, demo: Any,
                                                             refusals: list[str],
                                                             font_scale: float) -> None:
    from companion.operations.effects import apply_effects
    from companion.ui.crafting_dialog import open_crafting

    apply_effects(demo, name="Ash", effects=[
        {"do": "gain", "resource": r} for r in ("slate", "moss", "flint", "sinew", "flint")])
    window = make_window(qtbot, demo)
    dialog = open_crafting(window, "Ash")
    assert dialog is not None
    qtbot.addWidget(dialog)
    # at the size it opens at (narrower than the laptop: where the columns jumped)
    flints = [i for i, tile in dialog._palette_tiles if tile.name == "Flint"]
    dialog.set_tokens(*flints)
    QApplication.processEvents()
    buttons = [*dialog.turn_buttons["left"], *dialog.turn_buttons["right"],
               dialog.craft_button]
    seen = {b: where(b, dialog) for b in buttons}
    panel = where(dialog.code_label.parentWidget(), dialog)
    texts = set()
    for side in ("left", "right"):
        for _ in range(4):
            button = dialog.turn_buttons[side][1]
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            QApplication.processEvents()
            texts.add(dialog.code_label.text())
            for other in buttons:
                assert where(other, dialog) == seen[other], (side, other.accessibleName())
            assert where(dialog.code_label.parentWidget(), dialog).width() == panel.width()
    assert len(texts) > 1  # the code did change as the tokens turned


def test_end_challenge_looming_list_stays_put_as_the_hint_goes(qtbot: Any, demo: Any,
                                                               refusals: list[str],
                                                               monkeypatch: Any,
                                                               font_scale: float) -> None:
    # Rulebook: Continuing Play: the outcome names looming challenges; each is ticked.
    from PySide6.QtWidgets import QDialog

    from companion.ui.play_dialogs import EndChallengeDialog, open_end_challenge

    monkeypatch.setattr(QDialog, "exec", lambda self: self.show() or 0)
    window = make_window(qtbot, demo)
    open_end_challenge(window)
    [dialog] = [d for d in window.findChildren(EndChallengeDialog) if d.isVisible()]
    qtbot.addWidget(dialog)
    QApplication.processEvents()
    dialog.outcome.clear()  # the card's outcome was filled in (issue 27 item 7)
    QApplication.processEvents()
    assert dialog.problem.isVisible()  # "Type the outcome entry the challenge names."
    looming = dialog.looming
    assert looming.count() >= 2
    before = where(looming, dialog)
    row = looming.visualItemRect(looming.item(1))
    # The player types the outcome; the hint disappears; then ticks the second challenge.
    qtbot.keyClicks(dialog.outcome, "112")
    QApplication.processEvents()
    assert not dialog.problem.isVisible()
    assert where(looming, dialog) == before
    box = QPoint(row.left() + row.height() // 2, row.center().y())  # its check box
    qtbot.mouseClick(looming.viewport(), Qt.MouseButton.LeftButton, pos=box)
    ticked = [looming.item(i).checkState() == Qt.CheckState.Checked
              for i in range(looming.count())]
    assert ticked[1] and sum(ticked) == 1, ticked
