"""A page of the Journal book: one section of the game's journal under its heading, and
the table most sections are read in (one row a line of the section, its id kept with it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QInputDialog,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from companion.ui.widgets import heading

if TYPE_CHECKING:
    from companion.operations import Campaign

ROW_ID = Qt.ItemDataRole.UserRole


def tree(name: str, headers: Sequence[str]) -> QTreeWidget:
    """A flat table of rows under ``headers`` (the last column takes the width left)."""
    widget = QTreeWidget()
    widget.setAccessibleName(name)
    widget.setHeaderLabels(list(headers))
    widget.setRootIsDecorated(False)
    widget.setAlternatingRowColors(True)
    widget.setUniformRowHeights(True)
    widget.setWordWrap(True)
    header = widget.header()
    header.setStretchLastSection(True)
    for column in range(len(headers) - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return widget


def item(values: Sequence[object], row_id: int | None = None) -> QTreeWidgetItem:
    """A row of ``values`` (each also its tooltip), keeping the line's ``row_id``."""
    row = QTreeWidgetItem([str(v) for v in values])
    if row_id is not None:
        row.setData(0, ROW_ID, row_id)
    for column, value in enumerate(values):
        row.setToolTip(column, str(value))
    return row


def selected_id(widget: QTreeWidget) -> int | None:
    """The id of the row under the cursor, or None."""
    current = widget.currentItem()
    value = current.data(0, ROW_ID) if current is not None else None
    return int(value) if value is not None else None


class Page(QWidget):
    """A section of the book: ``refresh(campaign)`` reloads it from the file."""

    title = ""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(heading(self.title))

    def refresh(self, campaign: Campaign | None) -> None:
        """Reload the section from ``campaign``; every section overrides this (a Page
        is never shown itself), so reaching here is a programming error."""
        raise TypeError(f"{type(self).__name__} must reload itself in refresh()")

    def run(self, operation: Callable[..., Any], **kwargs: Any) -> bool:
        return bool(self.window_.run_operation(operation, **kwargs))


class TablePage(Page):
    """A section read as one table: ``build`` lays out what stands above it, ``rows``
    gives its rows; an empty section says ``empty`` (when it has words for it)."""

    headers: tuple[str, ...] = ()
    table_name = ""
    """The table's name for screen readers (the title when blank)."""
    empty = ""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.tree = tree(self.table_name or self.title, self.headers)
        self.build()
        self.layout_.addWidget(self.tree, 1)

    def build(self) -> None:
        """Lay out the controls above the table (none by default)."""

    def rows(self, campaign: Campaign) -> Iterable[QTreeWidgetItem]:
        """The section's rows, read from ``campaign``."""
        return ()

    def refresh(self, campaign: Campaign | None) -> None:
        self.tree.clear()
        for row in self.rows(campaign) if campaign else []:
            self.tree.addTopLevelItem(row)
        if self.empty and self.tree.topLevelItemCount() == 0:
            self.tree.addTopLevelItem(QTreeWidgetItem([self.empty]))

    def ask_about_selected(self, title: str, label: str) -> tuple[int, str] | None:
        """The selected row's id and the words typed for it, or None (no row selected,
        or the question cancelled)."""
        chosen = selected_id(self.tree)
        if chosen is None:
            return None
        text, ok = QInputDialog.getText(self, title, label)
        return (chosen, text) if ok else None
