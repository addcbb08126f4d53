"""Issue 36 (the real box, second evening), item 12: the status bar's last result is
never started mid-sentence, and the whole of it can be read: "Read all" beside the line
(or a click on the line) shows it wrapped just above the status bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from companion import operations
from companion.ui import fit
from tests.ui import newcomer
from tests.ui.helpers import make_window

font_scale = newcomer.font_scale  # the fixture: the system font, then Larger text


def test_item12_a_long_result_is_read_whole_above_the_status_bar(
        qtbot: Any, demo: operations.Campaign, refusals: list[str],
        font_scale: float) -> None:
    from companion.operations import behemoth as behemoth_ops

    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    options = behemoth_ops.set_up_options(demo)
    changes = window.run_operation(behemoth_ops.set_up_behemoth,
                                   behemoth=next(iter(options.behemoths)),
                                   lair_hex=options.lair_hexes[0])
    assert changes and refusals == []
    QApplication.processEvents()
    line, read = window.status_message, window.read_result
    assert line.text().endswith("…") and read.isEnabled()  # longer than the line
    qtbot.mouseClick(read, Qt.MouseButton.LeftButton)
    popup = read.popup
    assert popup.isVisible() and popup.label.text() == changes.summary
    label = popup.label
    assert label.height() >= label.heightForWidth(label.width())  # every line shown
    shown = QRect(popup.mapToGlobal(QPoint(0, 0)), popup.size())
    inside = QRect(window.mapToGlobal(QPoint(0, 0)), window.size())
    assert inside.contains(shown), (shown, inside)
    assert shown.bottom() <= line.mapToGlobal(QPoint(0, 0)).y()  # above, not over it
    window.grab().save(f"/tmp/shots/item12_window_{font_scale}.png")
    popup.grab().save(f"/tmp/shots/item12_popup_{font_scale}.png")
    popup.close()
    # A click on the cut line reads it too.
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton)
    assert popup.isVisible()
    popup.close()


def test_item12_a_result_of_several_lines_starts_at_its_start(
        qtbot: Any, demo: operations.Campaign) -> None:
    window = make_window(qtbot, demo)
    window.resize(fit.LAPTOP_WINDOW)
    said = "Cards entered: FP77. Not added:\n  FP78: no deck\n  FP79: no rows"
    window.statusBar().showMessage(said)
    QApplication.processEvents()
    line = window.status_message
    assert line.text().startswith("Cards entered: FP77. Not added: FP78")
    assert "\n" not in line.text()
    assert line.full_text == said
    assert not window.read_result.isEnabled()  # it fits whole: nothing more to read
