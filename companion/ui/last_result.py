"""The whole last result, where a player can read it (issue 36 item 12).

The status bar shows an operation's result on one line, cut short with "…" beside the
game's numbers (issue 27 item 21); a tooltip alone hid the rest from a player at the
table. :class:`WholeResult` is the "Read all" button that stays beside that line (so
nothing moves when a result is long) and is enabled while the line is cut short; it,
or a click on the line, opens :class:`ResultPopup`: the whole result, wrapped and
selectable, just above the status bar.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from companion.ui.widgets import ElidedLabel


class ResultPopup(QFrame):
    """The whole of a result, wrapped, above the status bar; closes on a click away or
    Escape."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("wholeResult")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAccessibleName("The whole last result")
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.box = QVBoxLayout(self)
        self.box.addWidget(self.label)

    def show_above(self, text: str, anchor: QWidget) -> None:
        """Show ``text`` whole, its bottom left corner at ``anchor``'s top left."""
        self.label.setText(text)
        window = anchor.window()
        most = max(anchor.width(), window.width() * 2 // 3)
        chars = self.label.fontMetrics().horizontalAdvance(text) + 32
        width = min(most, max(chars, self.fontMetrics().averageCharWidth() * 30))
        self.setFixedSize(width, self.box.totalHeightForWidth(width))
        corner = anchor.mapToGlobal(QPoint(0, 0))
        self.move(corner.x(), corner.y() - self.height() - 4)
        self.show()


class WholeResult(QToolButton):
    """"Read all" beside the status line: the whole result in :class:`ResultPopup`."""

    def __init__(self, line: ElidedLabel) -> None:
        super().__init__()
        self.line = line
        self.setObjectName("readWholeResult")
        self.setText("Read all")
        self.setAccessibleName("Read the whole last result")
        self.setToolTip("The whole last result, above the status bar")
        self.setEnabled(False)
        self.popup = ResultPopup(line)
        self.clicked.connect(self.read)
        line.cut.connect(self.setEnabled)
        line.installEventFilter(self)  # a click on the cut line reads it all too

    def read(self) -> None:
        """Open the whole result above the status line."""
        if self.line.full_text:
            self.popup.show_above(self.line.full_text, self.line)

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.line and event.type() == QEvent.Type.MouseButtonRelease \
                and self.line.is_cut():
            self.read()
            return True
        return super().eventFilter(watched, event)
