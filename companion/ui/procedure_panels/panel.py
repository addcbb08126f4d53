"""The shared base of the procedure panels: the panel itself (a procedure's
``describe()`` text, for a kind without a panel of its own) and the fonts and read-only
tables every panel lays its procedure out with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.rules.effects import describe_effect


def scaled_font(base: QFont, factor: float, *, bold: bool = False) -> QFont:
    """``base`` scaled by ``factor`` (in points when it has a point size)."""
    font = QFont(base)
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * factor)
    elif base.pixelSize() > 0:
        font.setPixelSize(round(base.pixelSize() * factor))
    font.setBold(bold)
    return font


def heading(text: str, parent_font: QFont, factor: float = 1.15) -> QLabel:
    label = QLabel(text)
    label.setFont(scaled_font(parent_font, factor, bold=True))
    label.setWordWrap(True)
    return label


def make_table(headers: Sequence[str], stretch: Sequence[int] = ()) -> QTableWidget:
    """A read-only table that sizes itself to its rows (no scrolling inside a panel);
    the ``stretch`` columns share the width left (their text wraps), the others fit."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.setWordWrap(True)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for column in stretch:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(not stretch)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return table


def fill_table(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            table.setItem(r, c, item)
    table.resizeRowsToContents()
    # Never narrower than every header's words (a squeezed stretch column printed
    # "aract" for "Character") and every fitted column's contents.
    # A table that may scroll sideways keeps its height for the scroll bar instead.
    header = table.horizontalHeader()
    scrolls = table.horizontalScrollBarPolicy() is not Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    width = 2 * table.frameWidth()
    stretched = []  # the stretch columns share what is left equally
    for column in range(table.columnCount()):
        if header.sectionResizeMode(column) is QHeaderView.ResizeMode.Stretch:
            stretched.append(header.sectionSizeHint(column))
        else:
            width += max(header.sectionSizeHint(column), table.sizeHintForColumn(column))
    width += len(stretched) * max(stretched, default=0)
    table.setMinimumWidth(0 if scrolls else width)
    height = table.horizontalHeader().height() + 2 * table.frameWidth()
    if scrolls:  # room for the scroll bar, whether or not this width needs it
        height += table.horizontalScrollBar().sizeHint().height()
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    table.setFixedHeight(height)


def cell_texts(table: QTableWidget) -> list[list[str]]:
    """Every cell's text, row by row (for tests and screen readers' summaries)."""
    def text(row: int, column: int) -> str:
        item = table.item(row, column)
        return item.text() if item is not None else ""

    return [[text(r, c) for c in range(table.columnCount())] for r in range(table.rowCount())]


def use_font(root: QWidget, font: QFont) -> None:
    """Give ``font`` to every descendant of ``root`` that has no font of its own.

    Item views, headers and styled buttons take the application's per-class fonts rather
    than their parent's, so the dialogs' larger font is handed to them explicitly."""
    for widget in root.findChildren(QWidget):
        if not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            widget.setFont(font)


def effects_text(effects: Sequence[Any]) -> str:
    return ", ".join(describe_effect(e) for e in effects) or "nothing"


class ProcedurePanel(QWidget):
    """Base panel: the procedure's ``describe()`` text. A panel of one kind lays out its
    own widgets in ``build``, in a column without margins, in the panel's font."""

    def __init__(self, font: QFont | None = None) -> None:
        super().__init__()
        if font is not None:
            self.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.build(layout, self.font())

    def build(self, layout: QVBoxLayout, font: QFont) -> None:
        """Lay out the panel's widgets in ``layout``; ``font`` is the panel's."""
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        layout.addWidget(self.text)

    def show_procedure(self, procedure: Any) -> None:
        self.text.setPlainText(procedure.describe() if procedure is not None else "")

    def in_focus(self, procedure: Any) -> QWidget | None:
        """The part of the layout the current step is about (scrolled into view by the
        dialog), or None."""
        return None
