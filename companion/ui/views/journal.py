"""Journal view: the journal as a book (``companion.ui.journal_book``), whose first
section, History, is the campaign's history, newest first, with a box for free-text
entries and their author.

The list is fetched in pages (Qt's canFetchMore/fetchMore), so a campaign with years of
history opens as fast as a new one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from companion.ui.views import wants

if TYPE_CHECKING:
    from companion.operations import Campaign
    from companion.operations.queries import JournalLine
    from companion.ui.host import Host

Index = QModelIndex | QPersistentModelIndex
PAGE = 200
NEWEST = 8
"""Events read after an operation; as many new ones at once, and the page reloads."""


def kind_words(kind: str) -> str:
    """A journal event's kind in words: "procedure.step" -> "Procedure step"."""
    return " ".join(kind.replace("_", " ").split(".")).capitalize()


class JournalModel(QAbstractTableModel):
    """Journal events, newest first, loaded a page at a time."""

    HEADERS = ("When", "Kind", "Entry")

    def __init__(self) -> None:
        super().__init__()
        self.campaign: Campaign | None = None
        self.lines: list[JournalLine] = []
        self._exhausted = True

    def reload(self, campaign: Campaign | None) -> None:
        self.beginResetModel()
        self.campaign = campaign
        self.lines = campaign.journal(limit=PAGE) if campaign else []
        self._exhausted = len(self.lines) < PAGE
        self.endResetModel()

    def add_newest(self, campaign: Campaign | None) -> None:
        """Put the events written since the newest shown on top (issue 37: a click reads
        the few new events, not the page again; the older ones did not change)."""
        if campaign is None or campaign is not self.campaign or not self.lines:
            self.reload(campaign)
            return
        shown = self.lines[0].id
        fresh = [line for line in campaign.journal(limit=NEWEST) if line.id > shown]
        if len(fresh) >= NEWEST:
            self.reload(campaign)
            return
        if fresh:
            self.beginInsertRows(QModelIndex(), 0, len(fresh) - 1)
            self.lines[:0] = fresh
            self.endInsertRows()

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: N802, B008
        return not parent.isValid() and not self._exhausted

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: N802, B008
        if self.campaign is None or not self.lines:
            return
        more = self.campaign.journal(limit=PAGE, before_id=self.lines[-1].id)
        self._exhausted = len(more) < PAGE
        if more:
            start = len(self.lines)
            self.beginInsertRows(QModelIndex(), start, start + len(more) - 1)
            self.lines.extend(more)
            self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.lines)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        line = self.lines[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return (line.when, kind_words(line.kind), line.text)[index.column()]
        if role == Qt.ItemDataRole.FontRole and line.undone:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{line.text} (undone)" if line.undone else line.text
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None


class JournalView(QWidget):
    """The Journal tab: the book of sections; History (event list + entry box) first."""

    def __init__(self, window: Host) -> None:
        super().__init__()
        from companion.ui.journal_book import JournalBook

        self.window_ = window
        self.model = JournalModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Journal")
        self.table.verticalHeader().hide()
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("Write a journal entry and press Enter…")
        self.entry.setAccessibleName("New journal entry")
        self.entry.returnPressed.connect(self.add_entry)
        self.author = QLineEdit()
        self.author.setPlaceholderText("Author")
        self.author.setAccessibleName("Author of the entry")
        self.author.setMaximumWidth(160)
        self.add_button = QPushButton("&Add Entry")
        self.add_button.clicked.connect(self.add_entry)
        row = QHBoxLayout()
        row.addWidget(self.entry, 1)
        row.addWidget(self.author)
        row.addWidget(self.add_button)
        self.history = QWidget()
        history_layout = QVBoxLayout(self.history)
        history_layout.setContentsMargins(0, 0, 0, 0)
        history_layout.addLayout(row)
        history_layout.addWidget(self.table)
        self.book = JournalBook(window, self.history)
        layout = QVBoxLayout(self)
        layout.addWidget(self.book)
        window.campaign_changed.connect(self.on_changed)

    def add_entry(self) -> None:
        from companion.operations import add_journal_entry

        text = self.entry.text().strip()
        if text and self.window_.run_operation(add_journal_entry, text=text,
                                               author=self.author.text().strip() or None):
            self.entry.clear()

    def on_changed(self, changes: object) -> None:
        if self.window_.defer(self, changes):
            return  # refreshed once when its tab is shown (issue 37)
        if wants(changes, "journal"):
            if getattr(changes, "written", None) is not None and \
                    not getattr(changes, "everything", False):
                # An operation only adds events: the older ones stay as they were.
                self.model.add_newest(self.window_.campaign)
            else:  # an undo or redo marks an older event too
                self.model.reload(self.window_.campaign)
        self.book.refresh()
